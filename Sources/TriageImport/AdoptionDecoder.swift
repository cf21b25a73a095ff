import TriageModel

/// Active users per day and app version, as an analytics console exports them: CSV with the
/// header `date,version,users` and optionally `sessions` (or the same members as NDJSON).
///
/// Column names match as the support desk's do (case, spaces, dashes and underscores aside);
/// `app_version`/`display_version` and `active_users` are read too. A day's row given twice keeps
/// the later figure.
public struct AdoptionDecoder: RecordDecoder {
    public let source = "adoption"
    public init() {}

    /// The most a day's users or sessions may be (2^32 - 1, as Sentry's own counters): a row
    /// beyond it is refused with its reason rather than summed.
    public static let maxCount = Int(UInt32.max)

    static let columns: [(field: String, names: [String])] = [
        ("date", ["date", "day"]),
        ("version", ["version", "appversion", "displayversion"]),
        ("users", ["users", "activeusers"]),
        ("sessions", ["sessions"]),
    ]

    static func field(forColumn name: String) -> String? {
        let n = SupportDeskDecoder.normalize(name)
        return columns.first { $0.names.contains(n) }?.field
    }

    /// Whether a header names a date, a version and users.
    public static func recognizes(columns names: [String]) -> Bool {
        let fields = Set(names.compactMap(field(forColumn:)))
        return fields.isSuperset(of: ["date", "version", "users"])
    }

    public func decode(_ v: JSONValue) throws(LineRejection) -> ImportedRecord {
        var fields: [String: String] = [:]
        for (name, value) in v.members {
            guard let field = AdoptionDecoder.field(forColumn: name), fields[field] == nil, let text = value.text else { continue }
            fields[field] = text
        }
        return try record(fields)
    }

    /// A day's figures from a CSV row, given the header.
    public func decode(header: [String], row: [String]) throws(LineRejection) -> ImportedRecord {
        var fields: [String: String] = [:]
        for (i, name) in header.enumerated() where i < row.count {
            guard let field = AdoptionDecoder.field(forColumn: name), fields[field] == nil else { continue }
            fields[field] = row[i]
        }
        return try record(fields)
    }

    func record(_ f: [String: String]) throws(LineRejection) -> ImportedRecord {
        guard let date = f["date"]?.trimmingASCIIWhitespace(), !date.isEmpty else { throw LineRejection("missing date") }
        guard let day = Timestamp.parse(date)?.day else { throw LineRejection("date '\(date.prefix(40))' is not a date") }
        guard let version = f["version"]?.trimmingASCIIWhitespace(), !version.isEmpty else { throw LineRejection("missing version") }
        let rawUsers = f["users"]?.trimmingASCIIWhitespace() ?? ""
        guard let users = Int(rawUsers), users >= 0 else { throw LineRejection("users '\(rawUsers.prefix(40))' is not a count") }
        // Counts are summed over days and versions: each is bounded, so no sum of them overflows.
        guard users <= AdoptionDecoder.maxCount else { throw LineRejection("users \(users) is over \(AdoptionDecoder.maxCount), the most a day's count may be") }
        var sessions: Int?
        if let raw = f["sessions"]?.trimmingASCIIWhitespace(), !raw.isEmpty {
            guard let n = Int(raw), n >= 0 else { throw LineRejection("sessions '\(raw.prefix(40))' is not a count") }
            guard n <= AdoptionDecoder.maxCount else { throw LineRejection("sessions \(n) is over \(AdoptionDecoder.maxCount), the most a day's count may be") }
            sessions = n
        }
        return .adoption(.daily(day: day, version: version, users: users, sessions: sessions))
    }
}

/// Firebase's sessions export to BigQuery (one row per app session, beside the Crashlytics
/// tables), extracted as NDJSON: each row is a session of an installation in a version, and the
/// store counts the distinct installations per version and day as its active users.
///
/// Read, first present wins: the session `session_id`; the installation `installation_uuid`,
/// `firebase_installation_id`, `installation_id` or `user_pseudo_id`; the time `event_timestamp`,
/// `session_start` or `event_time`; the version `application.display_version`,
/// `app_info.version`, `app_version` or `version`. A row without a session id is one session of
/// its installation at its time.
public struct SessionsDecoder: RecordDecoder {
    public let source = "sessions"
    public init() {}

    /// Whether a row's members show a session rather than a crash report.
    static func recognizes(_ names: Set<String>) -> Bool {
        guard !names.contains("issue_id"), !names.contains("issue_title") else { return false }
        return names.contains("session_id") && (names.contains("event_type") || names.contains("session_index")
            || names.contains("first_session_id"))
    }

    public func decode(_ v: JSONValue) throws(LineRejection) -> ImportedRecord {
        func first(_ paths: [String]) -> String? { paths.lazy.compactMap { v.at($0)?.nonEmptyText }.first }
        guard let installation = first(["installation_uuid", "firebase_installation_id", "installation_id", "user_pseudo_id"]) else {
            throw LineRejection("missing installation_uuid (or user_pseudo_id)")
        }
        guard let version = first(["application.display_version", "app_info.version", "app_version", "version"]) else {
            throw LineRejection("missing application.display_version")
        }
        let time = try timestamp(["event_timestamp", "session_start", "event_time"].lazy.compactMap { v.at($0) }.first,
                                 field: "event_timestamp")
        let id = first(["session_id"]) ?? installation + "@" + String(time.millis)
        return .adoption(.session(id: id, at: time, version: version, installation: installation))
    }
}
