/// errtriage's native NDJSON (README, "Native format"): one event or complaint per line, written
/// byte by byte on the reporting thread (no `JSONSerialization`: a report must cost microseconds).
enum NativeRecord {
    /// The custom key that says how many older reports the queue dropped to make room for this one.
    static let droppedKey = "reports_dropped"

    /// Bounds that keep every line far below `serve`'s 1 MiB per event.
    enum Limit {
        static let message = 8 * 1024
        static let keyName = 128
        static let keyValue = 4 * 1024
        static let keys = 64
        static let complaintText = 64 * 1024
        static let fact = 256
    }

    /// One event line, newline included. `dropped` > 0 adds the custom key `reports_dropped`.
    static func event(id: String, millis: Int64, chain: ErrorChain, facts: DeviceFacts, environment: String?,
                      keys: [(String, String)], dropped: Int) -> [UInt8] {
        var w = JSONWriter()
        w.open()
        w.field("event_id", id)
        w.field("timestamp", Timestamp.iso8601(millis: millis))
        w.field("kind", "non-fatal")
        w.field("codes", chain.shortCodesChain)
        w.key("chain")
        w.byte(UInt8(ascii: "["))
        for (n, link) in chain.links.enumerated() {
            if n > 0 { w.byte(UInt8(ascii: ",")) }
            w.open()
            w.field("domain", link.domain, limit: Limit.fact)
            w.field("short", link.shortName)
            w.field("code", link.code)
            w.field("name", link.codeName, limit: Limit.fact)
            w.close()
        }
        w.byte(UInt8(ascii: "]"))
        if facts.appVersion != nil || facts.appBuild != nil {
            w.key("app")
            w.open()
            w.field("version", facts.appVersion, limit: Limit.fact)
            w.field("build", facts.appBuild, limit: Limit.fact)
            w.close()
        }
        w.field("platform", facts.platform, limit: Limit.fact)
        if facts.osName != nil || facts.osVersion != nil {
            w.key("os")
            w.open()
            w.field("name", facts.osName, limit: Limit.fact)
            w.field("version", facts.osVersion, limit: Limit.fact)
            w.close()
        }
        w.key("device")
        w.open()
        w.field("model", facts.deviceModel, limit: Limit.fact)
        w.field("orientation", facts.orientation, limit: Limit.fact)
        w.field("app_state", facts.appState, limit: Limit.fact)
        w.field("free_ram", facts.freeRAM)
        w.field("free_disk", facts.freeDisk)
        if let jailbroken = facts.jailbroken { w.field("jailbroken", jailbroken) }
        w.close()
        w.field("network", facts.network, limit: Limit.fact)
        w.field("user_id", facts.userID, limit: Limit.fact)
        w.field("session_id", facts.sessionID, limit: Limit.fact)
        w.field("environment", environment, limit: Limit.fact)
        w.field("message", chain.systemMessage, limit: Limit.message)
        if !keys.isEmpty || dropped > 0 {
            w.key("keys")
            w.open()
            for (name, value) in keys.prefix(Limit.keys) {
                w.key(name, limit: Limit.keyName)
                w.string(value, limit: Limit.keyValue)
            }
            if dropped > 0 { w.field(droppedKey, String(dropped)) }
            w.close()
        }
        w.close()
        w.byte(0x0A)
        return w.bytes
    }

    /// One complaint line, newline included.
    static func complaint(id: String, millis: Int64, text: String, category: String?, userID: String?,
                          codes: [String]) -> [UInt8] {
        var w = JSONWriter()
        w.open()
        w.field("complaint_id", id)
        w.field("timestamp", Timestamp.iso8601(millis: millis))
        w.field("channel", "in-app")
        w.field("category", category, limit: Limit.fact)
        w.field("text", text, limit: Limit.complaintText)
        w.field("user_id", userID, limit: Limit.fact)
        if !codes.isEmpty {
            w.key("codes")
            w.byte(UInt8(ascii: "["))
            for (n, code) in codes.enumerated() {
                if n > 0 { w.byte(UInt8(ascii: ",")) }
                w.string(code, limit: Limit.fact)
            }
            w.byte(UInt8(ascii: "]"))
        }
        w.close()
        w.byte(0x0A)
        return w.bytes
    }
}

/// JSON written into bytes: objects, fields and escaped strings cut at a character boundary.
struct JSONWriter {
    var bytes: [UInt8] = []
    private var needsComma = false

    init() { bytes.reserveCapacity(1024) }

    mutating func byte(_ b: UInt8) {
        bytes.append(b)
        needsComma = b != UInt8(ascii: "{") && b != UInt8(ascii: "[") && b != UInt8(ascii: ",")
    }

    mutating func open() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        byte(UInt8(ascii: "{"))
    }

    mutating func close() { byte(UInt8(ascii: "}")) }

    mutating func key(_ name: String, limit: Int = Int.max) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        string(name, limit: limit)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func field(_ name: String, _ value: String?, limit: Int = Int.max) {
        guard let value else { return }
        key(name)
        string(value, limit: limit)
    }

    mutating func field(_ name: String, _ value: Int) {
        key(name)
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    mutating func field(_ name: String, _ value: Int64?) {
        guard let value else { return }
        key(name)
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    /// A field whose value is JSON already.
    mutating func field(_ name: String, raw: String) {
        key(name)
        bytes.append(contentsOf: raw.utf8)
        needsComma = true
    }

    mutating func field(_ name: String, _ value: Bool) {
        key(name)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    /// A JSON string of at most `limit` UTF-8 bytes of the text (cut before a character's first byte).
    mutating func string(_ text: String, limit: Int) {
        bytes.append(UInt8(ascii: "\""))
        var taken = 0
        let hex = Array("0123456789abcdef".utf8)
        var utf8 = text.utf8.makeIterator()
        while let b = utf8.next() {
            // A lead byte (not 10xxxxxx) past the limit ends the text.
            if taken >= limit, b & 0xC0 != 0x80 { break }
            taken += 1
            switch b {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20, 0x7F:
                bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(b >> 4)], hex[Int(b & 0xF)]])
            default: bytes.append(b)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }
}

/// UTC times as the native format writes them.
enum Timestamp {
    /// `2026-10-04T22:33:00.123Z` for milliseconds since 1970.
    static func iso8601(millis: Int64) -> String {
        let seconds = millis >= 0 ? millis / 1000 : (millis - 999) / 1000
        let ms = Int(millis - seconds * 1000)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = Int(doy - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        let year = Int(yoe + era * 400 + (month <= 2 ? 1 : 0))
        var out = [UInt8]()
        out.reserveCapacity(24)
        func put(_ value: Int, _ width: Int) {
            var digits = [UInt8](repeating: UInt8(ascii: "0"), count: width)
            var v = value
            for i in stride(from: width - 1, through: 0, by: -1) {
                digits[i] = UInt8(ascii: "0") + UInt8(v % 10)
                v /= 10
            }
            out.append(contentsOf: digits)
        }
        put(year, 4); out.append(UInt8(ascii: "-")); put(month, 2); out.append(UInt8(ascii: "-")); put(day, 2)
        out.append(UInt8(ascii: "T"))
        put(secondOfDay / 3600, 2); out.append(UInt8(ascii: ":")); put(secondOfDay / 60 % 60, 2); out.append(UInt8(ascii: ":"))
        put(secondOfDay % 60, 2); out.append(UInt8(ascii: ".")); put(ms, 3); out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }
}
