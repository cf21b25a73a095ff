/// Where the list screen puts things; the view draws with it and the reducer hit-tests and scrolls with it.
struct ListLayout {
    let size: Size

    let headerRow = 0
    let controlsRow = 1
    let columnsRow = 2
    let firstIssueRow = 3
    /// How many issue rows fit between the column headings and the status line.
    var visibleIssues: Int { max(0, size.rows - 4) }
    var statusRow: Int { size.rows - 1 }

    /// The issue index under a screen row, if a row is there.
    func issueIndex(atRow row: Int, scroll: Int, count: Int) -> Int? {
        guard row >= firstIssueRow, row < firstIssueRow + visibleIssues else { return nil }
        let index = scroll + row - firstIssueRow
        return index < count ? index : nil
    }
}

/// Where the detail screens (issue detail, event) put things.
struct DetailLayout {
    let size: Size

    let headerRow = 0
    let tabRow = 1
    let bodyTop = 2
    var bodyHeight: Int { max(0, size.rows - 3) }
    var statusRow: Int { size.rows - 1 }

    /// One tab of the tab bar and the columns it covers.
    struct Tab: Equatable {
        var pane: DetailPane
        var label: String
        var columns: Range<Int>
    }

    /// The tabs as drawn, shortened until they fit the width.
    func tabs(unicode: Bool) -> (tabs: [Tab], separator: String) {
        let separator = unicode ? "│" : "|"
        let styles: [(label: (DetailPane) -> String, separator: String)] = [
            ({ " \($0.rawValue) \($0.title) " }, separator),
            ({ " \($0.rawValue) \($0.shortTitle) " }, separator),
            ({ "\($0.rawValue) \($0.shortTitle)" }, " "),
            ({ " \($0.rawValue) " }, " "),
        ]
        for style in styles {
            var tabs: [Tab] = []
            var x = 0
            for pane in DetailPane.allCases {
                if x > 0 { x += style.separator.count }
                let label = style.label(pane)
                tabs.append(Tab(pane: pane, label: label, columns: x..<(x + label.count)))
                x += label.count
            }
            if x <= size.cols || style.label(.chain).count <= 3 { return (tabs, style.separator) }
        }
        return ([], separator)
    }

    /// The pane whose tab is at a column.
    func pane(atCol col: Int, unicode: Bool) -> DetailPane? {
        tabs(unicode: unicode).tabs.first { $0.columns.contains(col) }?.pane
    }
}
