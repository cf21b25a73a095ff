@testable import DashboardCore
import Testing
import TriageModel

/// From the stack to the code: the detail asks the checkout about its raise sites, the Chain pane
/// shows each one's suspect commit and owners, `e` opens the selected one in the editor, `J` `K`
/// select; the event screen does the same for its frames and shows the checkout's source lines.
@Suite struct CodeKeysTests {
    static let key = Fixtures.login.key
    static let raise = RaiseFrames(eventID: "ev-1001", release: "shop@2.1.0", frames: [
        EventFrame(function: "show_login", file: "lib/shop/service.rb", line: 30, inApp: true),
        nil,
        EventFrame(function: "get_token", file: "lib/shop/service.rb", line: 18, inApp: true),
        EventFrame(function: "post_token", file: "/srv/shop/lib/shop/net.rb", line: 12, inApp: true),
    ])
    static let ben = CodeCommit(hash: "4f1c2d3e4f1c2d3e4f1c2d3e4f1c2d3e4f1c2d3e", author: "Ben Okafor", email: "ben@shop.example",
                                date: Fixtures.at("2026-09-20T10:00:00Z"), subject: "Retry the token once")
    static let facts = CodeFacts(checkout: "/home/ana/src/shop", revision: CodeRevision(commit: ben.hash, name: "v2.1.0", isRelease: true), sites: [
        CodeSite(path: "lib/shop/service.rb", absolutePath: "/home/ana/src/shop/lib/shop/service.rb", line: 30, via: "filename",
                 suspect: ben, owners: ["@shop/accounts"], ownersRule: "CODEOWNERS:2 /lib/shop/"),
        nil,
        CodeSite(path: "lib/shop/service.rb", absolutePath: "/home/ana/src/shop/lib/shop/service.rb", line: 18, via: "filename",
                 suspect: ben, owners: ["@shop/accounts"], ownersRule: "CODEOWNERS:2 /lib/shop/"),
        CodeSite(line: 12, problems: ["/srv/shop/lib/shop/net.rb is no file of the checkout (git ls-files); --path-map FROM=TO maps a deployed path"]),
    ])

    /// The login issue's detail with its raise sites, as the store answers it.
    static func detail(_ size: Size = Size(rows: 24, cols: 80), answered: Bool = true) -> (DashboardState, [DashboardEffect]) {
        var state = Fixtures.loadedState(size)
        _ = reduce(&state, .key(.enter))
        var detail = Fixtures.loginDetail
        detail.raiseFrames = raise
        detail.raisedAt = raise.locations
        let effects = reduce(&state, .detailLoaded(detail))
        if answered { _ = reduce(&state, .codeLoaded(.issue(key: key, raise: raise, facts))) }
        return (state, effects)
    }

    @Test func theDetailAsksTheCheckoutOnceForItsRaiseSites() {
        var (state, effects) = Self.detail(answered: false)
        #expect(effects == [.code(.issue(key: Self.key, raise: Self.raise, firstSeen: Fixtures.login.firstSeen))])
        // The same sites again (a reload after another process's write): not asked again.
        var again = Fixtures.loginDetail
        again.raiseFrames = Self.raise
        #expect(reduce(&state, .detailLoaded(again)) == [])
        // An answer for other frames is dropped; this one is kept.
        var other = Self.raise
        other.release = "shop@9"
        _ = reduce(&state, .codeLoaded(.issue(key: Self.key, raise: other, Self.facts)))
        #expect(state.detail.code == nil)
        _ = reduce(&state, .codeLoaded(.issue(key: Self.key, raise: Self.raise, Self.facts)))
        #expect(state.detail.code == Self.facts)
        // Without a kept event, nothing to ask.
        var plain = Fixtures.loadedState()
        _ = reduce(&plain, .key(.enter))
        #expect(reduce(&plain, .detailLoaded(Fixtures.loginDetail)) == [])
    }

    @Test func eOpensTheSelectedRaiseSiteAndJKSelect() {
        var (state, _) = Self.detail()
        #expect(reduce(&state, .key(.char("e"))) == [.openEditor(file: "/home/ana/src/shop/lib/shop/service.rb", line: 30)])
        _ = reduce(&state, .key(.char("J")))
        #expect(reduce(&state, .key(.char("e"))) == [.openEditor(file: "/home/ana/src/shop/lib/shop/service.rb", line: 18)])
        // The link without a site is skipped; the last one maps to no file, and says why.
        _ = reduce(&state, .key(.char("J")))
        #expect(reduce(&state, .key(.char("e"))) == [])
        #expect(state.message?.text == "/srv/shop/lib/shop/net.rb:12 in post_token: /srv/shop/lib/shop/net.rb is no file of the checkout (git ls-files); --path-map FROM=TO maps a deployed path.")
        #expect(state.message?.isError == true)
        // K goes back, and round.
        _ = reduce(&state, .key(.char("K")))
        _ = reduce(&state, .key(.char("K")))
        _ = reduce(&state, .key(.char("K")))
        #expect(CodeKeys.site(state) == 3)
    }

    @Test func eOpensTheLineWhereTheWorkingTreeHasItNow() {
        var (state, _) = Self.detail(answered: false)
        var facts = Self.facts
        facts.sites[0]?.workingLine = 33
        _ = reduce(&state, .codeLoaded(.issue(key: Self.key, raise: Self.raise, facts)))
        #expect(reduce(&state, .key(.char("e"))) == [.openEditor(file: "/home/ana/src/shop/lib/shop/service.rb", line: 33)])
        #expect(state.message?.text == "Opening lib/shop/service.rb:33 (line 30 at v2.1.0)…")
        facts.sites[0]?.changedSince = true
        _ = reduce(&state, .codeLoaded(.issue(key: Self.key, raise: Self.raise, facts)))
        _ = reduce(&state, .key(.char("e")))
        #expect(state.message?.text == "Opening lib/shop/service.rb:33 (line 30 at v2.1.0, changed since)…")
    }

    @Test func eSaysWhyWhereItCannotOpen() {
        var (waiting, _) = Self.detail(answered: false)
        #expect(reduce(&waiting, .key(.char("e"))) == [])
        #expect(waiting.message?.text == "Still reading the checkout.")
        _ = reduce(&waiting, .codeLoaded(.issue(key: Self.key, raise: Self.raise, .unavailable(CodeSettings.noCheckout))))
        #expect(reduce(&waiting, .key(.char("e"))) == [])
        #expect(waiting.message?.text == CodeSettings.noCheckout)
        // Another pane: where e works.
        var (state, _) = Self.detail()
        _ = reduce(&state, .key(.char("2")))
        #expect(reduce(&state, .key(.char("e"))) == [])
        #expect(state.message?.text.hasPrefix("e opens a raise site from the Chain pane (1)") == true)
        // The editor that could not run says so.
        _ = reduce(&state, .editorClosed("No editor: set $VISUAL or $EDITOR (e.g. export EDITOR=vim)."))
        #expect(state.message?.text == "No editor: set $VISUAL or $EDITOR (e.g. export EDITOR=vim).")
    }

    @Test func theChainPaneShowsEachSitesSuspectAndOwnersAt80x24() {
        expectSnapshot(render(Self.detail().0, size: Size(rows: 24, cols: 80)), "detail-chain-code-80x24")
        var (waiting, _) = Self.detail(answered: false)
        #expect(render(waiting, size: Size(rows: 24, cols: 80)).lines.joined().contains("reading the checkout"))
        _ = reduce(&waiting, .codeLoaded(.issue(key: Self.key, raise: Self.raise, .unavailable(CodeSettings.noCheckout))))
        #expect(render(waiting, size: Size(rows: 24, cols: 80)).lines.joined().contains("No checkout of the code: start with --repo DIR"))
    }

    @Test func theChainPaneAt160x48() {
        expectSnapshot(render(Self.detail(Size(rows: 48, cols: 160)).0, size: Size(rows: 48, cols: 160)), "detail-chain-code-160x48")
    }

    @Test func theMeetingsHeaderSuggestsTheOwnersOfAnItemNobodyOwns() {
        var state = MeetingReducerTests.meetingState(Size(rows: 24, cols: 120))
        let key = Fixtures.sync.key
        var detail = Fixtures.loginDetail
        detail.summary = Fixtures.sync
        detail.raiseFrames = RaiseFrames(eventID: "e", release: nil, frames: [Self.raise.frames[0], nil])
        _ = reduce(&state, .detailLoaded(detail))
        _ = reduce(&state, .codeLoaded(.issue(key: key, raise: detail.raiseFrames!, CodeFacts(checkout: "/src", sites: [
            CodeSite(path: "lib/shop/service.rb", line: 30, owners: ["@shop/accounts", "@ana"]), nil,
        ]))))
        let header = render(state, size: Size(rows: 24, cols: 120)).lines[0]
        #expect(header.contains("item 1 of 4 · Regressed · CODEOWNERS @shop/accounts @ana"), "\(header)")
    }

    // MARK: the event screen

    /// An event whose app frames came without source (scrubbed, or an SDK that sends none).
    static let event: EventDetail = {
        var e = EventScreenTests.sentryEvent
        e.exceptions[1].frames[0].contextLine = nil
        return e
    }()

    static let eventFacts: CodeFacts = {
        var sites: [CodeSite?] = Array(repeating: nil, count: event.allFrames.count)
        sites[0] = CodeSite(path: "billing/views.py", absolutePath: "/src/shop/billing/views.py", line: 88)
        sites[4] = CodeSite(path: "billing/amounts.py", absolutePath: "/src/shop/billing/amounts.py", line: 41, source: SourceExcerpt(
            firstLine: 38, lines: ["def parse_amount(form):", "    \"\"\"The amount a form holds.\"\"\"", "\tif form:",
                                   "        raw = form.get(\"amount\")", "    return Decimal(raw)", "", "# end"],
            line: 41, revision: "v2.0.0"))
        return CodeFacts(checkout: "/src/shop", revision: CodeRevision(commit: ben.hash, name: "v2.0.0", isRelease: true), sites: sites)
    }()

    static func openedEvent(_ size: Size = Size(rows: 24, cols: 80)) -> (DashboardState, [DashboardEffect]) {
        var state = Fixtures.detailState(size, pane: .events)
        _ = reduce(&state, .key(.enter))
        let effects = reduce(&state, .eventLoaded(WholeEvent(eventID: "ev-1001", issueKey: Self.key, detail: Self.event, roles: ["latest"],
                                                            kept: EventScreenTests.kept)))
        return (state, effects)
    }

    @Test func theEventScreenAsksForItsFramesAndEOpensTheSelectedOne() {
        var (state, effects) = Self.openedEvent()
        #expect(effects == [.code(.event(issueKey: Self.key, Self.event))])
        _ = reduce(&state, .codeLoaded(.event(issueKey: Self.key, eventID: "ev-1001", Self.eventFacts)))
        // The first of the app's frames is selected at first.
        #expect(reduce(&state, .key(.char("e"))) == [.openEditor(file: "/src/shop/billing/views.py", line: 88)])
        // J skips the folded library frames.
        _ = reduce(&state, .key(.char("J")))
        #expect(state.event.selectedFrame == 4)
        #expect(reduce(&state, .key(.char("e"))) == [.openEditor(file: "/src/shop/billing/amounts.py", line: 41)])
        // Unfolded, J walks every frame; one with no site says so.
        _ = reduce(&state, .key(.char("f")))
        _ = reduce(&state, .key(.char("J")))
        #expect(state.event.selectedFrame == 5)
        #expect(reduce(&state, .key(.char("e"))) == [])
        #expect(state.message?.text == "werkzeug/datastructures.py:200 in __getitem__ names no place in the code.")
    }

    @Test func theCheckoutsSourceStandsInWhereTheSDKSentNoneAt80x24() {
        var (state, _) = Self.openedEvent(Size(rows: 24, cols: 80))
        _ = reduce(&state, .codeLoaded(.event(issueKey: Self.key, eventID: "ev-1001", Self.eventFacts)))
        _ = reduce(&state, .key(.char("J")))
        expectSnapshot(render(state, size: Size(rows: 24, cols: 80)), "event-code-80x24")
        let text = render(state, size: Size(rows: 24, cols: 80)).lines.joined(separator: "\n")
        #expect(text.contains("→ 41          raw = form.get(\"amount\")"))
    }

    @Test func theCheckoutsSourceAt160x48() {
        var (state, _) = Self.openedEvent(Size(rows: 48, cols: 160))
        _ = reduce(&state, .codeLoaded(.event(issueKey: Self.key, eventID: "ev-1001", Self.eventFacts)))
        expectSnapshot(render(state, size: Size(rows: 48, cols: 160)), "event-code-160x48")
        let text = render(state, size: Size(rows: 48, cols: 160)).lines.joined(separator: "\n")
        #expect(text.contains("read from the checkout at v2.0.0 (4f1c2d3)"))
        // Unselected, a frame shows its one line from the checkout.
        #expect(text.contains("        raw = form.get(\"amount\")"))
    }
}
