import DashboardCore
import Foundation
import Testing
import TriageModel
import TriageStore

/// One issue through every output: `report`, `show`, the minutes and the dashboard show the same
/// sparkline, version range, percent and sanitised text for the same data.
@Suite struct OneIssueEverywhereTests {
    static let now = "2026-11-21T00:00:00Z"
    static let key = "US14-NE8"
    /// The outer name holds a word joiner and an Arabic letter mark; every output shows their codes.
    static let outer = "connection\u{2060}Is\u{061C}sue"
    static let shownOuter = "connection<U+2060>Is<U+061C>sue"

    /// Seven events over three days (1, 2 and 4 a day), from 1.7 and 1.13, four on one device and three on another.
    func store() throws -> CLI {
        let cli = try CLI()
        let days = ["2026-11-18", "2026-11-19", "2026-11-19", "2026-11-20", "2026-11-20", "2026-11-20", "2026-11-20"]
        let lines = days.enumerated().map { i, day in
            let event: [String: Any] = [
                "event_id": "e\(i)", "timestamp": "\(day)T1\(i):00:00Z", "codes": Self.key,
                "chain": "UserError.\(Self.outer) - NetworkError.timeout",
                "app": ["version": i == 0 ? "1.7" : "1.13"], "device": ["model": i < 4 ? "iPhone14,5" : "iPhone15,2"],
                "user_id": "u\(i)",
            ]
            return String(decoding: try! JSONSerialization.data(withJSONObject: event, options: [.sortedKeys]), as: UTF8.self)
        }
        let result = try cli.run(["ingest", try cli.file("events.ndjson", lines.joined(separator: "\n") + "\n")])
        #expect(result.status == 0, "\(result.stderr)")
        return cli
    }

    /// The dashboard's list and Breakdowns pane for the same store, rendered in process.
    func dashboard(_ cli: CLI) throws -> (list: String, breakdowns: String) {
        let store = try TriageStore(path: cli.store, readOnly: true)
        let now = Timestamp.parse(Self.now)!
        let size = Size(rows: 48, cols: 160)
        var state = DashboardState(storeName: "store.sqlite")
        _ = state.start(size: size)
        _ = reduce(&state, .listLoaded(try store.issueList(state.query, now: now)))
        let list = render(state, size: size).lines.joined(separator: "\n")
        _ = reduce(&state, .key(.enter))
        _ = reduce(&state, .detailLoaded(try store.issueDetail(key: Self.key, window: .d7, now: now)))
        _ = reduce(&state, .key(.char("2")))
        return (list, render(state, size: size).lines.joined(separator: "\n"))
    }

    @Test func reportShowMinutesAndTheDashboardAgree() throws {
        let cli = try store()
        let base = ["--now", Self.now]
        let report = try cli.run(["report"] + base).stdout
        let minutes = try cli.run(["report", "--format", "markdown"] + base).stdout
        let show = try cli.run(["show", Self.key] + base).stdout
        let screens = try dashboard(cli)
        let outputs = [("report", report), ("minutes", minutes), ("show", show), ("dashboard list", screens.list)]
        for (name, text) in outputs {
            // 1, 2 and 4 of a top of 4: ceil(v / top × 8) eighths.
            #expect(text.contains("▂▄█"), "\(name) draws another sparkline:\n\(text)")
            #expect(text.contains("1.7→1.13"), "\(name) writes another version range:\n\(text)")
            // Markdown escapes the angle bracket of a code.
            #expect(text.replacingOccurrences(of: "\\<", with: "<").contains(Self.shownOuter), "\(name):\n\(text)")
        }
        for (name, text) in [("show", show), ("dashboard breakdowns", screens.breakdowns)] {
            #expect(text.contains("57.1%") && text.contains("42.9%"), "\(name) writes another percent:\n\(text)")
            #expect(text.contains("iPhone 13 (iPhone14,5)"), "\(name) names the device otherwise:\n\(text)")
        }
    }
}
