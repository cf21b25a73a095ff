import Foundation

/// Buffered line output to a file or standard output: the writing side of `LineReader`.
public final class LineWriter {
    /// Why a file cannot be written.
    public struct Failure: Error, CustomStringConvertible {
        /// Which file, and why.
        public var description: String
    }

    private let handle: FileHandle
    private var buffer = Data()
    private let ownsHandle: Bool

    /// Creates (or empties) the file at `path`; `-` is standard output.
    public init(path: String) throws(Failure) {
        if path == "-" {
            handle = .standardOutput
            ownsHandle = false
        } else {
            guard FileManager.default.createFile(atPath: path, contents: nil), let h = FileHandle(forWritingAtPath: path) else {
                throw Failure(description: "cannot write \(path)")
            }
            handle = h
            ownsHandle = true
        }
        buffer.reserveCapacity(1 << 20)
    }

    /// Writes one line (a newline is added).
    public func write(_ line: String) throws(Failure) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Writes out what is buffered.
    public func flush() throws(Failure) {
        guard !buffer.isEmpty else { return }
        do { try handle.write(contentsOf: buffer) } catch { throw Failure(description: "cannot write: \(error.localizedDescription)") }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, and closes the file (not standard output).
    public func close() throws(Failure) {
        try flush()
        if ownsHandle { try? handle.close() }
    }
}
