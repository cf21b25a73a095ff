/// One row of adoption data: a day's active users of a version (an analytics console's CSV), or
/// one app session (Firebase's sessions export to BigQuery), from which active users are counted.
public enum AdoptionRecord: Sendable, Equatable {
    case daily(day: Int64, version: String, users: Int, sessions: Int?)
    case session(id: String, at: Timestamp, version: String, installation: String)
}

/// What one app version brought, over all the data: `errtriage releases`.
public struct ReleaseSummary: Sendable, Equatable {
    public var version: String
    public var firstSeen: Timestamp
    public var lastSeen: Timestamp
    /// Distinct users who reported an error in this version.
    public var users: Int
    public var events: Int
    public var issues: Int
    /// Issues first seen in this version.
    public var newIssues: Int
    /// Issues that came back (regressed) in this version.
    public var regressions: Int
    /// On the days adoption is known: the version's active users, summed per day, and the users
    /// with an error, counted per day likewise; nil where no adoption is known.
    public var adoption: UserDays?

    public init(version: String, firstSeen: Timestamp, lastSeen: Timestamp, users: Int, events: Int, issues: Int,
                newIssues: Int, regressions: Int, adoption: UserDays? = nil) {
        self.version = version
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
        self.users = users
        self.events = events
        self.issues = issues
        self.newIssues = newIssues
        self.regressions = regressions
        self.adoption = adoption
    }
}

/// Active users and users with an error, each summed over the same days.
public struct UserDays: Sendable, Equatable {
    public var active: Int
    public var withError: Int
    public init(active: Int, withError: Int) {
        self.active = active
        self.withError = withError
    }

    /// 1 − users with an error / active users, in percent; nil without active users.
    public var errorFreePercent: Double? {
        active > 0 ? max(0, 100 * (1 - Double(withError) / Double(active))) : nil
    }
}

/// One issue's figures in a version and in the version it is compared with.
public struct ReleaseIssue: Hashable, Sendable {
    public var key: String
    public var chain: ErrorChain
    public var kind: EventKind?
    public var users: Int
    public var events: Int
    public var previousUsers: Int
    public var previousEvents: Int
    /// Users affected per 1,000 users of the version, and of the previous one.
    public var perMille: Double
    public var previousPerMille: Double
    /// Events in the version per day of the window, oldest first.
    public var series: [Int]
    /// `users` or `previousUsers` is a lower bound, not exact: the window reaches before the
    /// store's raw horizon and the issue's users there were counted per day when the events were
    /// pruned, so users seen on several days cannot be told apart (shown as `≈`).
    public var usersApproximate = false

    public init(key: String, chain: ErrorChain, kind: EventKind?, users: Int, events: Int, previousUsers: Int,
                previousEvents: Int, perMille: Double, previousPerMille: Double, series: [Int], usersApproximate: Bool = false) {
        self.key = key
        self.chain = chain
        self.kind = kind
        self.users = users
        self.events = events
        self.previousUsers = previousUsers
        self.previousEvents = previousEvents
        self.perMille = perMille
        self.previousPerMille = previousPerMille
        self.series = series
        self.usersApproximate = usersApproximate
    }
}

/// A version against the one before it (or a named one): `errtriage release V`.
public struct ReleaseComparison: Hashable, Sendable {
    public var version: String
    public var previous: String?
    public var window: TimeWindow
    /// The users each rate is per: active users from adoption data, else users who reported any error.
    public var users: Int
    public var previousUsers: Int
    /// Whether `users` come from adoption data (else they overstate the rates).
    public var adoptionKnown: Bool
    public var new: [ReleaseIssue]
    public var worse: [ReleaseIssue]
    public var better: [ReleaseIssue]
    public var gone: [ReleaseIssue]
    /// Where raw events begin after a prune, when the window reaches before it (nil otherwise):
    /// the days before are answered from what the prune counted per version, day and issue.
    public var rawEventsSince: Timestamp? = nil
    /// Events, user-days and the series are a lower bound, not exact: an hourly window reaches
    /// into pruned days, whose figures were kept per day, not per hour.
    public var countsApproximate = false

    /// Whether any issue's users are a lower bound (`ReleaseIssue.usersApproximate`).
    public var usersApproximate: Bool { all.contains(where: \.usersApproximate) }

    public init(version: String, previous: String?, window: TimeWindow, users: Int, previousUsers: Int, adoptionKnown: Bool,
                new: [ReleaseIssue], worse: [ReleaseIssue], better: [ReleaseIssue], gone: [ReleaseIssue]) {
        self.version = version
        self.previous = previous
        self.window = window
        self.users = users
        self.previousUsers = previousUsers
        self.adoptionKnown = adoptionKnown
        self.new = new
        self.worse = worse
        self.better = better
        self.gone = gone
    }

    /// Every issue the comparison names, in the order the screens show them.
    public var all: [ReleaseIssue] { new + worse + better + gone }

    /// The four sections in the order the screens show them.
    public var sections: [(change: ReleaseRule.Change, issues: [ReleaseIssue])] {
        [(.new, new), (.worse, worse), (.better, better), (.gone, gone)]
    }
}

/// How an issue moved between two versions: the release rules, in one place.
public enum ReleaseRule {
    public enum Change: Sendable, Equatable { case new, worse, better, gone, same }

    /// A rate must move by at least this factor…
    public static let ratio = 1.5
    /// …and by this many standard errors of the difference of the two proportions.
    public static let sigmas = 3.0
    /// An issue is gone only when the version's users lead one to expect this many affected users.
    public static let expectedForGone = 5.0

    /// Users affected per 1,000 users.
    public static func perMille(_ affected: Int, of users: Int) -> Double {
        users > 0 ? 1000 * Double(affected) / Double(users) : 0
    }

    /// Classifies one issue: `new` when first seen in the version; `gone` when seen in the previous
    /// version and not in this one although its users make at least `expectedForGone` affected users
    /// likely; `worse`/`better` when the share of users affected moved by `ratio` and `sigmas`.
    public static func classify(firstSeenInVersion: Bool, users: Int, of total: Int,
                                previousUsers: Int, of previousTotal: Int) -> Change {
        if firstSeenInVersion { return users > 0 ? .new : .same }
        guard total > 0, previousTotal > 0 else { return .same }
        let p = Double(users) / Double(total), q = Double(previousUsers) / Double(previousTotal)
        if users == 0 {
            return previousUsers > 0 && q * Double(total) >= expectedForGone ? .gone : .same
        }
        let pooled = Double(users + previousUsers) / Double(total + previousTotal)
        let error = (pooled * (1 - pooled) * (1 / Double(total) + 1 / Double(previousTotal))).squareRoot()
        guard error > 0, abs(p - q) >= sigmas * error else { return .same }
        if p >= ratio * q { return .worse }
        if q >= ratio * p { return .better }
        return .same
    }

    /// The version before `version` among `versions` of its package, in release order; nil for the first.
    public static func previous(of version: String, among versions: [String]) -> String? {
        let package = AppVersion(version)?.package
        let ordered = ordered(versions.filter { AppVersion($0).map { $0.package == package } ?? (package == nil) })
        guard let index = ordered.firstIndex(of: version), index > 0 else { return nil }
        return ordered[index - 1]
    }

    /// Versions in release order (text that reads as no version last, by text).
    public static func ordered(_ versions: [String]) -> [String] {
        versions.sorted { a, b in
            switch (AppVersion(a), AppVersion(b)) {
            case let (x?, y?): x != y ? x < y : a < b
            case (.some, nil): true
            case (nil, .some): false
            case (nil, nil): a < b
            }
        }
    }
}
