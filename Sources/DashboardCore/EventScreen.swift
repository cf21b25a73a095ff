import Presentation
import TriageModel

/// The screen of one event of the open issue, over the detail's Events pane: read whole from the
/// payload the store keeps (exceptions and frames, breadcrumbs, tags, contexts, request, user),
/// or, for an event not kept whole, its stored fields; under the detail's header and tab bar.
public struct EventScreen: Hashable, Sendable {
    /// The event's row in the open detail's recent events (-1: a kept event older than those).
    public var index = 0
    /// The event shown.
    public var eventID: String?
    /// The event read whole, once the store answers (for `eventID` or the event before it).
    public var whole: WholeEvent?
    /// Whether library frames are shown one by one (`f`) instead of folded into one line a run.
    public var unfolded = false
    /// What the checkout says of the event's frames (for the event `codeFor` names).
    public var code: CodeFacts?
    public var codeFor: String?
    /// The selected frame, by its index in `EventDetail.allFrames` (nil: the first of the app's), which `e` opens.
    public var selectedFrame: Int?
    /// The first line shown.
    var scroll = TextScroll()

    public init() {}

    public init(index: Int, eventID: String?) {
        self.index = index
        self.eventID = eventID
    }

    /// The answer for the event shown, once it came.
    var shown: WholeEvent? { whole?.eventID == eventID ? whole : nil }
}

extension EventScreen: ScreenModule {
    static let name = "event"

    static let bindings: [KeyBinding] = KeyBinding.moves(page: { DetailLayout(size: $0.size).bodyHeight - 1 }) { state, delta in
        scroll(by: delta, &state)
    } + [
        KeyBinding("> <", [.char(">"), .char("<")], "the next (older) / previous (newer) event of the issue kept whole",
                   hint: "kept events", .detail, offered: { state in state.event.shown.map { whole in whole.kept.contains { $0.eventID != whole.eventID } } ?? false }) { state, key in
            step(key == .char(">") ? 1 : -1, &state)
        },
        CodeKeys.openFrame,
        CodeKeys.stepFrame,
        KeyBinding("f", [.char("f")], "fold / unfold the library frames", hint: "frames", .detail,
                   offered: { $0.event.shown?.detail.map(hasLibraryFrames) ?? false }) { state, _ in
            state.event.unfolded.toggle()
            state.settleScrolling()
            return []
        },
        Meeting.walk,
        Meeting.start,
    ] + Marks.bindings(target: DetailScreen.issue) + [
        .dataEnd,
        .back { $0.screens.removeLast() },
    ] + KeyBinding.shell

    static func mouse(_ event: MouseEvent, _ state: inout DashboardState) -> [DashboardEffect] {
        scroll(by: event.wheel, &state)
        return []
    }

    static func settle(_ state: inout DashboardState) {
        guard state.screen == .event else { return }
        state.event.scroll.settle(visible: DetailLayout(size: state.size).bodyHeight, count: lines(state, size: state.size).count)
    }

    static func render(_ state: DashboardState, into buffer: inout ScreenBuffer) {
        let layout = DetailLayout(size: buffer.size)
        DetailScreen.renderChrome(state, event: state.event.eventID.map { TextSanitizer.sanitize($0, maxWidth: 40) } ?? "?", into: &buffer)
        let lines = lines(state, size: buffer.size)
        let scroll = state.event.scroll.shown(visible: layout.bodyHeight, count: lines.count)
        for i in 0..<layout.bodyHeight where scroll + i < lines.count {
            buffer.write(lines[scroll + i], row: layout.bodyTop + i, col: 1, width: buffer.size.cols - 1)
            if lines[scroll + i].first?.style == .selected { buffer.paint(row: layout.bodyTop + i, col: 0, width: buffer.size.cols, style: .selected) }
        }
        StatusBar.render(state, row: layout.statusRow, into: &buffer)
    }

    static func reloads(_ state: DashboardState) -> [DashboardEffect] {
        guard let id = state.event.eventID, let key = state.detail.key else { return [] }
        return [.loadEvent(id: id, issueKey: key)]
    }

    /// Opens the event selected in the detail's Events pane, and asks for it whole.
    static func open(_ state: inout DashboardState) -> [DashboardEffect] {
        guard state.detail.pane == .events, let key = state.detail.key, let events = state.detail.loaded?.recentEvents,
              let event = events[safe: state.detail.selectedEvent] else { return [] }
        state.screens.append(.event)
        state.event = EventScreen(index: state.detail.selectedEvent, eventID: event.eventID)
        return [.loadEvent(id: event.eventID, issueKey: key)]
    }

    /// The store's answer: shown when it is for the event on screen; the checkout is asked about
    /// its frames once per event.
    static func loaded(_ event: WholeEvent, _ state: inout DashboardState) -> [DashboardEffect] {
        guard event.eventID == state.event.eventID, event.issueKey == state.detail.key else { return [] }
        if state.event.whole?.eventID != event.eventID {
            state.event.scroll = TextScroll()
            state.event.selectedFrame = nil
        }
        state.event.whole = event
        state.settleScrolling()
        guard let detail = event.detail, !detail.allFrames.isEmpty, state.event.codeFor != event.eventID else { return [] }
        state.event.code = nil
        state.event.codeFor = nil
        return [.code(.event(issueKey: event.issueKey, detail))]
    }

    /// Scrolls so that the selected frame's line is in view, and the source lines under it as far as they fit.
    static func keepFrameInView(_ state: inout DashboardState) {
        let all = lines(state, size: state.size)
        guard let row = all.firstIndex(where: { $0.first?.style == .selected }) else { return }
        let below = all[(row + 1)...].prefix { $0.first?.style == .dim && $0.first?.text.hasPrefix("      ") == true }.count
        let visible = DetailLayout(size: state.size).bodyHeight
        var top = state.event.scroll.shown(visible: visible, count: all.count)
        top = Scrolling.keep(row + below, visible: visible, scroll: top, count: all.count)
        state.event.scroll.top = Scrolling.keep(row, visible: visible, scroll: top, count: all.count)
    }

    /// `>` `<`: the next older (1) or newer (-1) event of the issue kept whole.
    static func step(_ delta: Int, _ state: inout DashboardState) -> [DashboardEffect] {
        guard let whole = state.event.shown, let key = state.detail.key else {
            state.message = StatusMessage("Still reading the event.", isError: true)
            return []
        }
        let kept = whole.kept
        let target: WholeEvent.KeptRef?
        if let i = kept.firstIndex(where: { $0.eventID == whole.eventID }) {
            target = kept[safe: i + delta]
        } else if let time = state.detail.loaded?.recentEvents[safe: state.event.index]?.timestamp {
            target = delta > 0 ? kept.first { $0.timestamp < time } : kept.last { $0.timestamp > time }
        } else {
            target = nil
        }
        guard let target else {
            state.message = StatusMessage(kept.isEmpty ? "No event of this issue is kept whole."
                                          : delta > 0 ? "No older event of this issue is kept whole." : "No newer event of this issue is kept whole.",
                                          isError: true)
            return []
        }
        state.event.eventID = target.eventID
        state.event.index = state.detail.loaded?.recentEvents.firstIndex { $0.eventID == target.eventID } ?? -1
        return [.loadEvent(id: target.eventID, issueKey: key)]
    }

    static func scroll(by delta: Int, _ state: inout DashboardState) {
        state.event.scroll.scroll(by: delta, visible: DetailLayout(size: state.size).bodyHeight, count: lines(state, size: state.size).count)
    }

    /// The lines of the event shown, at a size.
    static func lines(_ state: DashboardState, size: Size) -> [[Span]] {
        guard let detail = state.detail.loaded, detail.summary.key == state.detail.key else {
            return [[Span(state.unicode ? "loading…" : "loading...", .dim)]]
        }
        let width = max(1, size.cols - 2)
        let recent = detail.recentEvents[safe: state.event.index]
        guard let whole = state.event.shown else {
            let reading = [Span(state.unicode ? "reading the event…" : "reading the event...", .dim)]
            return [reading, []] + (recent.map { fieldLines($0, width: width, unicode: state.unicode) } ?? [])
        }
        guard let event = whole.detail else {
            guard let recent else { return [[Span("No such event.", .dim)]] }
            let note = "Not kept whole (the store keeps a sample of each issue's events): its stored fields."
            return TextWrap.wrap(note, width: width, unicode: state.unicode).map { [Span($0, .dim)] } + [[]]
                + fieldLines(recent, width: width, unicode: state.unicode)
        }
        let code = state.event.codeFor == event.eventID ? state.event.code : nil
        var lines = wholeLines(event, whole, width: width, unfolded: state.event.unfolded, unicode: state.unicode, code: code,
                               selected: CodeKeys.frame(state))
        // What the importer drew from it for the store (exception_group.other_branches, a reporter's keys).
        if let recent, !recent.customKeys.isEmpty {
            lines += [[], [Span("Custom keys, as stored", .heading)]]
            lines += recent.customKeys.flatMap { field("  " + $0.key, $0.value, width: width, unicode: state.unicode) }
        }
        return lines
    }

    /// Every field of an event, then its message and custom keys.
    static func fieldLines(_ event: ErrorEvent, width: Int, unicode: Bool) -> [[Span]] {
        var fields: [(String, String?)] = [
            ("Event ID", event.eventID), ("Time", event.timestamp.iso8601), ("Chain", event.chain.shortKey),
            ("App version", event.appVersion), ("Build", event.appBuild), ("Platform", event.platform),
            ("OS", event.osLabel), ("Device", event.deviceModel.map(DeviceName.label)), ("Network", event.network),
            ("Orientation", event.orientation), ("App state", event.appState),
            ("Free RAM", event.freeRAM.map { Format.grouped(Int($0)) }),
            ("Free disk", event.freeDisk.map { Format.grouped(Int($0)) }),
            ("Jailbroken", event.jailbroken.map { $0 ? "yes" : "no" }),
            ("User", event.userID), ("Session", event.sessionID), ("Environment", event.environment),
            ("Source", event.source), ("Kind", event.kind?.rawValue),
        ]
        fields.removeAll { $0.1 == nil }
        var lines: [[Span]] = fields.flatMap { ChainLadder.field($0.0, $0.1!, width: width, unicode: unicode) }
        lines.append([])
        lines.append([Span("Message", .heading)])
        let message = TextWrap.wrap(event.message ?? "(none)", width: max(1, width - 2), unicode: unicode)
        lines += message.map { [Span("  " + $0)] }
        lines.append([])
        lines.append([Span("Custom keys", .heading)])
        if event.customKeys.isEmpty { lines.append([Span("  (none)", .dim)]) }
        for (key, value) in event.customKeys {
            let keyText = TextSanitizer.sanitize(key, unicode: unicode, maxWidth: 30)
            let wrapped = TextWrap.wrap(value, width: max(1, width - 4), unicode: unicode, maxLines: 50)
            lines.append([Span("  " + keyText, .key)])
            lines += wrapped.map { [Span("    " + $0)] }
        }
        return lines
    }
}
