import Foundation
import Presentation
import Testing
import TriageModel

/// `show`'s Recent events: a heading row of the columns some event fills, each message cut to the
/// width and inert, and the events kept whole marked, each with the command that opens it.
@Suite struct RecentEventsTextTests {
    static let now = Timestamp.parse("2026-11-20T18:00:00Z")!
    static let chain = ErrorChain(links: [ChainLink(domain: "KeyError", short: "KE", code: 1, name: nil)])

    static func detail(_ events: [ErrorEvent]) -> IssueDetail {
        let summary = IssueSummary(key: chain.shortKey, chain: chain, status: .open, events: events.count, users: 1, complaints: 0,
                                   firstSeen: now, lastSeen: now, firstVersion: "2.1.0", lastVersion: "2.1.0", series: [1], kind: .nonFatal)
        return IssueDetail(summary: summary, window: .d7, now: now, seriesStart: now, breakdowns: [], recentEvents: events,
                           complaints: [], notes: [], history: [], resolvedVersion: nil)
    }

    /// A backend's event: no device, OS or network.
    static func backend(_ id: String, minute: Int, message: String) -> ErrorEvent {
        ErrorEvent(eventID: id, timestamp: now.adding(millis: Int64(-minute * 60_000)), chain: chain, appVersion: "2.1.0",
                   userID: "u4", message: message, source: "sentry")
    }

    static func recent(_ text: String) -> [Substring] {
        text.components(separatedBy: "\nRecent events").last!.split(separator: "\n", omittingEmptySubsequences: false)
    }

    @Test func aBackendsEventsLeaveOutTheColumnsNoEventFillsAndMarkTheKeptOnes() {
        let events = [Self.backend("a1f0", minute: 1, message: "KeyError: 'sku-17'"), Self.backend("b2e1", minute: 2, message: "KeyError: 'sku-12'")]
        let lines = Self.recent(ReportText.detail(Self.detail(events), keptWhole: ["a1f0", "c3d2", "d4c3"]))
        #expect(lines[0] == "   ◆ kept whole: the line under it opens it")
        #expect(lines[1] == "    TIME                VERSION  USER         MESSAGE")
        #expect(lines[2] == "  ◆ 2026-11-20 17:59:00 2.1.0    u4           KeyError: 'sku-17'")
        #expect(lines[3] == "      errtriage event a1f0")
        #expect(lines[4] == "    2026-11-20 17:58:00 2.1.0    u4           KeyError: 'sku-12'")
        #expect(lines[5] == "  2 more kept whole: errtriage show KE1 --format json")
    }

    @Test func moreKeptEventsThanTheJSONListsAreNotCounted() {
        let events = [Self.backend("a1f0", minute: 1, message: "boom")]
        let lines = Self.recent(ReportText.detail(Self.detail(events), keptWhole: ["a1f0", "b2e1"], keptWholeCapped: true))
        #expect(lines[4] == "  More kept whole: errtriage show KE1 --format json lists the newest 2")
    }

    @Test func withNoEventKeptWholeThereIsNoMarkToExplain() {
        let lines = Self.recent(ReportText.detail(Self.detail([Self.backend("a1f0", minute: 1, message: "boom")])))
        #expect(lines[0] == "")
        #expect(lines[1] == "    TIME                VERSION  USER         MESSAGE")
        #expect(lines[2] == "    2026-11-20 17:59:00 2.1.0    u4           boom")
    }

    @Test func aMobileEventShowsItsDeviceAndOSAndItsMessageIsCutToTheWidth() {
        var event = Self.backend("a1f0", minute: 1, message: String(repeating: "timed out ", count: 20))
        event.deviceModel = "iPhone15,2"
        event.osName = "iOS"
        event.osVersion = "17.4.1"
        for width in [80, 100] {
            let lines = Self.recent(ReportText.detail(Self.detail([event]), width: width))
            #expect(lines[1].hasPrefix("    TIME                VERSION  DEVICE       OS           "), "\(lines)")
            #expect(lines[2].contains(" iPhone15,2   iOS 17.4.1 ") && lines[2].hasSuffix("…"), "\(lines)")
            #expect(lines[2].count == width)
        }
        // At 80 columns the message keeps its room and the user gives way; at 100 there is room for both.
        #expect(!Self.recent(ReportText.detail(Self.detail([event]), width: 80))[1].contains("USER"))
        #expect(Self.recent(ReportText.detail(Self.detail([event]), width: 100))[1].contains("USER"))
    }

    @Test func aReleaseNamedWithItsPackageWidensTheVersionColumnUpTo16Cells() {
        var events = [Self.backend("a1f0", minute: 1, message: "boom"), Self.backend("b2e1", minute: 2, message: "boom")]
        events[0].appVersion = "pyshop@2.0.0"
        events[1].appVersion = "a-very-long-package-name@1.0.0"
        let lines = Self.recent(ReportText.detail(Self.detail(events)))
        #expect(lines[1] == "    TIME                VERSION          USER         MESSAGE")
        #expect(lines[2] == "    2026-11-20 17:59:00 pyshop@2.0.0     u4           boom")
        #expect(lines[3] == "    2026-11-20 17:58:00 a-very-long-pac… u4           boom")
    }

    @Test func aHostileMessageAndEventIDStayInert() {
        let event = Self.backend("id\u{1B}[2J", minute: 1, message: "bad\u{1B}]0;title\u{07}\u{202E}news")
        let text = ReportText.detail(Self.detail([event]), keptWhole: ["id\u{1B}[2J"])
        #expect(!text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{202E}" })
        #expect(text.contains("bad^[]0;title^G<U+202E>news"), "\(text)")
        #expect(text.contains("errtriage event id^[[2J\n"))
    }
}
