@testable import DashboardCore
import Presentation
import Testing
import TriageModel

/// Each widget rendered into a small buffer and compared, the ratatui way, with the expected lines
/// and the expected styles: one letter per cell (`.` normal, `s` sparkline, `k` key, `r` root cause,
/// `d` dim, `h` heading, `R` ranked, `o` open, `g` regressed, `S` spike badge, `G` regressed badge).
@Suite struct WidgetTests {
    static let legend: [Style: Character] = [
        .normal: ".", .sparkline: "s", .key: "k", .rootCause: "r", .dim: "d", .heading: "h", .ranked: "R",
        .statusOpen: "o", .statusRegressed: "g", .badgeSpike: "S", .badgeRegressed: "G",
    ]

    /// The style of every cell, one letter each (`?` for a style the legend lacks).
    func styles(_ buffer: ScreenBuffer) -> [String] {
        (0..<buffer.size.rows).map { row in
            String((0..<buffer.size.cols).map { Self.legend[buffer[row, $0].style] ?? "?" })
        }
    }

    func buffer(_ rows: Int, _ cols: Int, unicode: Bool = true) -> ScreenBuffer {
        ScreenBuffer(size: Size(rows: rows, cols: cols), unicode: unicode)
    }

    @Test func aSparklineScalesToItsHighestCount() {
        var b = buffer(2, 8)
        b.write(Sparkline.line([0, 1, 2, 4, 8], width: 8), row: 0, col: 0, style: .sparkline)
        b.write(Sparkline.line([1, 1, 1], width: 8), row: 1, col: 1, style: .sparkline)
        #expect(b.lines == [" ▁▂▄█   ",
                            " ███    "])
        #expect(styles(b) == ["sssss...",
                              ".sss...."])
    }

    @Test func aSparklineInASCIIUsesTheRamp() {
        var b = buffer(1, 6, unicode: false)
        b.write(Sparkline.line([0, 1, 4, 9], width: 6, unicode: false), row: 0, col: 0, style: .sparkline)
        #expect(b.lines == [" .=@  "])
        #expect(styles(b) == ["ssss.."])
    }

    @Test func theChainLadderStepsInAndMarksTheRootCause() {
        var b = buffer(4, 52)
        for (row, spans) in ChainLadder.ladder(Fixtures.loginChain, unicode: true).enumerated() {
            b.write(spans, row: row, col: 0)
        }
        #expect(b.lines == ["US14  UserError 14 connectionIssue                  ",
                            "└─ LO43  LogicError 43 loginFailed                  ",
                            "   └─ AP7  APIError 7 getTokenFailed                ",
                            "      └─ NE8  NetworkError 8 timeout  ◀ root cause  "])
        #expect(styles(b) == ["kkkk...........dddd.................................",
                              "dddkkkk............dddd.............................",
                              "ddddddkkk..........ddd..............................",
                              "dddddddddrrr..............ddd.......rrrrrrrrrrrrrr.."])
    }

    @Test func columnsFitByCellsAndStyleTheRankedCountAndTheStatus() {
        let issues = [Fixtures.login, Fixtures.sync]
        let columns = ListColumns.fit(issues, mode: .events, width: 60, unicode: true)
        var b = buffer(3, 60)
        ListScreen.writeHeadings(columns, mode: .events, row: 0, unicode: true, into: &b)
        for (i, issue) in issues.enumerated() {
            ListScreen.writeRow(issue, rank: i + 1, columns: columns, mode: .events, row: i + 1, into: &b)
        }
        #expect(b.lines == [" #   KEY        TITLE                           ▼EVENTS STAT",
                            " 1 S US14…NE8   connectionIssue … timeout          1234 open",
                            " 2 R IN500…NE29 syncFailed … connectionLost         987 regr"])
        #expect(styles(b) == ["hh...hhh........hhhhh...........................RRRRRRR.hhhh",
                              "dd.S............................................RRRRRRR.oooo",
                              "dd.G............................................RRRRRRR.gggg"])
    }

    @Test func aMergedGroupShowsItsPlusNBadgeWholeEvenInANarrowList() {
        var group = Fixtures.login
        group.members = [Fixtures.login, Fixtures.sync, Fixtures.sync]
        let issues = [group, Fixtures.sync]
        let columns = ListColumns.fit(issues, mode: .events, width: 60, unicode: true)
        #expect(columns.compactBadges)
        var b = buffer(2, 60)
        for (i, issue) in issues.enumerated() {
            ListScreen.writeRow(issue, rank: i + 1, columns: columns, mode: .events, row: i, into: &b)
        }
        #expect(b.lines[0].hasPrefix(" 1 S +2 US14…NE8"))
        #expect(b.lines[1].hasPrefix(" 2 R    IN500…NE29"))
    }

    @Test func textWrapsAtSpacesByCellsWithControlsShown() {
        let lines = TextWrap.wrap("日本語 text\u{1B}[1m wraps here", width: 10, unicode: true)
        var b = buffer(lines.count, 10)
        for (row, line) in lines.enumerated() { b.write(line, row: row, col: 0, style: .dim) }
        #expect(b.lines == ["日本語    ",
                            "text^[[1m ",
                            "wraps here"])
        #expect(styles(b) == ["dddddd....",
                              "ddddddddd.",
                              "dddddddddd"])
    }
}
