import Presentation
import TriageModel

/// The meeting's closing page: what the agenda held, then the complaints that cite no code
/// (problems the code cannot see), by category with sample texts, and how to get the minutes.
public struct MeetingEndScreen: Hashable, Sendable {
    /// The first line shown.
    var scroll = TextScroll()

    public init() {}
}

extension MeetingEndScreen: ScreenModule {
    static let name = "meeting's closing"

    static let bindings: [KeyBinding] = KeyBinding.moves(page: { bodyHeight($0.size) - 1 }) { state, delta in
        scroll(by: delta, &state)
    } + [
        Meeting.walk,
        Meeting.start,
        .dataEnd,
        .back { $0.screens = [.list] },
    ] + KeyBinding.shell

    static func mouse(_ event: MouseEvent, _ state: inout DashboardState) -> [DashboardEffect] {
        scroll(by: event.wheel, &state)
        return []
    }

    static func settle(_ state: inout DashboardState) {
        guard state.screen == .meetingEnd, let walk = state.meeting else { return }
        state.meetingEnd.scroll.settle(visible: bodyHeight(state.size), count: lines(walk, unicode: state.unicode).count)
    }

    static func scroll(by delta: Int, _ state: inout DashboardState) {
        guard let walk = state.meeting else { return }
        state.meetingEnd.scroll.scroll(by: delta, visible: bodyHeight(state.size), count: lines(walk, unicode: state.unicode).count)
    }

    /// Rows the page has to scroll in.
    static func bodyHeight(_ size: Size) -> Int { max(0, size.rows - 2) }

    static func lines(_ walk: MeetingWalk, unicode: Bool) -> [[Span]] {
        var lines: [[Span]] = []
        let window = walk.window
        let sections = Agenda.Section.allCases.compactMap { section -> String? in
            let n = walk.agenda.items(in: section).count
            return n == 0 ? nil : "\(section.title.lowercased()) \(n)"
        }
        if walk.agenda.items.isEmpty {
            lines.append([Span("Nothing on the agenda: no open or regressed issue has events in the last \(window.rawValue).")])
        } else {
            lines.append([Span("End of the agenda: \(walk.agenda.items.count) issues", .heading),
                          Span(" (" + sections.joined(separator: ", ") + ")", .dim)])
        }
        lines.append([])
        let unlinked = walk.unlinked
        if unlinked.groups.isEmpty {
            lines.append([Span("Every complaint of the last \(window.rawValue)"
                               + (unlinked.prunedBefore.map { " kept since \($0.dateText)" } ?? "") + " cites an error code.", .dim)])
        } else {
            lines.append([Span(Format.unlinkedTitle, .heading),
                          Span(" (\(Format.unlinkedCount(unlinked, window: window))): what the code cannot see", .dim)])
            for group in unlinked.groups {
                lines.append([Span("  " + Format.right(Format.count(group.count), 6), .ranked), Span("  " + group.category, .heading)])
                for sample in group.samples {
                    lines.append([Span("          " + (unicode ? "“" : "\"") + sample + (unicode ? "”" : "\""), .dim)])
                }
            }
        }
        lines.append([])
        // The command on a line of its own, so that it is whole to copy at 60 columns.
        lines.append([Span("Minutes to paste into the tracker:", .dim)])
        lines.append([Span("  errtriage report --since-meeting --format markdown", .key)])
        lines.append([Span("[", .key), Span(" back to the last item   ", .dim), Span("Esc", .key), Span(" the list   ", .dim),
                      Span("M", .key), Span(" a new agenda", .dim)])
        return lines
    }

    static func render(_ state: DashboardState, into buffer: inout ScreenBuffer) {
        buffer.fill(row: 0, style: .header)
        let dot = state.unicode ? " · " : " | "
        let progress = state.meeting?.progress ?? "no meeting"
        buffer.write(" Meeting\(dot)\(progress)\(dot)\(state.meeting?.window.rawValue ?? state.query.window.rawValue)", row: 0, col: 0, style: .header)
        if let walk = state.meeting {
            let lines = lines(walk, unicode: state.unicode)
            let height = bodyHeight(buffer.size)
            let scroll = state.meetingEnd.scroll.shown(visible: height, count: lines.count)
            for i in 0..<height where scroll + i < lines.count {
                buffer.write(lines[scroll + i], row: 1 + i, col: 1, width: buffer.size.cols - 1)
            }
        }
        StatusBar.render(state, row: buffer.size.rows - 1, into: &buffer)
    }
}
