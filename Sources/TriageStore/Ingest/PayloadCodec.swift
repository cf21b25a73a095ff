import CZlib

/// How the store compresses a kept event's payload: zlib (deflate) at level 6, the system
/// library serve's and ingest's gzip already link. The size before compression is stored beside it.
enum PayloadCodec {
    /// The payload compressed.
    static func compress(_ bytes: [UInt8]) -> [UInt8] {
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
    /// not what `compress` wrote.
    static func decompress(_ bytes: [UInt8], size: Int) -> [UInt8]? {
        var length = uLong(size)
        var out = [UInt8](repeating: 0, count: max(size, 1))
        let code = out.withUnsafeMutableBufferPointer { o in
            bytes.withUnsafeBufferPointer { b in uncompress(o.baseAddress, &length, b.baseAddress, uLong(b.count)) }
        }
        guard code == Z_OK, Int(length) == size else { return nil }
        out.removeLast(out.count - size)
        return out
    }
}
