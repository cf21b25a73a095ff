import TriageModel

/// What users tell through a Sentry SDK, read as complaints about the event they name: the store
/// attaches each to that event's issue (`Complaint.eventID`), so the user's words show in the
/// issue's Complaints pane and count in the by-complaints ranking.
///
/// - `user_report` (the older item, what crash-report dialogs send): `event_id`, `name`, `email`,
///   `comments`. It has no time of its own: the item's `timestamp` where an SDK adds one, else the
///   envelope's `sent_at`, else the time the request was received.
/// - `feedback` (the newer item, an event of its own): `contexts.feedback{message, contact_email,
///   name, associated_event_id, url}`, with the event's `event_id`, `timestamp` and `user`.
///
/// The complaint's user is told apart, not shown: the user's id where the SDK gives one, else the
/// e-mail only as a stable hash (`email:…`, as events' users are kept); the name, the e-mail and
/// the page's URL are not kept. Ids are stable, so the same report sent twice is stored once: a
/// feedback's is its event id, a user report's a hash of its event id and fields (a second,
/// different report on one event is a second complaint). Short keys the words cite link the
/// complaint to those issues too, as a support desk's do.
public enum SentryFeedback {
    /// The channel these complaints came through.
    public static let channel = "sentry"

    /// A `user_report` item's complaint; `fallbackTime` is used where the item has no time.
    public static func userReport(_ v: JSONValue, fallbackTime: Timestamp?) throws(LineRejection) -> Complaint {
        guard let rawID = try optionalText(v["event_id"], field: "event_id") else { throw LineRejection("missing event_id") }
        let comments = try optionalText(v["comments"], field: "comments") ?? ""
        guard !comments.isEmpty else { throw LineRejection("no comments: the report says nothing") }
        let email = try optionalText(v["email"], field: "email")
        let name = try optionalText(v["name"], field: "name")
        let time = try optionalTime(v["timestamp"]) ?? fallbackTime
        guard let time else { throw LineRejection("no time: neither the item's timestamp nor the envelope's sent_at") }
        let eventID = SentryDecoder.canonicalID(rawID)
        let id = "sentry-user-report-" + StableHash.hex([eventID, comments, email ?? "", name ?? ""].joined(separator: "\u{1F}"))
        return Complaint(complaintID: id, timestamp: time, channel: channel, category: "user_report", text: comments,
                         userID: email.map { "email:" + StableHash.hex($0) }, codes: ShortKey.find(in: comments), eventID: eventID)
    }

    /// A `feedback` item's complaint (an event whose `contexts.feedback` holds the words).
    public static func feedback(_ v: JSONValue, fallbackTime: Timestamp?) throws(LineRejection) -> Complaint {
        guard let context = v.at("contexts.feedback"), context != .null else { throw LineRejection("missing contexts.feedback") }
        guard case .object = context else { throw LineRejection("contexts.feedback must be an object, found \(context.kindName)") }
        let message = try optionalText(context["message"], field: "contexts.feedback.message") ?? ""
        guard !message.isEmpty else { throw LineRejection("no contexts.feedback.message: the feedback says nothing") }
        let email = try optionalText(context["contact_email"], field: "contexts.feedback.contact_email")
        let associated = try optionalText(context["associated_event_id"], field: "contexts.feedback.associated_event_id")
        let time = try optionalTime(v["timestamp"]) ?? fallbackTime
        guard let time else { throw LineRejection("no time: neither the feedback's timestamp nor the envelope's sent_at") }
        let id = try optionalText(v["event_id"], field: "event_id").map { "sentry-feedback-" + SentryDecoder.canonicalID($0) }
            ?? "sentry-feedback-" + StableHash.hex(v.serialized)
        let user = SentryUser.id(SentryDecoder.member(v, "user")) ?? email.map { "email:" + StableHash.hex($0) }
        return Complaint(complaintID: id, timestamp: time, channel: channel, category: "feedback", text: message,
                         userID: user, codes: ShortKey.find(in: message), eventID: associated.map(SentryDecoder.canonicalID))
    }

    /// The item's `timestamp`, where it has one.
    static func optionalTime(_ value: JSONValue?) throws(LineRejection) -> Timestamp? {
        guard let value, value != .null else { return nil }
        return try timestamp(value, field: "timestamp")
    }
}
