import Presentation
import Testing
import TriageModel

/// The report, release and minutes renderers on model values, without a store: what `report`,
/// `show`, `releases` and the minutes print (the golden files hold them to the sample data too).
@Suite struct RendererTests {
    static let now = Timestamp.parse("2026-11-20T18:00:00Z")!
    static let chain = ErrorChain(links: [
        ChainLink(domain: "UserError", short: "US", code: 14, name: "connectionIssue"),
        ChainLink(domain: "NetworkError", short: "NE", code: 8, name: "timeout", origin: .message),
    ])

    /// `history`'s merges say what each did: a merge, and an unmerge as the member taken out of the group.
    @Test func historySaysWhatEachMergeDid() {
        let merges = [IssueHistory.Merge(at: Self.now, by: "ann", action: "merge", head: "US14-NE8", member: "US14-NE9"),
                      IssueHistory.Merge(at: Self.now, by: "ben", action: "unmerge", head: "US14-NE8", member: "US14-NE9")]
        let text = HistoryText.render(IssueHistory(key: "US14-NE8", chain: Self.chain, status: .open, firstSeen: Self.now, lastSeen: Self.now,
                                                   months: [], changes: [], merges: merges))
        #expect(text.contains("2026-11-20 18:00  merged US14-NE9 into US14-NE8  by ann"), "\(text)")
        #expect(text.contains("2026-11-20 18:00  took US14-NE9 out of US14-NE8's group  by ben"), "\(text)")
    }
    static let crash = ErrorChain(links: [ChainLink(domain: "DecodingError", short: "DE", code: 93113, name: "keyNotFound", origin: .derived)])

    static func issue(_ chain: ErrorChain, events: Int, complaints: Int, signals: [Signal] = [], status: IssueStatus = .open) -> IssueSummary {
        IssueSummary(key: chain.shortKey, chain: chain, status: status, events: events, users: events / 2, complaints: complaints,
                     firstSeen: Timestamp.parse("2026-11-01T08:00:00Z")!, lastSeen: now.adding(millis: -60_000),
                     firstVersion: "1.12", lastVersion: "1.13", series: [1, 2, 3, 4, 5, 6, events], signals: signals, kind: .nonFatal)
    }

    static let issues = [issue(chain, events: 120, complaints: 4, signals: [.spike]), issue(crash, events: 30, complaints: 0, signals: [.new])]

    static func list(_ issues: [IssueSummary] = issues) -> IssueList {
        IssueList(query: IssueQuery(window: .d7, top: 20), now: now, seriesStart: Timestamp.startOf(day: now.day - 6),
                  totals: Totals(issues: issues.count, events: issues.reduce(0) { $0 + $1.events },
                                 users: issues.reduce(0) { $0 + $1.users }, complaints: issues.reduce(0) { $0 + $1.complaints },
                                 series: [1, 2, 3, 4, 5, 6, 150]),
                  issues: issues, storeEvents: 150)
    }

    @Test func theTextReportListsEachIssueWithItsKeyCountsAndTitle() {
        let text = ReportText.list(Self.list())
        #expect(text.hasPrefix("errtriage report — window 7d ending 2026-11-20 18:00 UTC, by events"))
        #expect(text.contains("2 issues · 150 events · 75 users · 4 complaints"))
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("  1 ") || $0.hasPrefix("  2 ") }
        #expect(rows.count == 2)
        #expect(rows[0].contains("US14-NE8") && rows[0].contains("120") && rows[0].contains("connectionIssue … timeout"))
        #expect(rows[1].contains("DE93113") && rows[1].contains("keyNotFound"))
    }

    @Test func theJSONReportCarriesEveryIssueAndTheLatestVersionMarksNewOnes() {
        let json = ReportJSON.list(Self.list(), unlinked: UnlinkedComplaints(groups: []), latestVersion: "1.12").serialized
        #expect(json.contains(#""key":"US14-NE8""#) && json.contains(#""key":"DE93113""#))
        #expect(json.contains(#""chain":"UserError.connectionIssue - NetworkError.timeout""#))
        #expect(json.contains(#""new_in":"1.12""#))
    }

    @Test func theDetailSaysWhereACodeCameFromAndMarksTheRootCause() {
        let detail = IssueDetail(summary: Self.issues[0], window: .d7, now: Self.now, seriesStart: Timestamp.startOf(day: Self.now.day - 6),
                                 breakdowns: [], recentEvents: [], complaints: [], notes: [], history: [], resolvedVersion: nil)
        let text = ReportText.detail(detail)
        #expect(text.contains("US14  UserError.connectionIssue  [14]\n"))
        #expect(text.contains("  NE8  NetworkError.timeout  [8, from the message]  ← root cause\n"), "\(text)")
    }

    @Test func theMinutesHoldTotalsAgainstThePreviousWindowTheAgendaAndTheDecisions() {
        let current = Self.list()
        let previous = Self.list([Self.issue(Self.chain, events: 60, complaints: 2)])
        let data = MinutesData(window: .d7, now: Self.now, since: nil, current: current, previous: previous,
                               agenda: Agenda.build(from: current.issues, top: 5),
                               decisions: [Decision(key: "US14-NE8", at: Self.now.adding(millis: -3_600_000), by: "ana", text: "note: on it")],
                               unlinked: UnlinkedComplaints(groups: [.init(category: "slow loading", count: 3, samples: ["it is slow"])]),
                               release: nil)
        let minutes = Minutes.render(data)
        #expect(minutes.hasPrefix("# Issue inventory — 2026-11-20\n"))
        #expect(minutes.contains("| Events | 150 | 60 |"), "\(minutes)")
        #expect(minutes.contains("US14-NE8") && minutes.contains("DE93113"))
        #expect(minutes.contains("ana") && minutes.contains("on it"))
        #expect(minutes.contains("slow loading"))
    }

    @Test func theReleaseTableTitlesItsMarkdownHeaders() {
        #expect(ReleaseText.titleCase("ERROR-FREE") == "Error-Free")
        #expect(ReleaseText.titleCase("VERSION") == "Version")
    }
}
