import CBrotli
import CZlib

/// Why a request's body was refused before it was read as records.
public enum BodyRefusal: Error, Equatable, Sendable {
    /// Over a size limit: 413.
    case tooLarge(String)
    /// Not what its headers say (corrupt compression, an unknown encoding): 400 or 415.
    case malformed(String)
    case unsupportedEncoding(String)

    public var reason: String {
        switch self {
        case .tooLarge(let r), .malformed(let r), .unsupportedEncoding(let r): r
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
    public static func decode(_ body: [UInt8], contentEncoding: String?, limits: BodyLimits = BodyLimits()) throws(BodyRefusal) -> [UInt8] {
        guard body.count <= limits.maxBodyBytes else {
            throw .tooLarge("body of \(body.count) bytes is over the limit of \(limits.maxBodyBytes) bytes")
        }
        let encodings = (contentEncoding ?? "").split(separator: ",").map { $0.trimmingSpaces.lowercased() }.filter { !$0.isEmpty }
        var bytes = body
        // Encodings are listed in the order they were applied: undo them from the last.
        for encoding in encodings.reversed() {
            let limit = limits.inflatedLimit(for: body.count)
            switch encoding {
            case "identity": continue
            case "gzip", "x-gzip": bytes = try inflate(bytes, windowBits: 16 + 15, limit: limit, name: "gzip")
            case "deflate":
                // RFC 9110's deflate is zlib-wrapped; some clients send it raw.
                do { bytes = try inflate(bytes, windowBits: 15, limit: limit, name: "deflate") } catch .malformed {
                    bytes = try inflate(bytes, windowBits: -15, limit: limit, name: "deflate")
                }
            case "br": bytes = try brotli(bytes, limit: limit)
            default:
                throw .unsupportedEncoding("Content-Encoding \(encoding.prefix(40)) is not supported (gzip, deflate and br are)")
            }
        }
        return bytes
    }

    static func tooLarge(_ name: String, _ limit: Int, _ sent: Int) -> BodyRefusal {
        .tooLarge("\(name) body of \(sent) bytes inflates beyond \(limit) bytes (the limit for its size)")
    }

    static func inflate(_ input: [UInt8], windowBits: Int32, limit: Int, name: String) throws(BodyRefusal) -> [UInt8] {
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
                output.append(contentsOf: chunk[0..<produced])
                if status == Z_STREAM_END { return }
                if produced == 0 && stream.avail_in == 0 {
                    failure = .malformed("the \(name) body ends before its stream does")
                    return
                }
            } while true
        }
        if let failure { throw failure }
        return output
    }

    static func brotli(_ input: [UInt8], limit: Int) throws(BodyRefusal) -> [UInt8] {
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
                output.append(contentsOf: chunk[0..<produced])
                switch result {
                case BROTLI_DECODER_RESULT_SUCCESS: return
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
