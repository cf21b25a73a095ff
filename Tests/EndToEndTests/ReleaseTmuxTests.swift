import Foundation
import Testing

/// The release screen of the real binary on the sample data, in tmux.
@Suite(.serialized) struct ReleaseTmuxTests: TmuxDriving {
    let session = "errtriage-release-\(getpid())"

    @Test func vShowsWhatTheLatestVersionBroughtAndEnterOpensAnIssue() throws {
        try start("ERRTRIAGE_STORE='\(SampleStore.path)' '\(CLI.binary)' --now \(SampleStore.end)", cols: 80, rows: 24)
        defer { stop() }
        try waitFor("rank: events")
        try keys("V")
        let screen = try waitFor("Release 1.13 against 1.12")
        #expect(screen.contains("adoption data"))
        #expect(screen.contains("New in 1.13 (7)"))
        #expect(screen.contains("US21…PS7"))
        #expect(screen.contains("Worse than 1.12 (2)"))
        #expect(screen.contains("Better than 1.12 (1)"))
        #expect(screen.contains("Gone since 1.12 (5)"))
        try keys("Enter")
        try waitFor("US4-LO50-AP15-HT401-NE8 · Chain")
        try keys("Escape")
        try waitFor("Release 1.13 against 1.12")
        try keys("Escape")
        try waitFor("rank: events")
    }
}
