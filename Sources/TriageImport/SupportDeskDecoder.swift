import TriageModel

/// Complaints exported from a support desk, as CSV rows (by header) or NDJSON objects.
///
/// Column names match case-insensitively, with spaces, dashes and underscores alike. Every short
/// key cited in the subject or description links the complaint to that issue, once per complaint.
public struct SupportDeskDecoder: RecordDecoder {
    public let source = "desk"
    public init() {}

    /// The columns a complaint is read from, each with the names exports use for it.
    static let columns: [(field: String, names: [String])] = [
        ("id", ["id", "ticketid", "ticket", "complaintid"]),
        ("time", ["createdat", "created", "date", "timestamp", "time"]),
        ("subject", ["subject", "title"]),
        ("text", ["description", "text", "body", "message", "comment"]),
        ("user", ["requester", "user", "userid", "email", "requesteremail"]),
        ("channel", ["channel", "via", "source"]),
        ("category", ["tags", "category", "tag"]),
    ]

    /// `Ticket ID` → `ticketid`.
    public static func normalize(_ name: String) -> String {
        String(name.lowercased().filter { $0 != " " && $0 != "-" && $0 != "_" && $0 != "\u{FEFF}" })
    }

    /// Which complaint field a column feeds, or nil.
    static func field(forColumn name: String) -> String? {
        let n = normalize(name)
        return columns.first { $0.names.contains(n) }?.field
    }

    /// Whether a set of column names looks like a support-desk export.
    public static func recognizes(columns names: [String]) -> Bool {
        let fields = Set(names.compactMap(field(forColumn:)))
        return fields.contains("time") && (fields.contains("text") || fields.contains("subject"))
    }

    public func decode(_ v: JSONValue) throws(LineRejection) -> ImportedRecord {
        var fields: [String: String] = [:]
        for (name, value) in v.members {
            guard let field = SupportDeskDecoder.field(forColumn: name), fields[field] == nil else { continue }
            switch value {
            case .array(let items): fields[field] = items.compactMap(\.text).joined(separator: ",")
            default: if let t = value.text { fields[field] = t }
            }
        }
        return .complaint(try complaint(fields, fallbackID: "desk-" + StableHash.hex(v.serialized)))
    }

    /// A complaint from a CSV row, given the header.
    public func decode(header: [String], row: [String]) throws(LineRejection) -> ImportedRecord {
        var fields: [String: String] = [:]
        for (i, name) in header.enumerated() where i < row.count {
            guard let field = SupportDeskDecoder.field(forColumn: name), fields[field] == nil else { continue }
            fields[field] = row[i]
        }
        return .complaint(try complaint(fields, fallbackID: "desk-" + StableHash.hex(row.joined(separator: "\u{1F}"))))
    }

    func complaint(_ f: [String: String], fallbackID: String) throws(LineRejection) -> Complaint {
        guard let rawTime = f["time"], !rawTime.isEmpty else { throw LineRejection("missing created-at date") }
        guard let time = Timestamp.parse(rawTime) ?? Timestamp.parse(rawTime.replacingSlashDate()) else {
            throw LineRejection("created-at '\(rawTime.prefix(40))' is not a time")
        }
        let subject = f["subject"].flatMap { $0.isEmpty ? nil : $0 }
        let text = f["text"] ?? ""
        guard subject != nil || !text.isEmpty else { throw LineRejection("no subject and no description") }
        let tags = (f["category"] ?? "").split(whereSeparator: { $0 == "," || $0 == " " || $0 == ";" }).map(String.init)
        let category = tags.first { $0.hasPrefix("feedback_") } ?? tags.first
        return Complaint(complaintID: f["id"].flatMap { $0.isEmpty ? nil : $0 } ?? fallbackID, timestamp: time,
                         channel: f["channel"].flatMap { $0.isEmpty ? nil : $0 }, category: category,
                         subject: subject, text: text, userID: f["user"].flatMap { $0.isEmpty ? nil : $0 },
                         codes: ShortKey.find(in: (subject ?? "") + "\n" + text))
    }
}

extension String {
    /// `2026/10/04 …` → `2026-10-04 …`, as some desks write dates.
    func replacingSlashDate() -> String {
        var chars = Array(self)
        if chars.count >= 10, chars[4] == "/", chars[7] == "/" {
            chars[4] = "-"
            chars[7] = "-"
        }
        return String(chars)
    }
}
