/// An identifier's whole life, month by month since it was first seen: what `errtriage history`
/// prints. Its figures come from the rollups, which are kept for all time.
public struct IssueHistory: Hashable, Sendable {
    /// One calendar month (UTC) in which the issue was seen or cited.
    public struct Month: Hashable, Sendable {
        /// `2026-11`.
        public var month: String
        public var events: Int
        /// Distinct users with an event in the month.
        public var users: Int
        public var complaints: Int
        /// The app versions its events named, in the store's version order.
        public var versions: [String]

        public init(month: String, events: Int, users: Int, complaints: Int, versions: [String]) {
            self.month = month
            self.events = events
            self.users = users
            self.complaints = complaints
            self.versions = versions
        }
    }

    /// A merge or split this issue took part in.
    public struct Merge: Hashable, Sendable {
        public var at: Timestamp
        public var by: String
        /// `merge` or `split`.
        public var action: String
        public var head: String
        public var member: String

        public init(at: Timestamp, by: String, action: String, head: String, member: String) {
            self.at = at
            self.by = by
            self.action = action
            self.head = head
            self.member = member
        }
    }

    public var key: String
    public var chain: ErrorChain
    public var status: IssueStatus
    public var firstSeen: Timestamp
    public var lastSeen: Timestamp
    /// Oldest first, every month from the first seen to the last with anything in it.
    public var months: [Month]
    /// Every status change, oldest first, with who made it.
    public var changes: [StatusChange]
    public var merges: [Merge]

    public init(key: String, chain: ErrorChain, status: IssueStatus, firstSeen: Timestamp, lastSeen: Timestamp,
                months: [Month], changes: [StatusChange], merges: [Merge]) {
        self.key = key
        self.chain = chain
        self.status = status
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.months = months
        self.changes = changes
        self.merges = merges
    }
}

extension Timestamp {
    /// The calendar month (UTC) of a day number, `2026-11`.
    public static func monthText(ofDay day: Int64) -> String {
        String(Timestamp(millis: day * millisPerDay).dateText.prefix(7))
    }
}
