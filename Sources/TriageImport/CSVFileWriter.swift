import CSV
import Foundation

/// Rows written as CSV (RFC 4180, by CSV.swift, the library the CSV sources are read with) to a
/// file or, for `-`, to standard output: what `export --format csv` writes.
public final class CSVFileWriter {
    /// Why the output cannot be written: one sentence naming it.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    private let writer: CSVWriter

    /// Opens `path` (`-` for standard output), made anew.
    public init(path: String) throws(Failure) {
        guard let stream = OutputStream(toFileAtPath: path == "-" ? "/dev/stdout" : path, append: false) else {
            throw Failure(description: "cannot write \(path)")
        }
        do { writer = try CSVWriter(stream: stream) } catch { throw Failure(description: "cannot write \(path): \(error)") }
    }

    /// One row: its fields quoted where they must be.
    public func write(row: [String]) throws {
        try writer.write(row: row)
    }

    /// Ends the output.
    public func close() {
        writer.stream.close()
    }
}
