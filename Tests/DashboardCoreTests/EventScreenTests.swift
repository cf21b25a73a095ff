@testable import DashboardCore
import Testing
import TriageModel

/// The event screen: Enter on the Events pane asks the store for the event whole; a kept Sentry
/// event shows its exceptions, frames (library runs folded, `f` unfolds), breadcrumbs, tags,
/// contexts, request and user; one not kept says so over its stored fields; `>` `<` step through
/// the issue's kept events.
@Suite struct EventScreenTests {
    static let standard = Size(rows: 24, cols: 80)
    static let large = Size(rows: 48, cols: 160)

    /// A Python service's KeyError wrapped in a ValueError, as sentry-python sends it.
    static let sentryEvent = EventDetail(
        eventID: "ev-1001", timestamp: Fixtures.at("2026-10-04T22:05:00Z"), source: "sentry", level: "error", platform: "python",
        message: "could not read the amount",
        exceptions: [
            EventException(type: "ValueError", value: "could not read the amount", mechanism: "generic", handled: true, frames: [
                EventFrame(function: "checkout", module: "billing.views", file: "billing/views.py", line: 88, inApp: true,
                           contextLine: "        raise ValueError(\"could not read the amount\") from error"),
                EventFrame(function: "dispatch_request", file: "flask/app.py", line: 880, inApp: false),
                EventFrame(function: "full_dispatch_request", file: "flask/app.py", line: 865, inApp: false),
                EventFrame(function: "wsgi_app", file: "flask/app.py", line: 1511, inApp: false),
            ]),
            EventException(type: "KeyError", value: "'amount'", mechanism: "chained", frames: [
                EventFrame(function: "parse_amount", file: "billing/amounts.py", line: 41, inApp: true, contextLine: "    raw = form[\"amount\"]"),
                EventFrame(function: "__getitem__", file: "werkzeug/datastructures.py", line: 200, inApp: false),
            ]),
        ],
        breadcrumbs: [
            EventBreadcrumb(timestamp: Fixtures.at("2026-10-04T22:04:58Z"), category: "http", level: "info", message: "POST /checkout"),
            EventBreadcrumb(timestamp: Fixtures.at("2026-10-04T22:04:59Z"), category: "query", level: "info",
                            message: "SELECT * FROM cart WHERE id = %s"),
        ],
        tags: [EventField("shard", "7"), EventField("region", "eu-west-1")],
        contexts: [EventContext(name: "runtime", fields: [EventField("name", "CPython"), EventField("version", "3.12.3")])],
        request: EventRequest(method: "POST", url: "https://shop.example/checkout", headers: [
            EventField("Content-Type", "application/x-www-form-urlencoded"), EventField("Authorization", "[Filtered]"),
        ]),
        user: [EventField("id", "user-41")], release: "shop@2.0.0", environment: "production", serverName: "api-host-1",
        sdk: "sentry.python 2.19.2")

    static let kept = [
        WholeEvent.KeptRef(eventID: "ev-1001", timestamp: Fixtures.at("2026-10-04T22:05:00Z")),
        WholeEvent.KeptRef(eventID: "ev-0900", timestamp: Fixtures.at("2026-09-01T10:00:00Z")),
    ]

    /// The login issue's Events pane, Enter pressed, and the store's answer for its first event.
    static func opened(_ size: Size, detail: EventDetail? = sentryEvent, unicode: Bool = true) -> (DashboardState, [DashboardEffect]) {
        var state = Fixtures.detailState(size, unicode: unicode, pane: .events)
        let effects = reduce(&state, .key(.enter))
        _ = reduce(&state, .eventLoaded(WholeEvent(eventID: "ev-1001", issueKey: Fixtures.login.key, detail: detail,
                                                   roles: detail == nil ? [] : ["latest"], kept: detail == nil ? [] : kept)))
        return (state, effects)
    }

    static func text(_ state: DashboardState, _ size: Size) -> String { render(state, size: size).lines.joined(separator: "\n") }

    @Test func enterAsksTheStoreForTheSelectedEventWhole() {
        let (state, effects) = Self.opened(Self.standard)
        #expect(effects == [.loadEvent(id: "ev-1001", issueKey: Fixtures.login.key)])
        #expect(state.screen == .event)
        #expect(state.event.eventID == "ev-1001")
    }

    @Test func aKeptSentryEventAt80x24() {
        expectSnapshot(render(Self.opened(Self.standard).0, size: Self.standard), "event-whole-80x24")
    }

    @Test func aKeptSentryEventAt160x48() {
        expectSnapshot(render(Self.opened(Self.large).0, size: Self.large), "event-whole-160x48")
    }

    @Test func anEventNotKeptSaysSoOverItsStoredFields() {
        let (state, _) = Self.opened(Self.standard, detail: nil)
        expectSnapshot(render(state, size: Self.standard), "event-not-kept-80x24")
        #expect(!StatusBar.hints(for: state, width: 200).map(\.text).joined().contains("kept events"))
    }

    @Test func libraryFramesAreFoldedAndFUnfoldsThem() {
        var (state, _) = Self.opened(Self.large)
        var text = Self.text(state, Self.large)
        #expect(text.contains("▸ billing/views.py:88 in checkout"))
        #expect(text.contains("raise ValueError(\"could not read the amount\") from error"))
        #expect(text.contains("… 3 library frames (f unfolds)"))
        #expect(!text.contains("flask/app.py:865"))
        _ = reduce(&state, .key(.char("f")))
        text = Self.text(state, Self.large)
        #expect(text.contains("flask/app.py:865 in full_dispatch_request"))
        #expect(!text.contains("library frames"))
    }

    @Test func scrollingReachesTheRequestAndTheUser() {
        var (state, _) = Self.opened(Self.standard)
        #expect(!Self.text(state, Self.standard).contains("api-host-1") || !Self.text(state, Self.standard).contains("user-41"))
        _ = reduce(&state, .key(.char("G")))
        let text = Self.text(state, Self.standard)
        #expect(text.contains("POST https://shop.example/checkout"))
        #expect(text.contains("Authorization"))
        #expect(text.contains("[Filtered]"))
        #expect(text.contains("user-41"))
    }

    @Test func nextAndPreviousStepThroughTheIssuesKeptEvents() {
        var (state, _) = Self.opened(Self.standard)
        #expect(reduce(&state, .key(.char("<"))) == [])
        #expect(state.message?.text == "No newer event of this issue is kept whole.")
        #expect(reduce(&state, .key(.char(">"))) == [.loadEvent(id: "ev-0900", issueKey: Fixtures.login.key)])
        #expect(state.event.eventID == "ev-0900")
        #expect(state.event.index == -1)
        #expect(Self.text(state, Self.standard).contains("reading the event"))
        _ = reduce(&state, .eventLoaded(WholeEvent(eventID: "ev-0900", issueKey: Fixtures.login.key,
                                                   detail: EventDetail(eventID: "ev-0900", source: "sentry", message: "older one"),
                                                   roles: ["first"], kept: Self.kept)))
        let text = Self.text(state, Self.standard)
        #expect(text.contains("Kept whole, 2 of 2 of the issue's · > older < newer · first"))
        #expect(text.contains("older one"))
        #expect(reduce(&state, .key(.char(">"))) == [])
        #expect(state.message?.text == "No older event of this issue is kept whole.")
        #expect(reduce(&state, .key(.char("<"))) == [.loadEvent(id: "ev-1001", issueKey: Fixtures.login.key)])
    }

    @Test func anAnswerForAnotherEventIsNotShown() {
        var state = Fixtures.detailState(Self.standard, pane: .events)
        _ = reduce(&state, .key(.enter))
        _ = reduce(&state, .eventLoaded(WholeEvent(eventID: "ev-9999", issueKey: Fixtures.login.key, detail: Self.sentryEvent, kept: [])))
        #expect(Self.text(state, Self.standard).contains("reading the event"))
    }

    @Test func hostileTextFromThePayloadStaysInert() {
        var event = Self.sentryEvent
        event.exceptions[0].frames[0].function = "evil\u{1B}]52;c;aGk=\u{07}\u{1B}[2J"
        event.breadcrumbs[0].message = "crumb\u{1B}[31mred\r\nnext"
        event.tags[0] = EventField("tag\u{9B}31m", "\u{202E}value")
        let (state, _) = Self.opened(Self.large, detail: event)
        let text = Self.text(state, Self.large)
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x07 || $0.value == 0x202E || $0 == "\r" })
        #expect(text.contains("evil"))
    }

    @Test func theChainPaneNamesWhereEachLinkWasRaised() {
        var state = Fixtures.detailState(Self.standard)
        var detail = Fixtures.loginDetail
        detail.raisedAt = [FrameLocation(file: "billing/amounts.py", line: 41, function: "parse_amount"), nil, nil, nil]
        _ = reduce(&state, .detailLoaded(detail))
        let text = Self.text(state, Self.standard)
        #expect(detail.summary.chain.links.count == 4)
        #expect(text.contains("  ← billing/amounts.py:41 in parse_amount"))
        #expect(text.components(separatedBy: "←").count == 2)
    }
}
