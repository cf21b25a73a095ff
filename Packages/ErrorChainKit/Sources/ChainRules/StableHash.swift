/// FNV-1a, 64-bit: a hash that is the same on every machine and run (Swift's `Hasher` is not).
public enum StableHash {
    /// The 64-bit hash of the text's UTF-8 bytes.
    public static func value(_ text: String) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in text.utf8 {
            h ^= UInt64(b)
            h = h &* 0x0000_0100_0000_01B3
        }
        return h
    }

    /// 16 lowercase hex digits.
    public static func hex(_ text: String) -> String {
        let s = String(value(text), radix: 16)
        return String(repeating: "0", count: 16 - s.count) + s
    }
}
