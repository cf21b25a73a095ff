#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CZlib

/// Why an input file cannot be read at all (as opposed to one bad line in it).
public struct InputError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
    public var description: String { "\(path): \(reason)" }
}

/// One line of input, without its line break.
public struct InputLine: Sendable {
    /// 1-based line number in the (decompressed) file.
    public var number: Int
    public var bytes: [UInt8]
    /// The line was longer than the limit; `bytes` holds only its start.
    public var tooLong: Bool
    /// The line's whole length in bytes, without its line break (`bytes.count` unless `tooLong`).
    public var size: Int

    public init(number: Int, bytes: [UInt8], tooLong: Bool = false, size: Int? = nil) {
        self.number = number
        self.bytes = bytes
        self.tooLong = tooLong
        self.size = size ?? bytes.count
    }
}

/// Reads a file (or stdin for `-`) line by line in bounded memory; gzip input is inflated on the fly.
public final class LineReader {
    /// The longest line kept whole; longer lines are reported with `tooLong`.
    public static let maxLineBytes = 1 << 20

    public let path: String
    /// The file's size on disk, when known (not for pipes).
    public let totalBytes: Int64?
    /// Bytes read from the file so far (compressed bytes for gzip).
    public private(set) var bytesRead: Int64 = 0

    private let fd: Int32
    /// The read buffer of a file; empty when the lines come from memory (a request's body), which never reads.
    private var raw: [UInt8] = []
    private var inflater: Inflater?
    private var pending: [UInt8] = []
    private var pendingStart = 0
    private var eof = false
    private var lineNumber = 0
    private var skippingLongLine = false
    /// While skipping a long line: its start and its length so far.
    private var longLineHead: [UInt8] = []
    private var longLineBytes = 0
    private var closed = false

    public init(path: String) throws(InputError) {
        self.path = path
        if path == "-" {
            fd = 0
            totalBytes = nil
        } else {
            var st = stat()
            guard stat(path, &st) == 0 else { throw InputError(path: path, reason: LineReader.errnoText()) }
            guard (st.st_mode & S_IFMT) != S_IFDIR else { throw InputError(path: path, reason: "is a directory, not a file") }
            let opened = open(path, O_RDONLY)
            guard opened >= 0 else { throw InputError(path: path, reason: LineReader.errnoText()) }
            fd = opened
            totalBytes = (st.st_mode & S_IFMT) == S_IFREG ? Int64(st.st_size) : nil
            if totalBytes == 0 {
                close(fd)
                closed = true
                throw InputError(path: path, reason: "the file is empty")
            }
        }
        raw = [UInt8](repeating: 0, count: 1 << 18)
        try fill()
        if pending.count >= 2, pending[0] == 0x1F, pending[1] == 0x8B {
            let compressed = pending
            pending = []
            do { inflater = try Inflater() } catch { throw InputError(path: path, reason: "cannot start gzip decoding") }
            try inflate(compressed)
        }
        if path == "-" && pending.isEmpty && eof { throw InputError(path: path, reason: "standard input is empty") }
        if LineReader.looksBinary(pending.prefix(4096)) {
            throw InputError(path: path, reason: "looks like a binary file, not NDJSON or CSV text")
        }
    }

    /// Reads lines from bytes in memory (a request's body, already decompressed), as from a file.
    public init(bytes: [UInt8], name: String) {
        path = name
        fd = -1
        closed = true
        totalBytes = Int64(bytes.count)
        bytesRead = Int64(bytes.count)
        pending = bytes
        eof = true
    }

    deinit { if !closed, fd != 0 { close(fd) } }

    /// The next line, or nil at the end of the input. A line over `maxLineBytes` is read to its
    /// end in bounded memory and comes back as its start, with `tooLong` and its whole `size`.
    public func next() throws(InputError) -> InputLine? {
        while true {
            if let nl = newline() {
                var end = nl
                if end > pendingStart, pending[end - 1] == 0x0D { end -= 1 }
                if skippingLongLine {
                    longLineBytes += end - pendingStart
                    pendingStart = nl + 1
                    compact()
                    return finishLongLine()
                }
                if end - pendingStart > LineReader.maxLineBytes {
                    // The whole line was read before its length was checked (it came in one read, or from memory).
                    longLineHead = Array(pending[pendingStart..<pendingStart + 256])
                    longLineBytes = end - pendingStart
                    pendingStart = nl + 1
                    compact()
                    return finishLongLine()
                }
                let bytes = Array(pending[pendingStart..<end])
                pendingStart = nl + 1
                compact()
                lineNumber += 1
                return InputLine(number: lineNumber, bytes: bytes)
            }
            if pending.count - pendingStart > LineReader.maxLineBytes {
                // Keep only the long line's start and its length, and read on to its line break.
                if !skippingLongLine {
                    skippingLongLine = true
                    longLineHead = Array(pending[pendingStart..<pendingStart + 256])
                    longLineBytes = 0
                }
                longLineBytes += pending.count - pendingStart
                pending.removeAll(keepingCapacity: true)
                pendingStart = 0
            }
            if eof {
                if skippingLongLine {
                    longLineBytes += pending.count - pendingStart
                    pending.removeAll()
                    pendingStart = 0
                    return finishLongLine()
                }
                guard pendingStart < pending.count else { return nil }
                if pending.count - pendingStart > LineReader.maxLineBytes {
                    longLineHead = Array(pending[pendingStart..<pendingStart + 256])
                    longLineBytes = pending.count - pendingStart
                    pending.removeAll()
                    pendingStart = 0
                    return finishLongLine()
                }
                let bytes = Array(pending[pendingStart...])
                pending.removeAll()
                pendingStart = 0
                lineNumber += 1
                return InputLine(number: lineNumber, bytes: bytes)
            }
            try readMore()
        }
    }

    /// The next `count` bytes as they are, line breaks and carriage returns included (a
    /// length-delimited payload); nil when the input ends first. With `keep` false they are read
    /// past in bounded memory and an empty array comes back. Lines they hold are counted.
    public func bytes(_ count: Int, keep: Bool) throws(InputError) -> [UInt8]? {
        var out: [UInt8] = []
        var remaining = count
        while remaining > 0 {
            let take = min(remaining, pending.count - pendingStart)
            if take > 0 {
                let range = pendingStart..<pendingStart + take
                lineNumber += pending[range].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                if keep { out += pending[range] }
                pendingStart += take
                remaining -= take
                compact()
            }
            if remaining > 0 {
                if eof { return nil }
                try readMore()
            }
        }
        return out
    }

    /// Reads the next chunk of the input into `pending` (inflated, for gzip).
    private func readMore() throws(InputError) {
        if inflater != nil {
            try readChunk { chunk throws(InputError) in try self.inflate(chunk) }
        } else {
            try fill()
        }
    }

    private func finishLongLine() -> InputLine {
        skippingLongLine = false
        lineNumber += 1
        defer { longLineHead = [] }
        return InputLine(number: lineNumber, bytes: longLineHead, tooLong: true, size: longLineBytes)
    }

    /// The index of the first line feed at or past `pendingStart`, found by `memchr` (the generic
    /// search over the array slice was a tenth of the reading thread).
    private func newline() -> Int? {
        guard pendingStart < pending.count else { return nil }
        return pending.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress,
                  let found = memchr(base + pendingStart, 0x0A, buffer.count - pendingStart) else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    private func compact() {
        if pendingStart > 1 << 20 || pendingStart == pending.count {
            pending.removeFirst(pendingStart)
            pendingStart = 0
        }
    }

    private func fill() throws(InputError) {
        try readChunk { chunk in self.pending.append(contentsOf: chunk) }
    }

    private func readChunk(_ use: ([UInt8]) throws(InputError) -> Void) throws(InputError) {
        let n = raw.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EINTR { return }
            throw InputError(path: path, reason: LineReader.errnoText())
        }
        if n == 0 {
            eof = true
            if let inflater, !inflater.finished, inflater.started {
                throw InputError(path: path, reason: "the gzip data ends early (truncated file?)")
            }
            return
        }
        bytesRead += Int64(n)
        try use(Array(raw[0..<n]))
    }

    private func inflate(_ chunk: [UInt8]) throws(InputError) {
        guard let inflater else { return }
        do {
            try inflater.inflate(chunk) { self.pending.append(contentsOf: $0) }
        } catch {
            throw InputError(path: path, reason: "not valid gzip data")
        }
    }

    /// Many control bytes (other than tab, line breaks and ESC) mean a binary file.
    static func looksBinary(_ sample: ArraySlice<UInt8>) -> Bool {
        guard !sample.isEmpty else { return false }
        let controls = sample.filter { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D && $0 != 0x1B }.count
        return controls * 10 > sample.count
    }

    static func errnoText() -> String {
        switch errno {
        case ENOENT: "no such file"
        case EACCES: "permission denied"
        case EISDIR: "is a directory, not a file"
        default: String(cString: strerror(errno))
        }
    }
}

/// Streaming gzip decoding with zlib; concatenated gzip members are read one after another.
final class Inflater {
    private var stream = z_stream()
    private var output = [UInt8](repeating: 0, count: 1 << 18)
    private(set) var finished = false
    private(set) var started = false

    struct Failure: Error {}

    init() throws {
        // 16 + MAX_WBITS: expect a gzip header.
        let status = inflateInit2_(&stream, 16 + 15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw Failure() }
    }

    deinit { inflateEnd(&stream) }

    func inflate(_ input: [UInt8], emit: ([UInt8]) -> Void) throws {
        var input = input
        var offset = 0
        while offset < input.count {
            if finished {
                // Another gzip member follows the one that ended.
                guard inflateReset(&stream) == Z_OK else { throw Failure() }
                finished = false
            }
            started = true
            let consumed: Int = try input.withUnsafeMutableBufferPointer { inBuf in
                stream.next_in = inBuf.baseAddress! + offset
                stream.avail_in = UInt32(inBuf.count - offset)
                var status: Int32 = Z_OK
                repeat {
                    status = output.withUnsafeMutableBufferPointer { outBuf in
                        stream.next_out = outBuf.baseAddress
                        stream.avail_out = UInt32(outBuf.count)
                        return CZlib.inflate(&stream, Z_NO_FLUSH)
                    }
                    guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else { throw Failure() }
                    let produced = output.count - Int(stream.avail_out)
                    if produced > 0 { emit(Array(output[0..<produced])) }
                    if status == Z_STREAM_END { finished = true; break }
                    if status == Z_BUF_ERROR && produced == 0 { break }
                } while stream.avail_in > 0 || stream.avail_out == 0
                return inBuf.count - offset - Int(stream.avail_in)
            }
            offset += consumed
            if consumed == 0 && !finished { break }
        }
    }
}
