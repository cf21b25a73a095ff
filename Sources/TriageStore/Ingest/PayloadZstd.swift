import CZstd

/// A zstd dictionary digested once for both directions. zstd's digested dictionaries are
/// read-only after creation, so one is shared by every thread that compresses or reads.
final class ZstdDictionary: @unchecked Sendable {  // C handles, never mutated after init
    /// Its row in `payload_dictionary`.
    let id: Int64
    let bytes: [UInt8]
    private let compression: OpaquePointer
    private let decompression: OpaquePointer

    /// Nil when zstd cannot digest the bytes.
    init?(id: Int64, bytes: [UInt8]) {
        guard let c = bytes.withUnsafeBytes({ ZSTD_createCDict($0.baseAddress, $0.count, PayloadZstd.level) }) else { return nil }
        guard let d = bytes.withUnsafeBytes({ ZSTD_createDDict($0.baseAddress, $0.count) }) else {
            ZSTD_freeCDict(c)
            return nil
        }
        self.id = id
        self.bytes = bytes
        compression = c
        decompression = d
    }

    deinit {
        ZSTD_freeCDict(compression)
        ZSTD_freeDDict(decompression)
    }

    fileprivate func withCompression<T>(_ body: (OpaquePointer) -> T) -> T { body(compression) }
    fileprivate func withDecompression<T>(_ body: (OpaquePointer) -> T) -> T { body(decompression) }
}

/// Kept payloads in zstd frames: without a dictionary until a source has payloads enough to
/// train one on (`PayloadDictionaries`), then with it. A frame holds neither the size (stored
/// beside it), nor a checksum, nor the dictionary's id (the row names it): a few bytes on each
/// of payloads of a hundred or two.
enum PayloadZstd {
    /// zstd's default level: on the store's own dictionary, 0.17 of a native line, where level 1
    /// gives 0.18 and level 9 0.15 at three times the time.
    static let level: Int32 = 3

    /// A compression context, reused call after call by one thread (a context is not thread-safe).
    final class Compressor {
        private let context: OpaquePointer

        init() {
            context = ZSTD_createCCtx()
            ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, PayloadZstd.level)
            ZSTD_CCtx_setParameter(context, ZSTD_c_contentSizeFlag, 0)
            ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 0)
            ZSTD_CCtx_setParameter(context, ZSTD_c_dictIDFlag, 0)
        }

        deinit { ZSTD_freeCCtx(context) }

        /// `bytes` in one frame, with `dictionary` where one is given.
        func compress(_ bytes: [UInt8], dictionary: ZstdDictionary?) -> [UInt8] {
            if let dictionary {
                _ = dictionary.withCompression { ZSTD_CCtx_refCDict(context, $0) }
            } else {
                ZSTD_CCtx_refCDict(context, nil)
            }
            var out = [UInt8](repeating: 0, count: ZSTD_compressBound(bytes.count))
            let written = out.withUnsafeMutableBytes { o in
                bytes.withUnsafeBytes { i in ZSTD_compress2(context, o.baseAddress, o.count, i.baseAddress, i.count) }
            }
            precondition(ZSTD_isError(written) == 0, "ZSTD_compressBound gives room enough")
            out.removeLast(out.count - written)
            return out
        }
    }

    /// The payload of a frame that was `size` bytes before; nil when the frame is not one
    /// `Compressor` wrote with this dictionary.
    static func decompress(_ frame: [UInt8], size: Int, dictionary: ZstdDictionary?) -> [UInt8]? {
        guard let context = ZSTD_createDCtx() else { return nil }
        defer { ZSTD_freeDCtx(context) }
        if let dictionary {
            _ = dictionary.withDecompression { ZSTD_DCtx_refDDict(context, $0) }
        }
        var out = [UInt8](repeating: 0, count: max(size, 1))
        let read = out.withUnsafeMutableBytes { o in
            frame.withUnsafeBytes { i in ZSTD_decompressDCtx(context, o.baseAddress, size, i.baseAddress, i.count) }
        }
        guard ZSTD_isError(read) == 0, read == size else { return nil }
        out.removeLast(out.count - size)
        return out
    }

    /// A dictionary of at most `capacity` bytes trained on `samples` (zstd's own trainer), nil
    /// when they are too few or too alike for one.
    static func train(on samples: [[UInt8]], capacity: Int) -> [UInt8]? {
        let joined = samples.flatMap { $0 }
        let sizes = samples.map(\.count)
        var dictionary = [UInt8](repeating: 0, count: capacity)
        let made = dictionary.withUnsafeMutableBytes { d in
            joined.withUnsafeBytes { s in
                sizes.withUnsafeBufferPointer { z in
                    ZDICT_trainFromBuffer(d.baseAddress, d.count, s.baseAddress, z.baseAddress, UInt32(z.count))
                }
            }
        }
        guard ZDICT_isError(made) == 0, made > 0 else { return nil }
        dictionary.removeLast(dictionary.count - made)
        return dictionary
    }
}
