/// A parsed JSON value. Numbers keep their source text so that 64-bit integers stay exact.
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case let (.bool(x), .bool(y)): x == y
        case let (.number(x), .number(y)): x == y
        case let (.string(x), .string(y)): x == y
        case let (.array(x), .array(y)): x == y
        case let (.object(x), .object(y)): x.map(\.0) == y.map(\.0) && x.map(\.1) == y.map(\.1)
        default: false
        }
    }

    /// The member named `key` of an object (the first, if repeated); nil otherwise.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// Follows a dotted path of object members, e.g. `"contexts.device.model"`.
    public func at(_ path: String) -> JSONValue? {
        // Walks the path without splitting it into an array: decoders call this for every field of every event.
        var current = self
        var rest = Substring(path)
        while true {
            let dot = rest.firstIndex(of: ".")
            let part = rest[..<(dot ?? rest.endIndex)]
            if !part.isEmpty {
                guard case .object(let members) = current, let found = members.first(where: { $0.0 == part })?.1 else { return nil }
                current = found
            }
            guard let dot else { return current }
            rest = rest[rest.index(after: dot)...]
        }
    }

    /// A string, or a number or bool written as text; nil for null, arrays and objects.
    public var text: String? {
        switch self {
        case .string(let s): s
        case .number(let n): n
        case .bool(let b): b ? "true" : "false"
        default: nil
        }
    }

    /// A non-empty string (or a number as text); empty strings count as absent.
    public var nonEmptyText: String? { text.flatMap { $0.isEmpty ? nil : $0 } }

    /// An integer from a JSON number or a numeric string (exports write INT64 as strings).
    public var int64: Int64? {
        switch self {
        case .number(let n), .string(let n):
            if let v = Int64(n) { return v }
            if let d = Double(n), d.isFinite, d.rounded() == d, abs(d) < 9.2e18 { return Int64(d) }
            return nil
        default: return nil
        }
    }

    /// A floating-point value from a JSON number or a numeric string.
    public var double: Double? {
        switch self {
        case .number(let n), .string(let n): Double(n)
        default: nil
        }
    }

    /// A bool from JSON true/false, or the strings "true"/"false", or 0/1.
    public var bool: Bool? {
        switch self {
        case .bool(let b): b
        case .string(let s): s.lowercased() == "true" ? true : s.lowercased() == "false" ? false : nil
        case .number(let n): n == "1" ? true : n == "0" ? false : nil
        default: nil
        }
    }

    /// Members of an object, in order; empty otherwise.
    public var members: [(String, JSONValue)] {
        if case .object(let m) = self { return m }
        return []
    }

    /// Elements of an array; empty otherwise.
    public var elements: [JSONValue] {
        if case .array(let a) = self { return a }
        return []
    }

    /// Writes the value as compact JSON.
    public var serialized: String {
        var out = ""
        write(to: &out, inert: false)
        return out
    }

    /// Compact JSON for a terminal: the same value, with every scalar a terminal would act on or
    /// hide escaped (`JSONString.write`'s `inert`). What every command prints as JSON.
    public var inertSerialized: String {
        var out = ""
        write(to: &out, inert: true)
        return out
    }

    func write(to out: inout String, inert: Bool) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n
        case .string(let s): JSONString.write(s, to: &out, inert: inert)
        case .array(let a):
            out += "["
            for (i, v) in a.enumerated() {
                if i > 0 { out += "," }
                v.write(to: &out, inert: inert)
            }
            out += "]"
        case .object(let m):
            out += "{"
            for (i, (k, v)) in m.enumerated() {
                if i > 0 { out += "," }
                JSONString.write(k, to: &out, inert: inert)
                out += ":"
                v.write(to: &out, inert: inert)
            }
            out += "}"
        }
    }
}
