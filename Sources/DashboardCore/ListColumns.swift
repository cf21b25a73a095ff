import Presentation
import TriageModel

/// The list's columns fitted to a width: columns drop and shrink by priority so nothing overflows.
struct ListColumns: Hashable, Sendable {
    /// A column of the issue list.
    enum Kind: Hashable, Sendable {
        case rank, badges, key, title, events, users, complaints, trend, versions, status, assignee
    }

    struct Column: Hashable, Sendable {
        var kind: Kind
        var width: Int
    }

    var columns: [Column]
    /// Badges as single letters (`C A N R S`) instead of words.
    var compactBadges = false
    /// Statuses cut to four letters.
    var shortStatus = false
    /// Keys cut in the middle (`Format.fittedKey`: `US14-LO43…NSn1009`); the status bar shows the selected one whole.
    var compactKeys = false

    static let gap = 1
    /// From this width up the counts and the trend stay: a long key and the title are cut in the
    /// middle first (`GiveWay.wide`).
    static let wide = 80
    /// The narrowest a title gets before the counts give way, from `wide` up.
    static let titleKept = 16
    static let trendMax = 30
    /// A week's shape: the trend's width once it gives way, before it goes.
    static let trendShort = 7

    /// Lays out the columns for these issues in `width` cells. Keys are told apart among the rows
    /// on screen (`visible`): the rows scrolled away need not be.
    static func fit(_ issues: [IssueSummary], mode: RankMode, width: Int, unicode: Bool, visible: Range<Int>? = nil) -> ListColumns {
        let rankWidth = max(2, String(max(issues.count, 1)).count)
        let badgeFull = issues.map { Format.badges(of: $0).map(\.text).joined(separator: " ").count }.max() ?? 0
        let badgeCompact = issues.map { Format.badges(of: $0).map { Format.compactBadge($0.text) }.joined(separator: " ").count }.max() ?? 0
        let keyWidth = min(40, max(3, issues.map { TextSanitizer.width($0.key, unicode: unicode, limit: 40) }.max() ?? 3))
        let shown = visible.map { $0.clamped(to: issues.indices) }.map { Array(issues[$0]) } ?? issues
        var cutKeys = Dictionary(issues.map { ($0.key, Format.compactKey($0.key, unicode: unicode)) }) { a, _ in a }
        cutKeys.merge(Format.compactKeys(shown.map(\.key), unicode: unicode)) { _, told in told }
        let compactKeyWidth = min(keyWidth, max(3, cutKeys.values.map {
            TextSanitizer.width($0, unicode: unicode, limit: 40)
        }.max() ?? 3))
        // Each key's outermost and root links (`US9…NE29`), and more where two rows on screen would
        // read the same: the narrowest a key is cut to (`Format.fittedKey`).
        var keyEnds = min(compactKeyWidth, max(3, shown.map { Format.keyEndsWidth($0.key, unicode: unicode) }.max() ?? 3))
        let distinct = Set(shown.map(\.key)).count
        while keyEnds < compactKeyWidth, Set(shown.map {
            Format.fittedKey($0.key, width: keyEnds, unicode: unicode)
        }).count < distinct {
            keyEnds += 1
        }
        // The title's room: the longest whole `outer … root` (leaving 30 cells for a rank, a short key
        // and the ranked count): the columns that give way before it make room for it.
        let titleWidth = max(12, min(max(12, width - 30), issues.map {
            TextSanitizer.width(Format.title($0.chain, unicode: unicode), unicode: unicode, limit: width)
        }.max() ?? 12))
        func countWidth(_ m: RankMode) -> Int {
            let values = issues.map { Format.count($0.count(for: m)).count }.max() ?? 1
            return max(values, label(for: m).count + (m == mode ? 1 : 0))
        }
        let trendWidth = min(trendMax, max(5, issues.map(\.series.count).max() ?? 0))
        let versionWidth = min(20, max(8, issues.map {
            TextSanitizer.width(Format.versionRange($0.firstVersion, $0.lastVersion, unicode: unicode), unicode: unicode, limit: 20)
        }.max() ?? 8))

        var layout = ListColumns(columns: [
            Column(kind: .rank, width: rankWidth),
            Column(kind: .badges, width: badgeFull),
            Column(kind: .key, width: keyWidth),
            Column(kind: .title, width: titleWidth),
            Column(kind: .events, width: countWidth(.events)),
            Column(kind: .users, width: countWidth(.users)),
            Column(kind: .complaints, width: countWidth(.complaints)),
            Column(kind: .trend, width: trendWidth),
            Column(kind: .versions, width: versionWidth),
            Column(kind: .status, width: 9),
            Column(kind: .assignee, width: issues.compactMap { $0.assignee.map { TextSanitizer.width($0, unicode: unicode, limit: 12) } }.max().map { max(8, $0) } ?? 0),
        ])
        layout.columns.removeAll { ($0.kind == .badges || $0.kind == .assignee) && $0.width == 0 }
        let widths = GiveWay.Widths(badgeCompact: badgeCompact, trend: trendWidth, title: titleWidth, key: keyWidth,
                                    compactKey: compactKeyWidth, keyEnds: keyEnds, limit: width)

        let rankedKind = kind(for: mode)
        let full = layout
        var applied: [GiveWay] = []
        for step in (width >= wide ? GiveWay.wide : GiveWay.allCases) where layout.total > width {
            step.apply(to: &layout, ranked: rankedKind, widths: widths)
            applied.append(step)
        }
        // A later step may have freed enough cells to take back an earlier one, the latest first;
        // but not once a title is cut: nothing that gave way before it comes back at its cost.
        for step in applied.dropLast().reversed() where !applied.contains(where: \.cutsTitle) {
            var trial = full
            for other in applied where other != step { other.apply(to: &trial, ranked: rankedKind, widths: widths) }
            if trial.total <= width {
                layout = trial
                applied.removeAll { $0 == step }
            }
        }
        if layout.total > width {
            // Last resort: the key gives up cells, then whatever is left is cut by the writer.
            layout.compactKeys = true
            layout.setWidth(.key, max(3, compactKeyWidth - (layout.total - width)))
        }
        if let title = layout.columns.firstIndex(where: { $0.kind == .title }), layout.total < width {
            layout.columns[title].width += width - layout.total
        }
        return layout
    }

    /// Cells the columns take with their gaps.
    var total: Int { columns.reduce(0) { $0 + $1.width } + max(0, columns.count - 1) * ListColumns.gap }

    /// Each column with its starting cell.
    var positions: [(column: Column, x: Int)] {
        var x = 0
        return columns.map { column in
            defer { x += column.width + ListColumns.gap }
            return (column, x)
        }
    }

    func has(_ kind: Kind) -> Bool { columns.contains { $0.kind == kind } }

    mutating func drop(_ kind: Kind) { columns.removeAll { $0.kind == kind } }

    mutating func setWidth(_ kind: Kind, _ width: Int) {
        if let i = columns.firstIndex(where: { $0.kind == kind }) { columns[i].width = width }
    }

    static func kind(for mode: RankMode) -> Kind {
        switch mode {
        case .events: .events
        case .users: .users
        case .complaints: .complaints
        }
    }

    static func label(for mode: RankMode) -> String {
        switch mode {
        case .events: "EVENTS"
        case .users: "USERS"
        case .complaints: "COMPL"
        }
    }
}

/// The list's columns fitted for its rows, mode, width and the rows on screen.
struct FittedColumns: Hashable, Sendable {
    /// What the columns were fitted for.
    struct Key: Hashable, Sendable {
        var issues: [IssueSummary]
        var mode: RankMode
        var width: Int
        var unicode: Bool
        var visible: Range<Int>
    }

    var key: Key
    var columns: ListColumns

    init(key: Key) {
        self.key = key
        columns = ListColumns.fit(key.issues, mode: key.mode, width: key.width, unicode: key.unicode, visible: key.visible)
    }
}

/// One step of giving way, in the order the list's columns give way when the width is short.
/// What identifies a row gives way last: the key's ends (the key shortens to its outer and root
/// codes, told apart from its neighbours') and the title (what the user saw … the root cause).
/// Below `ListColumns.wide` the trend, the versions and the unranked counts give way before a title
/// is cut; from it up (`wide`), the counts and a short trend stay, and a long key is cut in the
/// middle (`cutKey`, `Format.fittedKey`) and the title cut to what is left (`fitTitle`) first.
enum GiveWay: CaseIterable, Hashable {
    case dropAssignee, compactBadges, shortTrend, dropVersions, shortStatus, compactKeys, cutKey, fitTitle, dropTrend, dropUsers,
         dropComplaints, cutTitle, dropEvents, shortTitle, dropTitle

    /// The order from `ListColumns.wide` up: the key and the title are cut before any count or the trend goes.
    static let wide: [GiveWay] = [.dropAssignee, .compactBadges, .shortTrend, .dropVersions, .shortStatus, .compactKeys, .cutKey,
                                  .fitTitle, .dropTrend, .dropUsers, .dropComplaints, .cutTitle, .dropEvents, .shortTitle, .dropTitle]

    /// The order below it: every step but the wide list's own.
    static var allCases: [GiveWay] {
        [.dropAssignee, .compactBadges, .shortTrend, .dropVersions, .shortStatus, .compactKeys, .dropTrend, .dropUsers,
         .dropComplaints, .cutTitle, .dropEvents, .shortTitle, .dropTitle]
    }

    /// The widths the steps shrink columns to, measured on the rows.
    struct Widths {
        var badgeCompact: Int
        var trend: Int
        var title: Int
        var key: Int
        var compactKey: Int
        /// The widest of the shown keys' two ends (`US9…NE29`).
        var keyEnds: Int
        /// The width the columns must fit.
        var limit: Int
    }

    /// Whether the step cuts the title: once it has, nothing that gave way before it comes back.
    var cutsTitle: Bool { self == .fitTitle || self == .cutTitle || self == .shortTitle || self == .dropTitle }

    func apply(to layout: inout ListColumns, ranked: ListColumns.Kind, widths: Widths) {
        switch self {
        case .dropAssignee: layout.drop(.assignee)
        case .compactBadges:
            layout.compactBadges = true
            layout.setWidth(.badges, widths.badgeCompact)
        case .shortTrend: layout.setWidth(.trend, min(widths.trend, ListColumns.trendShort))
        case .dropVersions: layout.drop(.versions)
        case .shortStatus:
            layout.shortStatus = true
            layout.setWidth(.status, 4)
        case .compactKeys:
            layout.compactKeys = widths.compactKey < widths.key
            layout.setWidth(.key, widths.compactKey)
        case .cutKey:
            // To what the title leaves it, down to the keys' ends: a third of what the two share.
            guard let key = layout.columns.first(where: { $0.kind == .key }), let title = layout.columns.first(where: { $0.kind == .title })
            else { return }
            let shared = key.width + title.width - (layout.total - widths.limit)
            layout.compactKeys = true
            layout.setWidth(.key, min(key.width, max(widths.keyEnds, shared / 3)))
        case .fitTitle:
            guard let title = layout.columns.first(where: { $0.kind == .title }) else { return }
            layout.setWidth(.title, max(min(title.width, ListColumns.titleKept), title.width - (layout.total - widths.limit)))
        case .dropTrend: layout.drop(.trend)
        case .dropUsers: if ranked != .users { layout.drop(.users) }
        case .dropComplaints: if ranked != .complaints { layout.drop(.complaints) }
        case .cutTitle: layout.setWidth(.title, min(widths.title, 12))
        case .dropEvents: if ranked != .events { layout.drop(.events) }
        case .shortTitle: layout.setWidth(.title, 6)
        case .dropTitle: layout.drop(.title)
        }
    }
}
