import DashboardCore
import TriageModel

/// Deterministic issues, lists and details for the tests: realistic chains, fixed timestamps.
enum Fixtures {
    static let now = Timestamp.parse("2026-10-04T22:30:00Z")!
    static let seriesStart = Timestamp.startOf(day: now.day - 6)

    static func at(_ text: String) -> Timestamp { Timestamp.parse(text)! }

    static let loginChain = ErrorChain(links: [
        ChainLink(domain: "UserError", short: "US", code: 14, name: "connectionIssue"),
        ChainLink(domain: "LogicError", short: "LO", code: 43, name: "loginFailed"),
        ChainLink(domain: "APIError", short: "AP", code: 7, name: "getTokenFailed"),
        ChainLink(domain: "NetworkError", short: "NE", code: 8, name: "timeout"),
    ])
    static let syncChain = ErrorChain(links: [
        ChainLink(domain: "InternalError", short: "IN", code: 500, name: "syncFailed"),
        ChainLink(domain: "TasksError", short: "TA", code: 202, name: "saveFailed"),
        ChainLink(domain: "TaskBackendError", short: "TB", code: 30, name: "requestFailed"),
        ChainLink(domain: "HTTPError", short: "HT", code: 400, name: "badRequest"),
        ChainLink(domain: "NetworkError", short: "NE", code: 29, name: "connectionLost"),
    ])
    static let offlineChain = ErrorChain(links: [
        ChainLink(domain: "UserError", short: "US", code: 2, name: "offline"),
        ChainLink(domain: "NSURLErrorDomain", short: "NS", code: -1009, name: "notConnectedToInternet"),
    ])
    static let databaseChain = ErrorChain(links: [
        ChainLink(domain: "DatabaseError", short: "DB", code: 3, name: "writeFailed"),
        ChainLink(domain: "SQLiteError", short: "SQ", code: 5, name: "busy"),
    ])
    static let parseChain = ErrorChain(links: [
        ChainLink(domain: "ParseError", short: "PA", code: 12, name: "invalidPayload"),
        ChainLink(domain: "ValidationError", short: "VA", code: 4, name: "valueOutOfBounds"),
    ])

    static func issue(_ chain: ErrorChain, _ status: IssueStatus, events: Int, users: Int, complaints: Int,
                      versions: (String?, String?), series: [Int], signals: [Signal] = [],
                      tracker: String? = nil, kind: EventKind? = nil) -> IssueSummary {
        IssueSummary(key: chain.shortKey, chain: chain, status: status, events: events, users: users, complaints: complaints,
                     firstSeen: at("2026-09-12T08:14:00Z"), lastSeen: at("2026-10-04T22:05:00Z"),
                     firstVersion: versions.0, lastVersion: versions.1, series: series, signals: signals, trackerURL: tracker,
                     kind: kind)
    }

    static let login = issue(loginChain, .open, events: 1234, users: 456, complaints: 12, versions: ("1.9", "1.12"),
                             series: [120, 135, 160, 150, 210, 199, 260], signals: [.spike],
                             tracker: "https://tracker.example.com/MOB-4821")
    static let sync = issue(syncChain, .regressed, events: 987, users: 301, complaints: 31, versions: ("1.10", "1.12"),
                            series: [0, 0, 40, 180, 260, 250, 257], signals: [.regressed])
    static let offline = issue(offlineChain, .open, events: 640, users: 512, complaints: 3, versions: ("1.12", "1.12"),
                               series: [0, 0, 0, 0, 0, 210, 430], signals: [.new])
    static let database = issue(databaseChain, .open, events: 77, users: 40, complaints: 0, versions: ("1.11", "1.12"),
                                series: [10, 12, 9, 11, 13, 10, 12], kind: .crash)
    static let parse = issue(parseChain, .open, events: 12, users: 9, complaints: 1, versions: ("1.12", "1.12"),
                             series: [0, 0, 0, 0, 1, 4, 7], signals: [.new, .spike])

    static let issues = [login, sync, offline, database, parse]

    static func list(_ issues: [IssueSummary] = issues, query: IssueQuery = IssueQuery(), storeEvents: Int = 48_210,
                     now listNow: Timestamp = now, latestEvent: Timestamp? = nil) -> IssueList {
        let days = issues.first?.series.count ?? 7
        let series = (0..<days).map { day in issues.reduce(0) { $0 + ($1.series[safe: day] ?? 0) } }
        return IssueList(query: query, now: listNow, seriesStart: seriesStart,
                         totals: Totals(issues: issues.count, events: issues.reduce(0) { $0 + $1.events },
                                        users: issues.reduce(0) { $0 + $1.users },
                                        complaints: issues.reduce(0) { $0 + $1.complaints }, series: series),
                         issues: issues, storeEvents: storeEvents, latestEvent: latestEvent)
    }

    /// `count` made-up issues for scrolling.
    static func many(_ count: Int) -> [IssueSummary] {
        (0..<count).map { i in
            let chain = ErrorChain(links: [ChainLink(domain: "FeedError", short: "FE", code: i + 1, name: "loadFailed\(i + 1)"),
                                           ChainLink(domain: "NetworkError", short: "NE", code: 8, name: "timeout")])
            return issue(chain, .open, events: 1000 - i, users: 500 - i, complaints: i % 4, versions: ("1.10", "1.12"),
                         series: [1, 2, 3, 4, 5, 6, 7])
        }
    }

    static func event(_ n: Int, minutesAgo: Int64, version: String, device: String, os: String, network: String,
                      message: String, custom: [(key: String, value: String)] = []) -> ErrorEvent {
        ErrorEvent(eventID: "ev-\(1000 + n)", timestamp: now.adding(millis: -minutesAgo * 60_000), chain: loginChain,
                   appVersion: version, appBuild: "4\(n)2", platform: "iOS", osName: "iOS", osVersion: os,
                   deviceModel: device, network: network, orientation: "portrait", appState: "foreground",
                   freeRAM: 512_000_000, freeDisk: 8_000_000_000, jailbroken: false, userID: "user-\(40 + n)",
                   sessionID: "s-\(900 + n)", environment: "production", message: message, customKeys: custom)
    }

    /// A Python service's events through a Sentry SDK: a release, a user and a message; no device, OS or network.
    static let backendEvents: [ErrorEvent] = [
        ("4e6d11f2", 3, "user-4", "'sku-17'"), ("9a0c7b21", 8, "user-2", "invalid literal for int() with base 10: 'twelve' (in parse_amount, billing)"),
        ("c3d2e1f0", 20, "user-4", "'sku-9'"),
    ].map { id, minutesAgo, user, message in
        ErrorEvent(eventID: id, timestamp: now.adding(millis: Int64(-minutesAgo * 60_000)), chain: loginChain, appVersion: "pyshop@2.0.0",
                   platform: "python", userID: user, environment: "production", message: message, source: "sentry")
    }

    static let loginDetail: IssueDetail = {
        var detail = loginDetailToday
        detail.life = loginLife
        return detail
    }()

    /// The login issue's life since 2024: a quiet stretch, a month with a mark and no events, a merge.
    static let loginLife = IssueHistory(
        key: login.key, chain: loginChain, status: .open,
        firstSeen: at("2024-11-14T08:03:00Z"), lastSeen: at("2026-10-04T22:05:00Z"),
        months: [
            .init(month: "2024-11", events: 312, users: 40, complaints: 2, versions: ["1.7"]),
            .init(month: "2024-12", events: 1_204, users: 180, complaints: 10, versions: ["1.7", "1.8"]),
            .init(month: "2025-01", events: 88, users: 31, complaints: 0, versions: ["1.8"]),
            .init(month: "2025-09", events: 5, users: 2, complaints: 0, versions: ["1.10"]),
            .init(month: "2026-08", events: 2_410, users: 611, complaints: 14, versions: ["1.10", "1.11", "1.12"]),
            .init(month: "2026-09", events: 3_950, users: 902, complaints: 25, versions: ["1.11", "1.12"]),
            .init(month: "2026-10", events: 1_234, users: 456, complaints: 12, versions: ["1.12"]),
        ],
        changes: [StatusChange(from: .open, to: .resolved, version: "1.9", at: at("2025-02-03T10:00:00Z"), by: "anna", note: "retry with backoff"),
                  StatusChange(from: .resolved, to: .regressed, version: nil, at: at("2025-09-12T07:30:00Z"), by: "ingest", note: "seen in 1.10"),
                  StatusChange(from: .regressed, to: .resolved, version: "1.11", at: at("2026-09-20T12:00:00Z"), by: "anna", note: nil),
                  StatusChange(from: .resolved, to: .open, version: nil, at: at("2026-09-30T09:00:00Z"), by: "ingest", note: "seen in 1.12")],
        merges: [IssueHistory.Merge(at: at("2026-08-11T15:20:00Z"), by: "ben", action: "merge", head: login.key, member: "US14-LO43-AP7-NE9")])

    static let loginDetailToday = IssueDetail(
        summary: login, window: .d7, now: now, seriesStart: seriesStart,
        breakdowns: [
            Breakdown(dimension: .device, rows: [BreakdownRow(value: "iPhone15,2", count: 512, percent: 41.5),
                                                 BreakdownRow(value: "iPhone14,5", count: 430, percent: 34.8),
                                                 BreakdownRow(value: "iPad13,4", count: 292, percent: 23.7)]),
            Breakdown(dimension: .os, rows: [BreakdownRow(value: "iOS 17.4.1", count: 801, percent: 64.9),
                                             BreakdownRow(value: "iOS 16.7", count: 433, percent: 35.1)]),
            Breakdown(dimension: .appVersion, rows: [BreakdownRow(value: "1.12", count: 1100, percent: 89.1),
                                                     BreakdownRow(value: "1.11", count: 134, percent: 10.9)]),
            Breakdown(dimension: .network, rows: [BreakdownRow(value: "cellular", count: 900, percent: 72.9),
                                                  BreakdownRow(value: "wifi", count: 334, percent: 27.1)]),
            Breakdown(dimension: .orientation, rows: [BreakdownRow(value: "portrait", count: 1234, percent: 100)]),
            Breakdown(dimension: .appState, rows: [BreakdownRow(value: "foreground", count: 1200, percent: 97.2),
                                                   BreakdownRow(value: "background", count: 34, percent: 2.8)]),
            Breakdown(dimension: .kind, rows: [BreakdownRow(value: "non-fatal", count: 1220, percent: 98.9),
                                               BreakdownRow(value: "crash", count: 14, percent: 1.1)]),
            Breakdown(dimension: .environment, rows: [BreakdownRow(value: "production", count: 1180, percent: 95.6),
                                                      BreakdownRow(value: "staging", count: 54, percent: 4.4)]),
            Breakdown(dimension: .level, rows: [BreakdownRow(value: "error", count: 1220, percent: 98.9),
                                                BreakdownRow(value: "fatal", count: 14, percent: 1.1)]),
        ],
        recentEvents: [
            event(1, minutesAgo: 25, version: "1.12", device: "iPhone15,2", os: "17.4.1", network: "cellular",
                  message: "The request timed out.", custom: [("screen", "login"), ("retry", "2")]),
            event(2, minutesAgo: 47, version: "1.12", device: "iPhone14,5", os: "16.7", network: "cellular",
                  message: "The request timed out."),
            event(3, minutesAgo: 95, version: "1.11", device: "iPad13,4", os: "17.4.1", network: "wifi",
                  message: "Token endpoint did not answer in 30 s"),
        ],
        complaints: [
            Complaint(complaintID: "c-1", timestamp: at("2026-10-04T19:12:00Z"), channel: "email", category: "login",
                      subject: "Can't log in", text: "Since the update I can't log in on the train. The app says "
                        + "US14-LO43-AP7-NE8 and nothing else happens, I have tried three times and restarted the phone.",
                      userID: "user-41", codes: ["US14-LO43-AP7-NE8"]),
            Complaint(complaintID: "c-2", timestamp: at("2026-10-03T08:40:00Z"), channel: "in-app", category: nil,
                      subject: nil, text: "login broken again", userID: nil, codes: ["US14-LO43-AP7-NE8"]),
        ],
        notes: [IssueNote(at: at("2026-10-02T10:00:00Z"), by: "anna", text: "Token endpoint times out under 2G; backend ticket filed.")],
        history: [StatusChange(from: .resolved, to: .open, version: nil, at: at("2026-09-30T09:00:00Z"), by: "ingest", note: "seen in 1.12"),
                  StatusChange(from: nil, to: .resolved, version: "1.11", at: at("2026-09-20T12:00:00Z"), by: "anna", note: nil)],
        resolvedVersion: nil)

    /// A state with the fixture list loaded, at a size.
    static func loadedState(_ size: Size = Size(rows: 24, cols: 80), unicode: Bool = true, readOnly: Bool = false,
                            issues: [IssueSummary] = issues) -> DashboardState {
        var state = DashboardState(storeName: "triage.sqlite", query: IssueQuery(), unicode: unicode, color: true,
                                   readOnly: readOnly)
        _ = state.start(size: size)
        _ = reduce(&state, .listLoaded(list(issues)))
        return state
    }

    /// The login issue's Life pane, on a store whose raw events were pruned before July 2026.
    static func lifeState(_ size: Size, unicode: Bool = true) -> DashboardState {
        var state = detailState(size, unicode: unicode, pane: .life)
        state.detail.loaded?.rawEventsSince = at("2026-07-01T00:00:00Z")
        return state
    }

    /// A state with the login issue's detail open.
    static func detailState(_ size: Size = Size(rows: 24, cols: 80), unicode: Bool = true, pane: DetailPane = .chain) -> DashboardState {
        var state = loadedState(size, unicode: unicode)
        _ = reduce(&state, .key(.enter))
        _ = reduce(&state, .detailLoaded(loginDetail))
        if pane != .chain { _ = reduce(&state, .key(.char(Character(String(pane.rawValue))))) }
        return state
    }

    static func receipt(_ key: String, _ mark: IssueMark, previous: IssueStatus = .open) -> MarkReceipt {
        MarkReceipt(key: key, mark: mark, previousStatus: previous, previousVersion: nil, previousTracker: nil, noteID: nil)
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
