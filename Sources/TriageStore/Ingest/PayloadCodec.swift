import CZlib

/// How the store compresses a kept event's payload: zlib (deflate) at level 6, the system
/// library serve's and ingest's gzip already link, with a preset dictionary for the payload's
/// source (`PayloadDictionary`): a payload of a few hundred bytes has too little of its own to
/// repeat, while its member names are the same in every event. The size before compression is
/// stored beside it. A zlib stream names its dictionary by the dictionary's Adler-32, so a payload
/// compressed without one (or with an earlier dictionary) is read as it was written.
enum PayloadCodec {
    /// The payload compressed, with the dictionary of `source` where there is one.
    static func compress(_ bytes: [UInt8], source: String? = nil) -> [UInt8] {
        var stream = z_stream()
        let dictionary = source.flatMap(PayloadDictionary.forSource)
        // A window just large enough for the dictionary and the payload, and a hash table to
        // match, so that a payload of a few hundred bytes does not allocate and clear zlib's
        // 256 KiB of defaults; the output is the same deflate any reader inflates.
        let (window, memory) = streamSize(covering: (dictionary?.count ?? 0) + bytes.count)
        guard deflateInit2_(&stream, 6, Z_DEFLATED, window, memory, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return compressPlain(bytes) }
        defer { deflateEnd(&stream) }
        if let dictionary {
            let set = dictionary.withUnsafeBufferPointer { d in deflateSetDictionary(&stream, d.baseAddress, uInt(d.count)) }
            guard set == Z_OK else { return compressPlain(bytes) }
        }
        var out = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
        let code = run(&stream, from: bytes, into: &out) { deflate(&$0, Z_FINISH) }
        guard code == Z_STREAM_END else { return compressPlain(bytes) }
        out.removeLast(out.count - Int(stream.total_out))
        return out
    }

    /// Points the stream at all of `input` and `output` (without copying the input) and runs
    /// `step` (a deflate or an inflate) while the pointers hold.
    private static func run(_ stream: inout z_stream, from input: [UInt8], into output: inout [UInt8],
                            _ step: (inout z_stream) -> Int32) -> Int32 {
        input.withUnsafeBufferPointer { i in
            output.withUnsafeMutableBufferPointer { o in
                stream.next_in = UnsafeMutablePointer(mutating: i.baseAddress)
                stream.avail_in = uInt(i.count)
                stream.next_out = o.baseAddress
                stream.avail_out = uInt(o.count)
                return step(&stream)
            }
        }
    }

    /// zlib's window bits (9…15) for a window that holds `bytes`, and its memory level (2…8).
    static func streamSize(covering bytes: Int) -> (windowBits: Int32, memLevel: Int32) {
        let bits = Int32(max(9, min(15, Int.bitWidth - max(1, bytes - 1).leadingZeroBitCount)))
        return (bits, max(2, min(8, bits - 7)))
    }

    /// Without a dictionary (what payloads kept before dictionaries were).
    static func compressPlain(_ bytes: [UInt8]) -> [UInt8] {
        var size = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let code = out.withUnsafeMutableBufferPointer { o in
            bytes.withUnsafeBufferPointer { b in compress2(o.baseAddress, &size, b.baseAddress, uLong(b.count), 6) }
        }
        precondition(code == Z_OK, "compressBound gives room enough")
        out.removeLast(out.count - Int(size))
        return out
    }

    /// The payload of `bytes` compressed bytes that were `size` bytes before; nil when they are
    /// not what `compress` wrote (or name a dictionary this build does not know).
    static func decompress(_ bytes: [UInt8], size: Int) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var out = [UInt8](repeating: 0, count: max(size, 1))
        let code = run(&stream, from: bytes, into: &out) { stream in
            let code = inflate(&stream, Z_FINISH)
            guard code == Z_NEED_DICT else { return code }
            guard let dictionary = PayloadDictionary.withAdler(UInt32(stream.adler)) else { return Z_NEED_DICT }
            let set = dictionary.withUnsafeBufferPointer { d in inflateSetDictionary(&stream, d.baseAddress, uInt(d.count)) }
            return set == Z_OK ? inflate(&stream, Z_FINISH) : set
        }
        guard code == Z_STREAM_END, Int(stream.total_out) == size else { return nil }
        out.removeLast(out.count - size)
        return out
    }
}
