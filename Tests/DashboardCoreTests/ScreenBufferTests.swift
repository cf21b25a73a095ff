import DashboardCore
import Testing

/// The cell buffer keeps wide characters whole and never writes outside itself.
@Suite struct ScreenBufferTests {
    @Test func aMegabyteStringCostsAScreensWorth() {
        let huge = String(repeating: "\u{1B}[31m日本x", count: 150_000)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            var buffer = ScreenBuffer(size: Size(rows: 1, cols: 200))
            buffer.write(huge, row: 0, col: 0)
            #expect(buffer.lines[0].hasSuffix("…"))
        }
        #expect(elapsed < .milliseconds(50))
    }

    @Test func wideCharactersTakeACellAndAContinuation() {
        var buffer = ScreenBuffer(size: Size(rows: 1, cols: 6))
        buffer.write("日x", row: 0, col: 0)
        #expect(buffer[0, 0].character == "日")
        #expect(buffer[0, 1].isContinuation)
        #expect(buffer[0, 2].character == "x")
        #expect(buffer.lines == ["日x   "])
    }

    @Test func aWideCharacterThatDoesNotFitIsNotHalfDrawn() {
        var buffer = ScreenBuffer(size: Size(rows: 1, cols: 3))
        buffer.write("ab日", row: 0, col: 0, ellipsis: false)
        #expect(buffer.lines == ["ab "])
        #expect(!buffer[0, 2].isContinuation)
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var buffer = ScreenBuffer(size: Size(rows: 1, cols: 4))
        buffer.write("日本", row: 0, col: 0)
        buffer.write("x", row: 0, col: 1)
        #expect(buffer.lines == [" x本"])
        #expect(!buffer[0, 1].isContinuation)
    }

    @Test func longTextEndsInAnEllipsis() {
        var buffer = ScreenBuffer(size: Size(rows: 1, cols: 5))
        buffer.write("abcdefgh", row: 0, col: 0)
        #expect(buffer.lines == ["abcd…"])
        var ascii = ScreenBuffer(size: Size(rows: 1, cols: 5), unicode: false)
        ascii.write("abcdefgh", row: 0, col: 0)
        #expect(ascii.lines == ["abcd~"])
    }

    @Test func writesOutsideTheBufferAreIgnored() {
        var buffer = ScreenBuffer(size: Size(rows: 2, cols: 2))
        buffer.write("x", row: 5, col: 0)
        buffer.write("x", row: 0, col: 9)
        buffer.write("x", row: -1, col: 0)
        #expect(buffer.lines == ["  ", "  "])
    }

    @Test func changesAreTheRunsThatDiffer() {
        var old = ScreenBuffer(size: Size(rows: 2, cols: 6))
        old.write("abcdef", row: 0, col: 0)
        var new = old
        new.write("XY", row: 0, col: 2)
        new.write("z", row: 1, col: 5)
        let runs = new.changes(since: old)
        #expect(runs.map(\.row) == [0, 1])
        #expect(runs.map(\.col) == [2, 5])
        #expect(runs[0].cells.map(\.character) == ["X", "Y"])
    }

    @Test func everythingChangesWithoutAPreviousFrameOrAfterAResize() {
        let frame = ScreenBuffer(size: Size(rows: 2, cols: 3))
        #expect(frame.changes(since: nil).count == 2)
        #expect(frame.changes(since: ScreenBuffer(size: Size(rows: 3, cols: 3))).count == 2)
        #expect(frame.changes(since: frame).isEmpty)
    }

    @Test func aChangedWideCharacterIsRedrawnWhole() {
        var old = ScreenBuffer(size: Size(rows: 1, cols: 4))
        old.write("日本", row: 0, col: 0)
        var new = old
        new.write("日木", row: 0, col: 0)
        let runs = new.changes(since: old)
        #expect(runs.count == 1)
        #expect(runs[0].col == 2)
        #expect(runs[0].cells.count == 2)
    }
}

/// Tiny and zero sizes never crash.
@Suite struct TinySizeTests {
    @Test(arguments: [Size(rows: 0, cols: 0), Size(rows: 1, cols: 1), Size(rows: 1, cols: 80), Size(rows: 12, cols: 39),
                      Size(rows: 11, cols: 40), Size(rows: 12, cols: 40)])
    func everyScreenRendersAtTinySizes(size: Size) {
        var state = Fixtures.detailState(size, pane: .events)
        for screen in [[Screen.list], [.list, .detail], [.list, .detail, .event], [.list, .help]] {
            state.screens = screen
            let buffer = render(state, size: size)
            #expect(buffer.lines.count == size.rows)
            #expect(buffer.lines.allSatisfy { $0.count <= size.cols })
        }
        for key: Key in [.down, .pageDown, .end, .tab, .enter, .char("?"), .char("j"), .escape, .escape] {
            _ = reduce(&state, .key(key))
        }
        _ = reduce(&state, .mouse(MouseEvent(row: 0, col: 0, kind: .click)))
        _ = reduce(&state, .resize(size))
    }

    @Test func tooSmallSaysWhatItNeeds() {
        let state = Fixtures.loadedState()
        #expect(render(state, size: Size(rows: 5, cols: 60)).lines[0].hasPrefix("terminal too small (need 40×12)"))
        #expect(render(state, size: Size(rows: 1, cols: 1)).lines == ["…"])
    }
}
