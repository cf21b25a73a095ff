import Presentation
import TriageModel

/// The Life pane: the identifier's whole life, as `errtriage history` tells it. A month a row
/// since first seen (events, distinct users, complaints, the versions it appeared in), each
/// status change and merge under the month it happened in, and the months without anything
/// folded into one line, so that an issue seen over years reads as one story. Its figures come
/// from the month rollups, which a prune keeps.
enum LifePane {
    static func lines(_ detail: IssueDetail, width: Int, unicode: Bool) -> [[Span]] {
        guard let life = detail.life else { return [[Span(unicode ? "loading…" : "loading...", .dim)]] }
        let dot = unicode ? " · " : " | "
        let dash = unicode ? "—" : "-"
        let arrow = unicode ? " → " : " -> "
        let months = timeline(life)
        var lines: [[Span]] = [[
            Span("First seen \(life.firstSeen.minuteText) UTC", .heading),
            Span(dot + "last seen \(life.lastSeen.minuteText) UTC" + dot + monthsText(months.count), .dim),
        ]]
        if let since = detail.rawEventsSince {
            let note = "Raw events kept from \(since.dateText); every month here comes from the rollups, kept for all time."
            lines += TextWrap.wrap(note, width: max(1, width), unicode: unicode, maxLines: 4).map { [Span($0, .dim)] }
        }
        if months.count > 1, let first = months.first?.name, let last = months.last?.name {
            let spark = Sparkline.line(months.map { $0.figures?.events ?? 0 }, width: max(1, width - 34), unicode: unicode)
            lines.append([Span("Events by month  \(first) ", .dim), Span(spark, .sparkline), Span(" \(last)", .dim)])
        }
        lines.append([])
        let widths = columnWidths(months)
        lines.append([Span(row(["MONTH", "EVENTS", "USERS", "COMPL"], widths) + "  VERSIONS", .heading)])
        var quiet: [String] = []
        func closeQuiet() {
            guard let first = quiet.first, let last = quiet.last else { return }
            let span = first == last ? first : first + (unicode ? "–" : " to ") + last
            lines.append([Span("\(span): no events or complaints", .dim)])
            quiet = []
        }
        for month in months {
            guard let m = month.figures else {
                if month.changes.isEmpty && month.merges.isEmpty {
                    quiet.append(month.name)
                    continue
                }
                closeQuiet()
                lines.append([Span(row([month.name, "0", "0", "0"], widths), .dim), Span("  " + dash, .dim)])
                lines += eventLines(month, arrow: arrow)
                continue
            }
            closeQuiet()
            lines.append([Span(row([m.month, Format.grouped(m.events), Format.grouped(m.users), Format.grouped(m.complaints)], widths)),
                          Span("  " + (m.versions.isEmpty ? dash : HistoryText.versionSpan(m.versions, unicode: unicode)), .dim)])
            lines += eventLines(month, arrow: arrow)
        }
        closeQuiet()
        if life.changes.isEmpty { lines += [[], [Span("No status changes: \(life.status.rawValue) since first seen.", .dim)]] }
        return lines
    }

    /// One calendar month of the pane: its figures, if it had events or complaints, and what people did in it.
    struct Month {
        var name: String
        var figures: IssueHistory.Month?
        var changes: [StatusChange]
        var merges: [IssueHistory.Merge]
    }

    /// Every month from the first with anything in it to the last, oldest first, quiet ones included.
    static func timeline(_ life: IssueHistory) -> [Month] {
        var byName: [String: Month] = [:]
        func month(_ name: String) -> Month { byName[name] ?? Month(name: name, figures: nil, changes: [], merges: []) }
        for m in life.months { byName[m.month] = Month(name: m.month, figures: m, changes: [], merges: []) }
        for c in life.changes {
            let name = Timestamp.monthText(ofDay: c.at.day)
            byName[name] = month(name)
            byName[name]!.changes.append(c)
        }
        for m in life.merges {
            let name = Timestamp.monthText(ofDay: m.at.day)
            byName[name] = month(name)
            byName[name]!.merges.append(m)
        }
        guard let first = byName.keys.min(), let last = byName.keys.max() else { return [] }
        var names: [String] = []
        var current = first
        while current <= last, names.count < 1_200 {
            names.append(current)
            current = next(current)
        }
        return names.map(month)
    }

    /// The calendar month after `2026-11`: `2026-12`.
    static func next(_ month: String) -> String {
        let parts = month.split(separator: "-")
        guard parts.count == 2, let year = Int(parts[0]), let m = Int(parts[1]) else { return "9999-99" }
        let (y, n) = m >= 12 ? (year + 1, 1) : (year, m + 1)
        return String(y) + (n < 10 ? "-0" : "-") + String(n)
    }

    static func monthsText(_ count: Int) -> String { count == 1 ? "1 month" : "\(Format.grouped(count)) months" }

    /// The status changes and merges of a month, indented under its row, oldest first.
    static func eventLines(_ month: Month, arrow: String) -> [[Span]] {
        var items: [(at: Timestamp, spans: [Span])] = month.changes.map { ($0.at, NotesPane.changeSpans($0, arrow: arrow)) }
        items += month.merges.map { m in
            let text = m.action == "split" ? "split \(m.member) from \(m.head)" : "merged \(m.member) into \(m.head)"
            return (m.at, [Span("  " + m.at.minuteText, .dim), Span("  " + text, .heading), Span("  by \(m.by)", .dim)])
        }
        return items.sorted { $0.at < $1.at }.map(\.spans)
    }

    static func columnWidths(_ months: [Month]) -> [Int] {
        let figures = months.compactMap(\.figures)
        return [7,
                max(6, figures.map { Format.grouped($0.events).count }.max() ?? 0),
                max(5, figures.map { Format.grouped($0.users).count }.max() ?? 0),
                max(5, figures.map { Format.grouped($0.complaints).count }.max() ?? 0)]
    }

    static func row(_ cells: [String], _ widths: [Int]) -> String {
        cells.enumerated().map { i, cell in i == 0 ? Format.left(cell, widths[i]) : Format.right(cell, widths[i]) }.joined(separator: "  ")
    }
}
