import Foundation
import SampleData
import Testing

/// The dashboard in a real terminal (tmux) when the terminal misbehaves: resize storms, a 1×1
/// window, TERM unset or dumb, a non-UTF-8 locale, no terminal at all, SIGTERM and SIGINT, and
/// a read-only or damaged store. The terminal is always given back as it was.
@Suite(.serialized) struct TerminalFaultTests: TmuxDriving {
    let session = "errtriage-terminal-\(getpid())"
    static let now = "2026-11-20T18:00:00Z"

    /// A script that runs the dashboard, then prints how it ended and the terminal's modes, and
    /// stays so that the screen can be read.
    func script(_ cli: CLI, store: String, environment: String = "") throws -> String {
        let path = try cli.file("run.sh", """
            #!/bin/sh
            \(environment) '\(CLI.binary)' --store '\(store)' --now \(Self.now)
            echo "EXIT=$?"
            stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' '
            echo MODES
            sleep 60
            """)
        chmod(path, 0o755)
        return path
    }

    /// Sends a signal to the dashboard running on `store` (its path is unique to the test).
    func signal(_ name: String, to store: String) throws {
        #expect(try tool("pkill", "-\(name)", "-f", store).status == 0)
    }

    func expectNoLineWiderThan(_ cols: Int, _ screen: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for line in screen.split(separator: "\n") {
            #expect(line.count <= cols, "\(line)", sourceLocation: sourceLocation)
        }
    }

    /// The shell reports death by a signal as 128 + its number.
    @Test(arguments: [("TERM", "EXIT=143"), ("INT", "EXIT=130")])
    func aSignalEndsTheDashboardAndGivesTheTerminalBack(_ name: String, _ exit: String) throws {
        let cli = try CLI()
        let store = try SampleStore.copy(to: cli.folder)
        try start(try script(cli, store: store), cols: 100, rows: 30)
        defer { stop() }
        try waitFor("rank: events")
        try signal(name, to: store)
        let screen = try waitFor("MODES")
        #expect(screen.contains(exit), "\(screen)")
        #expect(screen.contains("icanon echo"), "the terminal was left in raw mode:\n\(screen)")
        #expect(!screen.contains("rank: events"), "the dashboard's screen was not left:\n\(screen)")
    }

    @Test func aResizeStormAndA1x1TerminalNeitherCrashNorBreakTheGrid() throws {
        let cli = try CLI()
        try start(try script(cli, store: try SampleStore.path), cols: 120, rows: 40)
        defer { stop() }
        try waitFor("rank: events")
        var random = SplitMix(seed: 7)
        for _ in 0..<40 {
            try resize(cols: 1 + Int(random.next() % 200), rows: 1 + Int(random.next() % 60))
        }
        try resize(cols: 1, rows: 1)
        Thread.sleep(forTimeInterval: 0.5)
        try resize(cols: 30, rows: 8)
        try waitFor("need 40")
        try resize(cols: 90, rows: 24)
        let screen = try waitFor("rank: events")
        expectNoLineWiderThan(90, screen)
        try keys("j")
        try keys("Enter")
        try waitFor("Esc back")
        try keys("Escape")
        try keys("q")
        #expect(try waitFor("MODES").contains("EXIT=0"))
    }

    @Test(arguments: [("env -u TERM", "TERM is not set"), ("TERM=dumb", "TERM=dumb cannot move the cursor"),
                      ("TERM=no-such-terminal", "TERM=no-such-terminal is unknown")])
    func aTerminalThatCannotShowTheDashboardIsNamedInOneSentence(_ environment: String, _ sentence: String) throws {
        let cli = try CLI()
        try start(try script(cli, store: try SampleStore.path, environment: environment), cols: 200, rows: 20)
        defer { stop() }
        let screen = try waitFor("MODES")
        #expect(screen.contains(sentence), "\(screen)")
        #expect(screen.contains("errtriage report"))
        #expect(screen.contains("EXIT=1"))
    }

    @Test func aNonUTF8LocaleDrawsInASCII() throws {
        let cli = try CLI()
        try start(try script(cli, store: try SampleStore.path, environment: "LC_ALL=C LANG=C"), cols: 120, rows: 30)
        defer { stop() }
        let screen = try waitFor("rank: events")
        #expect(screen.unicodeScalars.allSatisfy { $0.isASCII }, "\(screen)")
        try keys("q")
        #expect(try waitFor("MODES").contains("EXIT=0"))
    }

    @Test func withoutATerminalItSaysToUseReport() throws {
        let cli = try CLI()
        let result = try cli.run(["--store", try SampleStore.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("needs a terminal") && result.stderr.contains("errtriage report"))
    }

    @Test func aReadOnlyStoreOpensReadOnlyAndSaysSoWhenAMarkIsTried() throws {
        let cli = try CLI()
        let store = try SampleStore.copy(to: cli.folder)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: store)
        try start(try script(cli, store: store), cols: 120, rows: 30)
        defer { stop() }
        try waitFor("[read-only]")
        try keys("r")
        try waitFor("Read-only store: marks are off.")
        try keys("q")
        #expect(try waitFor("MODES").contains("EXIT=0"))
    }

    @Test func aDamagedStoreIsNamedBeforeTheScreenChanges() throws {
        let cli = try CLI()
        let store = try cli.file("broken.sqlite", String(repeating: "not a database\n", count: 300))
        try start(try script(cli, store: store), cols: 200, rows: 20)
        defer { stop() }
        let screen = try waitFor("MODES")
        #expect(screen.contains("is not an errtriage store"), "\(screen)")
        #expect(screen.contains("EXIT=3"))
        #expect(screen.contains("icanon echo"))
    }
}
