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
    /// The compressed stream ends before its end: malformed for a whole body; for a body still
    /// arriving, more is needed.
    case truncated(String)

    public var reason: String {
        switch self {
        case .tooLarge(let r), .malformed(let r), .unsupportedEncoding(let r), .overloaded(let r), .truncated(let r): r
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
    /// Told of each piece of memory the output is about to take (its storage, as it grows); false
    /// stops the decoding (`overloaded`).
    public typealias Reserve = (Int) -> Bool
    /// Told of memory given back (an earlier storage, once copied to a larger one).
    public typealias Release = (Int) -> Void

    public static func decode(_ body: [UInt8], contentEncoding: String?, limits: BodyLimits = BodyLimits(),
                              reserve: Reserve = { _ in true }, release: Release = { _ in }) throws(BodyRefusal) -> [UInt8] {
        try decodeHeld(body, contentEncoding: contentEncoding, limits: limits, reserve: reserve, release: release).bytes
    }

    /// `decode`, and how much of what was reserved the result still holds (0 when the body was
    /// not encoded: the result is the body itself).
    static func decodeHeld(_ body: [UInt8], contentEncoding: String?, limits: BodyLimits = BodyLimits(),
                           reserve: Reserve, release: Release) throws(BodyRefusal) -> (bytes: [UInt8], held: Int) {
        guard body.count <= limits.maxBodyBytes else {
            throw .tooLarge("body of \(body.count) bytes is over the limit of \(limits.maxBodyBytes) bytes")
        }
        do {
            return try undo(body, contentEncoding: contentEncoding, limit: limits.inflatedLimit(for: body.count), reserve: reserve,
                            release: release, untilNewline: false)
        } catch .truncated(let reason) {
            throw .malformed(reason)
        }
    }

    /// A decoding's output, its storage held against the budget as it grows: at least doubled
    /// each time (so the copies cost no more than the output once more), and while it grows the
    /// old and the new storage both, since both are in memory for the copy.
    struct Output {
        var bytes: [UInt8] = []
        var held = 0
        let limit: Int

        mutating func append<Piece: Collection<UInt8>>(_ piece: Piece, reserve: Reserve, release: Release) -> Bool {
            let needed = bytes.count + piece.count
            if needed > held {
                let capacity = max(needed, min(max(2 * held, 64 << 10), limit + 1))
                guard reserve(capacity) else { return false }
                var grown: [UInt8] = []
                grown.reserveCapacity(capacity)
                grown.append(contentsOf: bytes)
                // Consumed, not copied: a second reference to the new storage would make the append
                // below copy it again, outside the budget.
                bytes = consume grown
                release(held)
                held = capacity
            }
            bytes.append(contentsOf: piece)
            return true
        }
    }

    /// What the start of a body says of its first line.
    public enum FirstLine: Equatable, Sendable {
        /// The first line, decoded (without its line break).
        case line([UInt8])
        /// The body so far decodes to less than a line: more of it is needed.
        case needMore
        /// No line within the cap, or the start does not decode: no header to read.
        case none
    }

    /// The first line of a body, or of as much of it as has arrived (`complete` false), decoded no
    /// further than that line and at most `cap` bytes of it: where an envelope names its key when
    /// a request names none, so a bomb costs no more than `cap` bytes of work.
    public static func firstLine(_ body: [UInt8], contentEncoding: String?, complete: Bool = true, cap: Int = 16 << 10) -> FirstLine {
        // A line of `cap` bytes is never sent as more than a few times that, compressed: a start
        // longer than that without a whole line (empty deflate blocks, say) is no header.
        let looked = sentCap(cap)
        let decoded: [UInt8]
        do {
            decoded = try undo(body.count > looked ? Array(body.prefix(looked)) : body, contentEncoding: contentEncoding,
                               limit: cap, reserve: { _ in true }, release: { _ in }, untilNewline: true).bytes
        } catch .truncated {
            return complete || body.count > looked ? .none : .needMore
        } catch {
            return .none
        }
        if let newline = decoded.firstIndex(of: 0x0A) { return newline <= cap ? .line(Array(decoded[..<newline])) : .none }
        if decoded.count >= cap || body.count > looked { return .none }
        return complete ? .line(decoded) : .needMore
    }

    /// How much of a body, as sent, is looked at for a first line of at most `cap` bytes.
    public static func sentCap(_ cap: Int) -> Int { cap * 8 }

    /// Undoes the encodings in the order they were applied, from the last; each step's output at
    /// most `limit` bytes. `untilNewline`: the final step stops at its first line break.
    static func undo(_ body: [UInt8], contentEncoding: String?, limit: Int, reserve: Reserve, release: Release,
                     untilNewline: Bool) throws(BodyRefusal) -> (bytes: [UInt8], held: Int) {
        let encodings = (contentEncoding ?? "").split(separator: ",").map { $0.trimmingSpaces.lowercased() }.filter { !$0.isEmpty }
        var bytes = body
        var held = 0
        for (n, encoding) in encodings.reversed().enumerated() {
            let stop = untilNewline && n == encodings.count - 1
            let step: Output
            switch encoding {
            case "identity": continue
            case "gzip", "x-gzip": step = try inflate(bytes, windowBits: 16 + 15, limit: limit, name: "gzip", reserve: reserve, release: release, untilNewline: stop)
            case "deflate":
                // RFC 9110's deflate is zlib-wrapped; some clients send it raw.
                if isZlibHeader(bytes) {
                    do {
                        step = try inflate(bytes, windowBits: 15, limit: limit, name: "deflate", reserve: reserve, release: release, untilNewline: stop)
                    } catch .malformed(let reason) {
                        // Rarely, raw deflate begins with two bytes that read as a zlib header.
                        guard let raw = try? inflate(bytes, windowBits: -15, limit: limit, name: "deflate", reserve: reserve, release: release,
                                                     untilNewline: stop) else {
                            throw .malformed(reason)
                        }
                        step = raw
                    }
                } else {
                    step = try inflate(bytes, windowBits: -15, limit: limit, name: "deflate", reserve: reserve, release: release, untilNewline: stop)
                }
            case "br": step = try brotli(bytes, limit: limit, reserve: reserve, release: release, untilNewline: stop)
            default:
                throw .unsupportedEncoding("Content-Encoding \(encoding.prefix(40)) is not supported (gzip, deflate and br are)")
            }
            // The step's input, when an earlier step made it, is no longer held.
            bytes = step.bytes
            release(held)
            held = step.held
        }
        if untilNewline && encodings.allSatisfy({ $0 == "identity" }) {
            let end = bytes.prefix(limit + 1).firstIndex(of: 0x0A) ?? min(bytes.count, limit + 1)
            guard end <= limit else { throw .tooLarge("the first line is over \(limit) bytes") }
            return (end < bytes.count ? Array(bytes[...end]) : Array(bytes[..<end]), 0)
        }
        return (bytes, held)
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

    /// Where the first line break of a pass's output is, counting it (nil when it holds none).
    static func lineEnd(_ chunk: [UInt8], _ produced: Int) -> Int? {
        chunk[0..<produced].firstIndex(of: 0x0A).map { $0 + 1 }
    }

    /// Keeps a pass's output up to its first line break: the first line is whole once it is
    /// within the limit, however much more the pass inflated after it. Nil when kept.
    static func keepLine(_ chunk: [UInt8], end: Int, into output: inout Output, limit: Int, name: String, sent: Int,
                         reserve: Reserve, release: Release) -> BodyRefusal? {
        guard output.bytes.count + end <= limit + 1 else { return tooLarge(name, limit, sent) }
        guard output.append(chunk[0..<end], reserve: reserve, release: release) else { return overloaded() }
        return nil
    }

    static func inflate(_ input: [UInt8], windowBits: Int32, limit: Int, name: String, reserve: Reserve = { _ in true },
                        release: Release = { _ in }, untilNewline: Bool = false) throws(BodyRefusal) -> Output {
        var stream = z_stream()
        guard inflateInit2_(&stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .malformed("cannot start \(name) decoding")
        }
        defer { inflateEnd(&stream) }
        var output = Output(limit: limit)
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
                if untilNewline, let end = lineEnd(chunk, produced) {
                    // The line is what is wanted: the rest of the pass is not kept, nor held against the limit.
                    failure = keepLine(chunk, end: end, into: &output, limit: limit, name: name, sent: input.count, reserve: reserve, release: release)
                    return
                }
                if output.bytes.count + produced > limit {
                    failure = tooLarge(name, limit, input.count)
                    return
                }
                guard output.append(chunk[0..<produced], reserve: reserve, release: release) else {
                    failure = overloaded()
                    return
                }
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
                    failure = .truncated("the \(name) body ends before its stream does")
                    return
                }
            } while true
        }
        if let failure { throw failure }
        return output
    }

    static func brotli(_ input: [UInt8], limit: Int, reserve: Reserve = { _ in true }, release: Release = { _ in },
                       untilNewline: Bool = false) throws(BodyRefusal) -> Output {
        guard let decoder = BrotliDecoderCreateInstance(nil, nil, nil) else { throw .malformed("cannot start br decoding") }
        defer { BrotliDecoderDestroyInstance(decoder) }
        var output = Output(limit: limit)
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
                if untilNewline, let end = lineEnd(chunk, produced) {
                    failure = keepLine(chunk, end: end, into: &output, limit: limit, name: "br", sent: input.count, reserve: reserve, release: release)
                    return
                }
                if output.bytes.count + produced > limit {
                    failure = tooLarge("br", limit, input.count)
                    return
                }
                guard output.append(chunk[0..<produced], reserve: reserve, release: release) else {
                    failure = overloaded()
                    return
                }
                switch result {
                case BROTLI_DECODER_RESULT_SUCCESS:
                    if availIn > 0 { failure = .malformed("the br body has \(availIn) bytes after its stream's end") }
                    return
                case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: continue
                case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT:
                    failure = .truncated("the br body ends before its stream does")
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
