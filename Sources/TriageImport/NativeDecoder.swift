import TriageModel

/// errtriage's own NDJSON: one event or complaint per line (README, "Native format").
public struct NativeDecoder: RecordDecoder {
    public let source = "native"
    public init() {}

    public func decode(_ value: JSONValue) throws(LineRejection) -> ImportedRecord {
        if value["complaint_id"] != nil { return .complaint(try complaint(value)) }
        return .event(try event(value))
    }

    func event(_ v: JSONValue) throws(LineRejection) -> ErrorEvent {
        try NativeFields(tree: v).event(source: source)
    }

    /// `kind`: `crash`, `non-fatal` or `anr` (the spellings `EventKind(source:)` reads too).
    static func kind(_ value: JSONValue?) throws(LineRejection) -> EventKind? {
        guard let text = try optionalText(value, field: "kind") else { return nil }
        guard let kind = EventKind(rawValue: text) ?? EventKind(source: text) else {
            throw LineRejection("kind '\(text.prefix(30))' is not crash, non-fatal or anr")
        }
        return kind
    }

    func complaint(_ v: JSONValue) throws(LineRejection) -> Complaint {
        guard let id = try optionalText(v["complaint_id"], field: "complaint_id") else { throw LineRejection("missing complaint_id") }
        let time = try timestamp(v["timestamp"], field: "timestamp")
        let text = try optionalText(v["text"], field: "text") ?? ""
        let subject = try optionalText(v["subject"], field: "subject")
        var codes: [String] = []
        if let c = v["codes"] {
            switch c {
            case .array(let items):
                for item in items {
                    guard case .string(let s) = item, let key = ShortKey.quoted(s) else {
                        throw LineRejection("codes must be short keys such as US14-LO43-AP7-NE8")
                    }
                    codes.append(key)
                }
            case .string(let s):
                guard let key = ShortKey.quoted(s) else { throw LineRejection("codes '\(s.prefix(60))' is not a short key") }
                codes.append(key)
            case .null: break
            default: throw LineRejection("codes must be an array of short keys, found \(c.kindName)")
            }
        }
        // Codes cited in the free text count too, each once.
        for key in ShortKey.find(in: (subject ?? "") + "\n" + text) where !codes.contains(key) { codes.append(key) }
        return Complaint(complaintID: id, timestamp: time,
                         channel: try optionalText(v["channel"], field: "channel"),
                         category: try optionalText(v["category"], field: "category"),
                         subject: subject, text: text,
                         userID: try optionalText(v["user_id"], field: "user_id"), codes: codes)
    }

    /// Builds a chain from a short key and a full form, or from an array of link objects.
    /// Links whose short name the data does not give carry an empty `short`; the store fills it.
    public static func chain(codes: JSONValue?, chain: JSONValue?) throws(LineRejection) -> ErrorChain {
        let codesText: String?
        switch codes {
        case .string(let s)?: codesText = s
        case nil, .null?: codesText = nil
        case let other?: throw LineRejection("codes must be a short key string, found \(other.kindName)")
        }
        switch chain {
        case .array(let items)?:
            var links: [ChainLink] = []
            for (n, item) in items.enumerated() {
                guard case .object = item else { throw LineRejection("chain link \(n + 1) must be an object") }
                guard let code = item["code"]?.int64, let c = Int(exactly: code) else {
                    throw LineRejection("chain link \(n + 1) needs an integer code")
                }
                let domain = item["domain"]?.nonEmptyText
                var short = item["short"]?.nonEmptyText ?? ""
                if !short.isEmpty {
                    guard short.utf8.allSatisfy({ $0 >= 65 && $0 <= 90 }), short.utf8.count <= 8 else {
                        throw LineRejection("chain link \(n + 1) has a bad short name '\(short.prefix(20))'")
                    }
                } else if domain == nil {
                    throw LineRejection("chain link \(n + 1) needs a domain or a short name")
                }
                if short.isEmpty, domain == nil { short = "XX" }
                links.append(ChainLink(domain: domain, short: short, code: c, name: item["name"]?.nonEmptyText))
            }
            guard !links.isEmpty else { throw LineRejection("chain is empty") }
            if let codesText {
                guard let key = ShortKey.canonical(codesText) else { throw LineRejection("codes '\(codesText.prefix(60))' is not a short key") }
                let built = ErrorChain(links: links)
                if links.allSatisfy({ !$0.short.isEmpty }), built.shortKey != key {
                    throw LineRejection("codes \(key) do not match the chain's links (\(built.shortKey))")
                }
            }
            return ErrorChain(links: links)
        case .string(let full)?:
            guard let codesText else {
                throw LineRejection("chain has names but no codes: add \"codes\" (e.g. \"US14-LO43-AP7-NE8\")")
            }
            do {
                return try ErrorChain.zip(shortKey: codesText, fullForm: full)
            } catch {
                throw LineRejection("chain: \(error)")
            }
        case nil, .null?:
            guard let codesText else { throw LineRejection("missing chain: give \"codes\", \"chain\" or both") }
            do {
                return ErrorChain(links: try ShortKey.parse(codesText).map { ChainLink(short: $0.short, code: $0.code) })
            } catch {
                throw LineRejection("codes: \(error)")
            }
        case let other?:
            throw LineRejection("chain must be a string or an array of links, found \(other.kindName)")
        }
    }
}
