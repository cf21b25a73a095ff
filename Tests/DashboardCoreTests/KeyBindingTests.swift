@testable import DashboardCore
import Testing
import TriageModel

/// Keys are declared once, with what they do, by each screen (`ScreenModule.bindings`): help and the
/// key line are drawn from them, and a key a screen does not take says so.
@Suite struct KeyBindingTests {
    @Test func helpIsOnTheKeyLineOfEveryScreenAtEverySize() {
        let sizes = [Size(rows: 12, cols: 40), Size(rows: 15, cols: 60), Size(rows: 24, cols: 80), Size(rows: 40, cols: 120)]
        for size in sizes {
            var list = Fixtures.loadedState(size)
            #expect(render(list, size: size).lines.last?.contains("? help") == true, "list at \(size)")
            _ = reduce(&list, .key(.enter))
            _ = reduce(&list, .detailLoaded(Fixtures.loginDetail))
            #expect(render(list, size: size).lines.last?.contains("? help") == true, "detail at \(size)")
            _ = reduce(&list, .key(.escape))
            _ = reduce(&list, .key(.char("p")))
            #expect(render(list, size: size).lines.last?.contains("? help") == true, "pivot at \(size)")
        }
    }

    @Test func aKeyTheScreenDoesNotTakeSaysSoAndWhereItWorks() {
        var state = Fixtures.loadedState()
        _ = reduce(&state, .key(.char("V")))
        #expect(reduce(&state, .key(.char("m"))).isEmpty)
        #expect(state.message?.text == "m does nothing on the release screen (it works on the list screen); ? lists this screen's keys.")
        #expect(reduce(&state, .key(.char("z"))).isEmpty)
        #expect(state.message?.text == "z does nothing on the release screen; ? lists this screen's keys.")
        #expect(state.message?.isError == true)
    }

    @Test func helpListsTheKeysOfTheScreenItIsOpenedOnFirstThenTheBadges() {
        var state = Fixtures.loadedState(Size(rows: 60, cols: 120))
        _ = reduce(&state, .key(.char("p")))
        _ = reduce(&state, .key(.char("?")))
        let lines = render(state, size: state.size).lines
        #expect(lines[0].contains("Help: keys on the pivot screen"))
        let text = lines.joined(separator: "\n")
        let pivotKeys = text.range(of: "group by the root cause")!, badges = text.range(of: "Badges in the list")!
        let marks = text.range(of: "mark resolved")!
        #expect(pivotKeys.lowerBound < badges.lowerBound && badges.lowerBound < marks.lowerBound)
        for badge in ["CRASH     C", "ANR       A", "NEW       N", "SPIKE     S", "REGRESSED R"] { #expect(text.contains(badge)) }
    }

    @Test func everyKeyHelpListsIsOneTheTableDeclaresAndTheTicketNamesItsFile() {
        let text = HelpScreen.lines(for: .list, unicode: true).map { $0.map(\.text).joined() }.joined(separator: "\n")
        #expect(text.contains("errtriage-ticket-KEY.md"))
        #expect(!text.contains("named below"))
        for key in Screen.allKeys { #expect(text.contains(key.text.prefix(20)), "\(key.label)") }
    }

    @Test func helpAt60x15() {
        var state = Fixtures.loadedState(Size(rows: 15, cols: 60))
        _ = reduce(&state, .key(.char("?")))
        expectSnapshot(render(state, size: state.size), "help-60x15")
    }

    @Test func helpOnTheReleaseScreenAt200x60() {
        var state = Fixtures.loadedState(Size(rows: 60, cols: 200))
        _ = reduce(&state, .key(.char("V")))
        _ = reduce(&state, .key(.char("?")))
        expectSnapshot(render(state, size: state.size), "help-release-200x60")
    }
}
