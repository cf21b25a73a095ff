import Presentation
import TriageModel

/// From the stack to the code: `e` opens the Chain pane's selected raise site, or the event
/// screen's selected frame, in the user's editor at its line (the runtime suspends the dashboard
/// and runs it, as lazygit and tig do); `J` `K` select the next and previous one. What the checkout
/// says of them (`CodeFacts`: each file, the line's last commit, its owners, source lines) comes
/// back as `.codeLoaded` and is kept by the screen that asked.
enum CodeKeys {
    static let editHelp = KeyHelp("e", [.char("e")],
                                  "open the selected raise site (Chain pane) or frame (event) in your editor at its line: $VISUAL, else $EDITOR; needs --repo",
                                  hint: "edit", .detail)
    static let stepHelp = KeyHelp("J K", [.char("J"), .char("K")], "select the next / previous raise site (Chain pane) or frame (event) that e opens",
                                  hint: "select", .detail)

    // MARK: the Chain pane's raise sites

    static let openSite = KeyBinding(editHelp, offered: { $0.detail.pane == .chain && $0.detail.codeFor != nil }) { state, _ in
        guard state.detail.pane == .chain else {
            state.message = StatusMessage("e opens a raise site from the Chain pane (1), or a frame from an event (3, Enter).", isError: true)
            return []
        }
        guard let raise = state.detail.codeFor, let index = site(state) else {
            state.message = StatusMessage("No kept event of this issue names where it was raised.", isError: true)
            return []
        }
        return open(state.detail.code, at: index, place: raise.frames[safe: index]??.location?.description, &state)
    }

    static let stepSite = KeyBinding(stepHelp, offered: { $0.detail.pane == .chain && sites($0).count > 1 }) { state, key in
        guard state.detail.pane == .chain else {
            state.message = StatusMessage("J K select a raise site on the Chain pane (1).", isError: true)
            return []
        }
        let all = sites(state)
        guard let current = site(state), let i = all.firstIndex(of: current) else { return [] }
        state.detail.selectedSite = all[(i + (key == .char("J") ? 1 : all.count - 1)) % all.count]
        return []
    }

    /// The links that have a raise site, outermost first.
    static func sites(_ state: DashboardState) -> [Int] {
        guard let detail = state.detail.loaded, let raise = state.detail.codeFor,
              raise.frames.count == detail.summary.chain.links.count else { return [] }
        return raise.frames.indices.filter { raise.frames[$0] != nil }
    }

    /// The selected raise site: the one chosen, else the outermost that has a place.
    static func site(_ state: DashboardState) -> Int? {
        let all = sites(state)
        if let chosen = state.detail.selectedSite, all.contains(chosen) { return chosen }
        return all.first
    }

    // MARK: the event screen's frames

    static let openFrame = KeyBinding(editHelp, offered: { $0.event.shown?.detail.map { !$0.allFrames.isEmpty } ?? false }) { state, _ in
        guard let event = state.event.shown?.detail, let index = frame(state) else {
            state.message = StatusMessage(state.event.shown == nil ? "Still reading the event." : "This event has no frames to open.", isError: true)
            return []
        }
        let code = state.event.codeFor == event.eventID ? state.event.code : nil
        return open(code, at: index, place: event.allFrames[index].location?.description, &state)
    }

    static let stepFrame = KeyBinding(stepHelp, offered: { frames($0).count > 1 }) { state, key in
        let all = frames(state)
        guard let current = frame(state), let i = all.firstIndex(of: current) else { return [] }
        state.event.selectedFrame = all[(i + (key == .char("J") ? 1 : all.count - 1)) % all.count]
        EventScreen.keepFrameInView(&state)
        return []
    }

    /// The frames the event screen draws one by one (the app's, and the libraries' when unfolded), in its order.
    static func frames(_ state: DashboardState) -> [Int] {
        guard let event = state.event.shown?.detail else { return [] }
        let all = event.allFrames
        return all.indices.filter { state.event.unfolded || all[$0].inApp != false }
    }

    /// The selected frame: the one chosen, else the first of the app's, else the first drawn.
    static func frame(_ state: DashboardState) -> Int? {
        let drawn = frames(state)
        if let chosen = state.event.selectedFrame, drawn.contains(chosen) { return chosen }
        guard let event = state.event.shown?.detail else { return nil }
        let all = event.allFrames
        return drawn.first { all[$0].inApp == true } ?? drawn.first
    }

    // MARK: shared

    /// The editor on a looked-up frame, or the sentence why not.
    static func open(_ code: CodeFacts?, at index: Int, place: String?, _ state: inout DashboardState) -> [DashboardEffect] {
        guard let code else {
            state.message = StatusMessage("Still reading the checkout.")
            return []
        }
        if let problem = code.problem {
            state.message = StatusMessage(problem, isError: true, ticksLeft: 15)
            return []
        }
        guard let site = code.sites[safe: index] ?? nil else {
            state.message = StatusMessage("\(place ?? "This frame") names no place in the code.", isError: true)
            return []
        }
        guard let file = site.absolutePath else {
            let why = site.problems.first ?? "it maps to no file of the checkout"
            state.message = StatusMessage("\(place ?? "The frame"): \(why).", isError: true, ticksLeft: 15)
            return []
        }
        let line = site.workingLine ?? site.line
        var text = "Opening \(site.path ?? file)\(line.map { ":\($0)" } ?? "")"
        if let revision = code.revision?.name, let at = site.line {
            if site.changedSince {
                text += " (line \(at) at \(revision), changed since)"
            } else if site.workingLine != nil {
                text += " (line \(at) at \(revision))"
            }
        }
        state.message = StatusMessage(text + "…")
        return [.openEditor(file: file, line: line)]
    }

    /// The checkout's answer, kept by the screen that asked for it while it still shows that.
    static func loaded(_ answer: CodeAnswer, _ state: inout DashboardState) {
        switch answer {
        case .issue(let key, let raise, let facts):
            guard key == state.detail.key, raise == state.detail.codeFor else { return }
            state.detail.code = facts
        case .event(let issueKey, let eventID, let facts):
            guard issueKey == state.detail.key, eventID == state.event.shown?.detail?.eventID else { return }
            state.event.code = facts
            state.event.codeFor = eventID
        }
        state.settleScrolling()
    }

    // MARK: drawing

    /// The lines under a raise site in the Chain pane: the line's last commit and the file's
    /// owners, or why the checkout cannot tell them.
    static func siteLines(_ code: CodeFacts?, index: Int, indent: String, width: Int, unicode: Bool) -> [[Span]] {
        guard let code, code.problem == nil, let site = code.sites[safe: index] ?? nil else { return [] }
        let room = max(1, width - indent.count)
        var lines: [[Span]] = []
        if let commit = site.suspect {
            let text = CodeText.suspectLine(commit, unicode: unicode)
            lines.append([Span(indent), Span(commit.shortHash, .key), Span(TextSanitizer.sanitize(String(text.dropFirst(commit.shortHash.count)),
                                                                                                       unicode: unicode, maxWidth: room - 7))])
        }
        if !site.owners.isEmpty {
            let text = "owners " + site.owners.joined(separator: " ") + (site.ownersRule.map { "  (\($0))" } ?? "")
            lines.append([Span(indent), Span(TextSanitizer.sanitize(text, unicode: unicode, maxWidth: room), .dim)])
        }
        if site.suspect == nil, let problem = site.problems.first {
            lines.append([Span(indent), Span(TextSanitizer.sanitize(problem, unicode: unicode, maxWidth: room), .dim)])
        }
        return lines
    }

    /// The line under the ladder saying where the code was read, or why it was not.
    static func checkoutLines(_ code: CodeFacts?, width: Int, unicode: Bool) -> [[Span]] {
        guard let code else { return [[Span(unicode ? "reading the checkout…" : "reading the checkout...", .dim)]] }
        return TextWrap.wrap(CodeText.checkoutLine(code), width: max(1, width), unicode: unicode, maxLines: 3).map { [Span($0, .dim)] }
    }
}
