/// Byte counts as people read them: `1.5 GiB`, `812 MiB`, `4.0 KiB`; and back (`1GiB`, `512MiB`, `0`).
public enum ByteCount {
    static let units: [(String, Int64)] = [("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)]

    public static func text(_ bytes: Int64) -> String {
        for (name, size) in units where bytes >= size {
            let value = Double(bytes) / Double(size)
            return value >= 100 || value == value.rounded() ? "\(Int64(value.rounded())) \(name)" : "\((value * 10).rounded() / 10) \(name)"
        }
        return "\(bytes) B"
    }

    /// Parses `1GiB`, `1 GiB`, `512MiB`, `1G`, `500M`, `4096` (bytes) or `0`; nil for anything else.
    public static func parse(_ text: String) -> Int64? {
        let trimmed = text.filter { $0 != " " }
        let digits = trimmed.prefix { $0.isNumber || $0 == "." }
        guard !digits.isEmpty, let number = Double(digits), number >= 0 else { return nil }
        let unit = trimmed.dropFirst(digits.count).uppercased()
        let scale: Int64
        switch unit {
        case "", "B": scale = 1
        case "K", "KB", "KIB": scale = 1 << 10
        case "M", "MB", "MIB": scale = 1 << 20
        case "G", "GB", "GIB": scale = 1 << 30
        case "T", "TB", "TIB": scale = 1 << 40
        default: return nil
        }
        let bytes = number * Double(scale)
        return bytes < 9e18 ? Int64(bytes) : nil
    }
}
