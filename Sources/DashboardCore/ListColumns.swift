import Presentation
import Synchronization
import TriageModel

/// The list's columns fitted to a width: columns drop and shrink by priority so nothing overflows.
struct ListColumns: Equatable {
    /// A column of the issue list.
    enum Kind: Equatable {
        case rank, badges, key, title, events, users, complaints, trend, versions, status, assignee
    }

    struct Column: Equatable {
        var kind: Kind
        var width: Int
    }

    var columns: [Column]
    /// Badges as single letters (`C A N R S`) instead of words.
    var compactBadges = false
    /// Statuses cut to four letters.
    var shortStatus = false
    /// Keys cut to their outer and root codes (`US14…NSn1009`); the status bar shows the selected one whole.
    var compactKeys = false
    /// Each key's cut form, told apart from the others' (`Format.compactKeys`).
    var cutKeys: [String: String] = [:]

    static let gap = 1
    static let trendMax = 30
    /// A week's shape: the trend's width once it gives way, before it goes.
    static let trendShort = 7

    /// `fit`, remembered for the last list it was asked of: each frame of the list asks it twice
    /// (the list, and the status bar for a cut key), of every loaded row's texts, which measuring
    /// grapheme by grapheme took most of a frame. An unchanged list is the same array, so telling
    /// it is unchanged costs nothing; the answer is what `fit` gives, so frames stay pure.
    static func fitted(_ issues: [IssueSummary], mode: RankMode, width: Int, unicode: Bool, visible: Range<Int>) -> ListColumns {
        // (`Mutex` is in the standard library from macOS 15; before it, every frame fits anew.)
        guard #available(macOS 15, *) else { return fit(issues, mode: mode, width: width, unicode: unicode, visible: visible) }
        if let known = FitMemo.last.withLock({ last in
            last.flatMap {
                $0.mode == mode && $0.width == width && $0.unicode == unicode && $0.visible == visible && $0.issues == issues ? $0.columns : nil
            }
        }) {
            return known
        }
        let columns = fit(issues, mode: mode, width: width, unicode: unicode, visible: visible)
        FitMemo.last.withLock {
            $0 = FitMemo(issues: issues, mode: mode, width: width, unicode: unicode, visible: visible, columns: columns)
        }
        return columns
    }

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
        layout.cutKeys = cutKeys

        let rankedKind = kind(for: mode)
        // What identifies a row gives way last: the key's ends (the key shortens to its outer and
        // root codes, told apart from its neighbours') and the title (what the user saw … the root
        // cause). The trend, the versions and the unranked counts give way before a title is cut.
        let reductions: [(inout ListColumns) -> Void] = [
            { $0.drop(.assignee) },
            { $0.compactBadges = true; $0.setWidth(.badges, badgeCompact) },
            { $0.setWidth(.trend, min(trendWidth, trendShort)) },
            { $0.drop(.versions) },
            { $0.shortStatus = true; $0.setWidth(.status, 4) },
            { $0.compactKeys = compactKeyWidth < keyWidth; $0.setWidth(.key, compactKeyWidth) },
            { $0.drop(.trend) },
            { if rankedKind != .users { $0.drop(.users) } },
            { if rankedKind != .complaints { $0.drop(.complaints) } },
            { $0.setWidth(.title, min(titleWidth, 12)) },
            { if rankedKind != .events { $0.drop(.events) } },
            { $0.setWidth(.title, 6) },
            { $0.drop(.title) },
        ]
        let titleCut = 9
        let full = layout
        var applied: [Int] = []
        for (i, reduce) in reductions.enumerated() where layout.total > width {
            reduce(&layout)
            applied.append(i)
        }
        // A later step may have freed enough cells to take back an earlier one, the latest first;
        // but not once a title is cut: nothing that gave way before it comes back at its cost.
        for i in applied.dropLast().reversed() where !applied.contains(titleCut) {
            var trial = full
            for j in applied where j != i { reductions[j](&trial) }
            if trial.total <= width {
                layout = trial
                applied.removeAll { $0 == i }
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

/// The last fit `ListColumns.fitted` made, and what it was made of.
struct FitMemo {
    var issues: [IssueSummary]
    var mode: RankMode
    var width: Int
    var unicode: Bool
    var visible: Range<Int>
    var columns: ListColumns

    @available(macOS 15, *)
    static let last = Mutex<FitMemo?>(nil)
}
