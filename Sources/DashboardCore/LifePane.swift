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
                lines += eventLines(month, width: width, unicode: unicode)
                continue
            }
            closeQuiet()
            lines.append([Span(row([m.month, Format.grouped(m.events), Format.grouped(m.users), Format.grouped(m.complaints)], widths)),
                          Span("  " + (m.versions.isEmpty ? dash : HistoryText.versionSpan(m.versions, unicode: unicode)), .dim)])
            lines += eventLines(month, width: width, unicode: unicode)
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
        // Keyed by the month's first day, as the month rollups are.
        var byStart: [Int64: Month] = [:]
        func month(ofDay day: Int64) -> Int64 {
            let start = Timestamp.monthStart(ofDay: day)
            if byStart[start] == nil { byStart[start] = Month(name: Timestamp.monthText(ofDay: start), figures: nil, changes: [], merges: []) }
            return start
        }
        for m in life.months {
            guard let day = Timestamp.parse(m.month + "-01T00:00:00Z")?.day else { continue }
            byStart[month(ofDay: day)]!.figures = m
        }
        for c in life.changes { byStart[month(ofDay: c.at.day)]!.changes.append(c) }
        for m in life.merges { byStart[month(ofDay: m.at.day)]!.merges.append(m) }
        guard let first = byStart.keys.min(), let last = byStart.keys.max() else { return [] }
        return sequence(first: first) { Timestamp.nextMonthStart(ofDay: $0) }.prefix { $0 <= last }
            .map { byStart[month(ofDay: $0)]! }
    }

    static func monthsText(_ count: Int) -> String { count == 1 ? "1 month" : "\(Format.grouped(count)) months" }

    /// The status changes and merges of a month, indented under its row, oldest first.
    static func eventLines(_ month: Month, width: Int, unicode: Bool) -> [[Span]] {
        var items: [(at: Timestamp, lines: [[Span]])] = month.changes.map { ($0.at, NotesPane.changeLines($0, width: width, unicode: unicode)) }
        items += month.merges.map { m in
            (m.at, [[Span("  " + m.at.minuteText, .dim), Span("  " + HistoryText.mergeText(m), .heading), Span("  by \(m.by)", .dim)]])
        }
        return items.sorted { $0.at < $1.at }.flatMap(\.lines)
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
