import ArgumentParser
import Foundation
import Presentation
import TriageIngest
import TriageModel
import TriageStore

extension RankMode: ExpressibleByArgument {}
extension StatusFilter: ExpressibleByArgument {}
extension EventKind: ExpressibleByArgument {}

/// Output formats of `report`, `releases`, `release` and `merge --suggest`.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, markdown, json
}

/// Output formats of `show` and `history` (a ticket is their markdown: `errtriage ticket`).
enum DetailFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// `errtriage report`: the top issues of a window, as text, markdown or JSON.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the top issues of a window by events, users or complaints.")

    @OptionGroup var options: StoreOptions

    @Option(help: ArgumentHelp("The period counted, ending at --now (default: 7d, or the view's)."))
    var window: TimeWindow?

    @Option(help: "Rank by events, users or complaints (default: events, or the view's).")
    var by: RankMode?

    @Option(help: "open (open and regressed), regressed, resolved, muted or all.")
    var status: StatusFilter = .active

    @Option(help: "How many issues to list (default: 20; in the minutes, how many per agenda section: 5).")
    var top: Int?

    @Option(help: "Only issues of this kind (their most severe event's): crash, anr, unhandled or non-fatal.")
    var kind: EventKind?

    @Option(help: QueryArgument.help, transform: QueryArgument.parse)
    var query: QueryArgument?

    @Option(help: "Open a saved view: its query, and its ranking and window unless given here (errtriage view list).")
    var view: String?

    @Option(help: "Only the events of this environment (production, qa, …) unless the query names one: env:NAME by default.")
    var env: String?

    @Option(help: "text, markdown or json.")
    var format: OutputFormat = .text

    @Option(name: .customLong("by-layer"), help: "Group issues by one link: root (the root cause), outer (what the user saw), a position (0 = outermost), or domain:NAME.")
    var byLayer: String?

    @Option(help: "Group issues by the link of this domain wherever it stands (the same as --by-layer domain:NAME).")
    var domain: String?

    @Flag(name: .customLong("by-owner"), help: "With the minutes (--format markdown): the agenda grouped by owner.")
    var byOwner = false

    @Flag(name: .customLong("since-meeting"), help: "Minutes since the last meeting (errtriage meeting records one): its decisions, over the smallest window that covers it.")
    var sinceMeeting = false

    func run() throws {
        guard (top ?? 0) >= 0 else { throw CLIError.usage("--top must be 0 or more") }
        guard !byOwner || format == .markdown || sinceMeeting else {
            throw CLIError.usage("--by-owner groups the minutes' agenda: add --format markdown")
        }
        guard view == nil || query == nil else { throw CLIError.usage("--view and --query both name a query: give one") }
        var request = ReportRequest()
        if byLayer != nil || domain != nil {
            guard let layer = domain.map(Layer.domain) ?? byLayer.flatMap(Layer.init) else {
                throw CLIError.usage("--by-layer takes root, outer, a position (0 = outermost) or domain:NAME")
            }
            request.shape = .pivot(layer)
        } else if format == .markdown || sinceMeeting {
            guard kind == nil else { throw CLIError.usage("--kind narrows the list (text or json), not the minutes") }
            request.shape = .minutes(sinceMeeting: sinceMeeting)
        }
        (request.window, request.mode, request.status, request.top, request.kind) = (window, by, status, top, kind)
        (request.query, request.view, request.environment) = (query?.query.description, view, env)
        let now = try options.nowTimestamp()
        switch try options.open(for: .reading(now: now)).report(request, now: now) {
        case .pivot(let groups, let layer, let list):
            switch format {
            case .json: print(ReportJSON.pivot(groups, layer: layer, list: list).inertSerialized)
            case .text, .markdown: print(ReportText.pivot(groups, layer: layer, list: list, markdown: format == .markdown), terminator: "")
            }
        case .minutes(let minutes):
            print(Minutes.render(minutes, byOwner: byOwner), terminator: "")
        case .refused(let why):
            throw CLIError.usage(why)
        case .list(let list, let unlinked, let latestVersion, let projects):
            switch format {
            case .json: print(ReportJSON.list(list, unlinked: unlinked, latestVersion: latestVersion, projects: projects).inertSerialized)
            case .text, .markdown: print(ReportText.list(list) + ReportText.unlinked(unlinked, window: list.query.window), terminator: "")
            }
        }
    }
}

/// `errtriage show KEY`: one issue in full.
struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show one issue: chain, counts, series, breakdowns, events, complaints, notes, history.")

    @OptionGroup var options: StoreOptions

    @Argument(help: "The issue's short key, e.g. US14-LO43-AP7-NE8.", transform: ShortKeyArgument.parse)
    var key: ShortKeyArgument

    @Option(help: TimeWindow.help)
    var window: TimeWindow = .d7

    @Option(help: "text or json (for markdown, errtriage ticket).")
    var format: DetailFormat = .text

    @OptionGroup(title: "The code") var code: CodeOptions

    func run() throws {
        let canonical = key.canonical
        let now = try options.nowTimestamp()
        let store = try options.open(for: .reading(now: now))
        let detail = try store.issueDetail(key: canonical, window: window, now: now)
        // The checkout is read only where one is named (--repo, ERRTRIAGE_REPO, project set).
        let facts = try code.anyCheckout(store) ? try code.facts(store, issueKey: detail.summary.key, firstSeen: detail.summary.firstSeen) : nil
        switch format {
        case .json:
            var json = ReportJSON.detail(detail).members
            json.append(("code", facts.map(CodeText.json) ?? .null))
            json.append(("kept_events", ReportJSON.keptEvents(try store.keptEvents(issueKey: detail.summary.key))))
            print(JSONValue.object(json).inertSerialized)
        case .text:
            // As many as the JSON lists; past them, the text says there are more.
            let listed = 200
            let keptWhole = try store.keptEvents(issueKey: detail.summary.key, limit: listed + 1).map(\.eventID)
            print(ReportText.detail(detail, raisedAt: try store.raiseSites(issueKey: detail.summary.key), keptWhole: Array(keptWhole.prefix(listed)),
                                    keptWholeCapped: keptWhole.count > listed, width: TerminalWidth.of(STDOUT_FILENO) ?? 80, code: facts),
                  terminator: "")
        }
    }
}

/// `errtriage history KEY`: an identifier's whole life, month by month.
struct History: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show an issue's whole life month by month: events, users, complaints, versions, every status change and merge.")

    @OptionGroup var options: StoreOptions

    @Argument(help: "The issue's short key, e.g. US14-LO43-AP7-NE8.", transform: ShortKeyArgument.parse)
    var key: ShortKeyArgument

    @Option(help: "text or json (for markdown, errtriage ticket).")
    var format: DetailFormat = .text

    func run() throws {
        let history = try options.open(for: .reading(now: options.nowTimestamp())).history(key: key.canonical)
        switch format {
        case .json: print(HistoryText.json(history).inertSerialized)
        case .text: print(HistoryText.render(history), terminator: "")
        }
    }
}

/// `errtriage decode CODE`: what a support agent needs from a code a user quoted.
struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Decode a short key into its full chain, one link per line.")

    @OptionGroup var options: StoreOptions

    @Argument(help: "The short key, e.g. US4-IN156-TA103-JS1.", transform: ShortKeyArgument.parse)
    var code: ShortKeyArgument

    func run() throws {
        let canonical = code.canonical
        let store = try options.open(for: .reading(now: options.nowTimestamp()))
        print(ChainText.ladder(key: canonical, links: try store.decode(canonical)), terminator: "")
    }
}

/// `errtriage mark KEY STATUS`: a decision, recorded with its history row.
struct Mark: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Mark an issue resolved, regressed, open or muted.")

    @OptionGroup var options: StoreOptions

    @Argument(help: "The issue's short key.", transform: ShortKeyArgument.parse)
    var key: ShortKeyArgument

    @Argument(help: "resolved, regressed, open or muted.")
    var status: IssueStatus

    @Option(name: .customLong("in-version"), help: "The version that ships the fix (with resolved).")
    var inVersion: String?

    @Option(help: "With muted: until this date (ISO 8601).")
    var until: String?

    @Option(help: "With muted: until this many more events.")
    var events: Int?

    @Option(help: "With muted: until this many more distinct users.")
    var users: Int?

    @Option(help: "A note kept with the change.")
    var note: String?

    @Option(help: "Who decided (default: the login name).")
    var by: String?

    @Option(help: "When (ISO 8601; default: now).")
    var at: String?

    func run() throws {
        let canonical = key.canonical
        if inVersion != nil, status != .resolved { throw CLIError.usage("--in-version goes with resolved") }
        let when = at == nil ? try options.nowTimestamp() : try stamp(at)
        let conditions = [until != nil, events != nil, users != nil].filter { $0 }.count
        if conditions > 0, status != .muted { throw CLIError.usage("--until, --events and --users go with muted") }
        if conditions > 1 { throw CLIError.usage("give one of --until, --events and --users") }
        var condition: MuteCondition?
        if let until {
            guard let t = Timestamp.parse(until) else { throw CLIError.usage("--until '\(until)' is not a date") }
            condition = .until(t)
        } else if let events {
            guard events > 0 else { throw CLIError.usage("--events must be 1 or more") }
            condition = .events(events)
        } else if let users {
            guard users > 0 else { throw CLIError.usage("--users must be 1 or more") }
            condition = .users(users)
        }
        let store = try options.open(for: .deciding)
        if let inVersion, !FixVersion.accepts(inVersion, seen: Set(try store.versions()).contains) {
            throw CLIError.usage("--in-version '\(inVersion)' is not \(FixVersion.expected)")
        }
        let who = by ?? loginName()
        let receipt: MarkReceipt
        if let condition {
            receipt = try store.mute(canonical, until: condition, by: who, at: when, note: note)
        } else {
            receipt = try store.mark(canonical, .status(status, version: inVersion), by: who, at: when, note: note)
        }
        let detail = try store.issueDetail(key: canonical, window: .all, now: when)
        print(Format.markLine(key: canonical, from: receipt.previousStatus, to: status, inVersion: inVersion, condition: condition,
                              now: detail.summary.status))
    }
}

extension IssueStatus: ExpressibleByArgument {}
