import Presentation
import TriageModel

/// The screen of one recent event of the open issue, over the detail's Events pane: every field,
/// then its message and custom keys, under the detail's header and tab bar.
public struct EventScreen: Hashable, Sendable {
    /// The event shown, an index into the open detail's recent events.
    public var index = 0
    /// The first line shown.
    var scroll = TextScroll()

    public init(index: Int = 0) { self.index = index }
}

extension EventScreen: ScreenModule {
    static let name = "event"

    static let bindings: [KeyBinding] = KeyBinding.moves(page: { DetailLayout(size: $0.size).bodyHeight - 1 }) { state, delta in
        scroll(by: delta, &state)
    } + [
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
        DetailScreen.renderChrome(state, event: state.detail.loaded?.recentEvents[safe: state.event.index]?.eventID ?? "?", into: &buffer)
        let lines = lines(state, size: buffer.size)
        let scroll = state.event.scroll.shown(visible: layout.bodyHeight, count: lines.count)
        for i in 0..<layout.bodyHeight where scroll + i < lines.count {
            buffer.write(lines[scroll + i], row: layout.bodyTop + i, col: 1, width: buffer.size.cols - 1)
        }
        StatusBar.render(state, row: layout.statusRow, into: &buffer)
    }

    /// Opens the event selected in the detail's Events pane.
    static func open(_ state: inout DashboardState) {
        guard state.detail.pane == .events, let events = state.detail.loaded?.recentEvents,
              events.indices.contains(state.detail.selectedEvent) else { return }
        state.screens.append(.event)
        state.event = EventScreen(index: state.detail.selectedEvent)
    }

    static func scroll(by delta: Int, _ state: inout DashboardState) {
        state.event.scroll.scroll(by: delta, visible: DetailLayout(size: state.size).bodyHeight, count: lines(state, size: state.size).count)
    }

    /// The lines of the event shown, at a size.
    static func lines(_ state: DashboardState, size: Size) -> [[Span]] {
        guard let detail = state.detail.loaded, detail.summary.key == state.detail.key else {
            return [[Span(state.unicode ? "loading…" : "loading...", .dim)]]
        }
        guard let event = detail.recentEvents[safe: state.event.index] else { return [[Span("No such event.", .dim)]] }
        return fieldLines(event, width: max(1, size.cols - 2), unicode: state.unicode)
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
