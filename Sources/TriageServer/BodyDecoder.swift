import CBrotli
import CZlib

/// Why a request's body was refused before it was read as records.
public enum BodyRefusal: Error, Equatable, Sendable {
    /// Over a size limit: 413.
    case tooLarge(String)
    /// Not what its headers say (corrupt compression, an unknown encoding): 400 or 415.
    case malformed(String)
    case unsupportedEncoding(String)
    /// The bodies in flight are at the memory budget: 503, try again.
    case overloaded(String)

    public var reason: String {
        switch self {
        case .tooLarge(let r), .malformed(let r), .unsupportedEncoding(let r), .overloaded(let r): r
        }
    }
}

/// The sizes a request may have: the compressed body, what it inflates to, and their ratio, so that
/// a small body that inflates without end (a decompression bomb) is stopped early.
public struct BodyLimits: Sendable, Equatable {
    /// The body as sent (Sentry's own limit: 20 MiB).
    public var maxBodyBytes = 20 << 20
    /// The body inflated, at most.
    public var maxInflatedBytes = 100 << 20
    /// Inflating beyond this many times the sent size (and beyond `ratioFloorBytes`) is refused.
    public var maxRatio = 200
    public var ratioFloorBytes = 4 << 20
    public init() {}

    /// What a body of `count` bytes may inflate to.
    func inflatedLimit(for count: Int) -> Int {
        min(maxInflatedBytes, max(ratioFloorBytes, count.multipliedReportingOverflow(by: maxRatio).overflow ? .max : count * maxRatio))
    }
}

/// Turns a body sent with a `Content-Encoding` into its bytes: identity, gzip, deflate (zlib or
/// raw) and br, within the limits.
public enum BodyDecoder {
    /// Told of each piece of output as it is made; false stops the decoding (`overloaded`).
    public typealias Reserve = (Int) -> Bool

    public static func decode(_ body: [UInt8], contentEncoding: String?, limits: BodyLimits = BodyLimits(),
                              reserve: Reserve = { _ in true }) throws(BodyRefusal) -> [UInt8] {
        guard body.count <= limits.maxBodyBytes else {
            throw .tooLarge("body of \(body.count) bytes is over the limit of \(limits.maxBodyBytes) bytes")
        }
        return try undo(body, contentEncoding: contentEncoding, limit: limits.inflatedLimit(for: body.count), reserve: reserve, untilNewline: false)
    }

    /// The body's first line, decoded no further than it (at most `cap` bytes of it): where an
    /// envelope names its key when a request names none. Nil when the first `cap` bytes hold no
    /// line break and the body goes on, so a bomb costs no more than `cap` bytes of work.
    public static func firstLine(_ body: [UInt8], contentEncoding: String?, cap: Int = 16 << 10) throws(BodyRefusal) -> [UInt8]? {
        let decoded: [UInt8]
        do {
            decoded = try undo(body, contentEncoding: contentEncoding, limit: cap, reserve: { _ in true }, untilNewline: true)
        } catch .tooLarge {
            return nil
        }
        if let newline = decoded.firstIndex(of: 0x0A) { return Array(decoded[..<newline]) }
        return decoded.count < cap ? decoded : nil
    }

    /// Undoes the encodings in the order they were applied, from the last; each step's output at
    /// most `limit` bytes. `untilNewline`: the final step stops at its first line break.
    static func undo(_ body: [UInt8], contentEncoding: String?, limit: Int, reserve: Reserve, untilNewline: Bool) throws(BodyRefusal) -> [UInt8] {
        let encodings = (contentEncoding ?? "").split(separator: ",").map { $0.trimmingSpaces.lowercased() }.filter { !$0.isEmpty }
        var bytes = body
        for (n, encoding) in encodings.reversed().enumerated() {
            let stop = untilNewline && n == encodings.count - 1
            switch encoding {
            case "identity": continue
            case "gzip", "x-gzip": bytes = try inflate(bytes, windowBits: 16 + 15, limit: limit, name: "gzip", reserve: reserve, untilNewline: stop)
            case "deflate":
                // RFC 9110's deflate is zlib-wrapped; some clients send it raw.
                if isZlibHeader(bytes) {
                    do {
                        bytes = try inflate(bytes, windowBits: 15, limit: limit, name: "deflate", reserve: reserve, untilNewline: stop)
                    } catch .malformed(let reason) {
                        // Rarely, raw deflate begins with two bytes that read as a zlib header.
                        guard let raw = try? inflate(bytes, windowBits: -15, limit: limit, name: "deflate", reserve: reserve, untilNewline: stop) else {
                            throw .malformed(reason)
                        }
                        bytes = raw
                    }
                } else {
                    bytes = try inflate(bytes, windowBits: -15, limit: limit, name: "deflate", reserve: reserve, untilNewline: stop)
                }
            case "br": bytes = try brotli(bytes, limit: limit, reserve: reserve, untilNewline: stop)
            default:
                throw .unsupportedEncoding("Content-Encoding \(encoding.prefix(40)) is not supported (gzip, deflate and br are)")
            }
        }
        if untilNewline && (encodings.isEmpty || encodings.allSatisfy({ $0 == "identity" })) {
            let end = bytes.firstIndex(of: 0x0A) ?? bytes.count
            guard end <= limit else { throw .tooLarge("the first line is over \(limit) bytes") }
            return Array(bytes[..<end])
        }
        return bytes
    }

    /// Whether a deflate body starts with a zlib header (RFC 1950: method 8, the check bits right), not raw deflate.
    static func isZlibHeader(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] & 0x0F == 8 && bytes[0] >> 4 <= 7 && (UInt16(bytes[0]) << 8 | UInt16(bytes[1])) % 31 == 0
    }

    static func overloaded() -> BodyRefusal {
        .overloaded("the server holds as many request bodies as its memory budget allows; retry shortly")
    }

    static func tooLarge(_ name: String, _ limit: Int, _ sent: Int) -> BodyRefusal {
        .tooLarge("\(name) body of \(sent) bytes inflates beyond \(limit) bytes (the limit for its size)")
    }

    static func inflate(_ input: [UInt8], windowBits: Int32, limit: Int, name: String, reserve: Reserve = { _ in true },
                        untilNewline: Bool = false) throws(BodyRefusal) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .malformed("cannot start \(name) decoding")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        output.reserveCapacity(min(limit, max(4096, input.count * 4)))
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var status: Int32 = Z_OK
        var failure: BodyRefusal?
        input.withUnsafeBufferPointer { inBuffer in
            stream.next_in = UnsafeMutablePointer(mutating: inBuffer.baseAddress)
            stream.avail_in = UInt32(inBuffer.count)
            repeat {
                let produced: Int = chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return out.count - Int(stream.avail_out)
                }
                if status != Z_OK && status != Z_STREAM_END && !(status == Z_BUF_ERROR && produced > 0) {
                    failure = .malformed("the \(name) body is corrupt (zlib status \(status))")
                    return
                }
                if output.count + produced > limit {
                    failure = tooLarge(name, limit, input.count)
                    return
                }
                guard reserve(produced) else {
                    failure = overloaded()
                    return
                }
                output.append(contentsOf: chunk[0..<produced])
                if untilNewline && chunk[0..<produced].contains(0x0A) { return }
                if status == Z_STREAM_END {
                    guard stream.avail_in > 0 else { return }
                    // Several gzip members make one body (`cat a.gz b.gz`): each is read, as gunzip
                    // does. Anything else after the stream's end is refused, never dropped unread.
                    guard windowBits > 15, stream.avail_in >= 2, stream.next_in[0] == 0x1F, stream.next_in[1] == 0x8B,
                          inflateReset(&stream) == Z_OK else {
                        failure = .malformed("the \(name) body has \(stream.avail_in) bytes after its stream's end")
                        return
                    }
                    status = Z_OK
                    continue
                }
                if produced == 0 && stream.avail_in == 0 {
                    failure = .malformed("the \(name) body ends before its stream does")
                    return
                }
            } while true
        }
        if let failure { throw failure }
        return output
    }

    static func brotli(_ input: [UInt8], limit: Int, reserve: Reserve = { _ in true }, untilNewline: Bool = false) throws(BodyRefusal) -> [UInt8] {
        guard let decoder = BrotliDecoderCreateInstance(nil, nil, nil) else { throw .malformed("cannot start br decoding") }
        defer { BrotliDecoderDestroyInstance(decoder) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var failure: BodyRefusal?
        input.withUnsafeBufferPointer { inBuffer in
            var nextIn = inBuffer.baseAddress
            var availIn = inBuffer.count
            while true {
                var result = BROTLI_DECODER_RESULT_ERROR
                let produced: Int = chunk.withUnsafeMutableBufferPointer { out in
                    var nextOut = out.baseAddress
                    var availOut = out.count
                    result = BrotliDecoderDecompressStream(decoder, &availIn, &nextIn, &availOut, &nextOut, nil)
                    return out.count - availOut
                }
                if output.count + produced > limit {
                    failure = tooLarge("br", limit, input.count)
                    return
                }
                guard reserve(produced) else {
                    failure = overloaded()
                    return
                }
                output.append(contentsOf: chunk[0..<produced])
                if untilNewline && chunk[0..<produced].contains(0x0A) { return }
                switch result {
                case BROTLI_DECODER_RESULT_SUCCESS:
                    if availIn > 0 { failure = .malformed("the br body has \(availIn) bytes after its stream's end") }
                    return
                case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: continue
                case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
                    failure = .malformed("the br body ends before its stream does")
                    return
                default:
                    failure = .malformed("the br body is corrupt")
                    return
                }
            }
        }
        if let failure { throw failure }
        return output
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while s.first == " " || s.first == "\t" { s.removeFirst() }
        while s.last == " " || s.last == "\t" { s.removeLast() }
        return s
    }
}
