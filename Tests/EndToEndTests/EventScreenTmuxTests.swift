import Foundation
import Testing

/// The event screen on the real binary: an event the real sentry-python SDK wrote
/// (Tests/SDK/python_shop.py) is ingested, its issue opened by key, the Chain pane names where
/// the KeyError was raised, and Enter on the Events pane shows its frames and breadcrumbs. Both engines.
@Suite(.serialized) struct EventScreenTmuxTests: TmuxDriving {
    let session = "errtriage-event-\(getpid())"

    @Test func aPythonSDKsEventOpensWholeWithItsFramesAndBreadcrumbs() throws {
        let cli = try CLI()
        let (file, sent) = try SDKService.python.capture(into: cli.temporary.path("sdk"))
        let ingest = try cli.run(["ingest", file])
        #expect(ingest.status == 0, "\(ingest.stdout)\(ingest.stderr)")
        let key = try #require(Grouping(sent, keys: try SDKService.keys(cli)).key("key-setting"))

        try start("ERRTRIAGE_STORE='\(cli.store)' USER=tester '\(CLI.binary)' --now data", cols: 120, rows: 40)
        defer { stop() }
        try waitForLoaded("rank: events")
        try keys("/")
        try enter("key:\(key)")
        try waitForLoaded("1 issue")
        try keys("Enter")
        try waitFor("\(key) · Chain")
        try waitFor("← pyshop/catalog.py:11 in setting")

        try keys("3")
        try waitFor("Events")
        try keys("Enter")
        var screen = try waitFor("▸ pyshop/catalog.py:11 in setting")
        #expect(screen.contains("Exception: KeyError: "), "\(screen)")
        #expect(screen.contains("return SETTINGS[key]"), "\(screen)")
        // Its place among the three kept events (the SDK sends them within one second: the
        // Events pane's first row need not be the store's newest kept one).
        let place = try #require(screen.firstMatch(of: /Kept whole, (\d) of 3 of the issue's/), "\(screen)")
        let position = Int(place.1)!
        // The breadcrumbs lie further down: the screen scrolls to them.
        var seen = screen
        for _ in 0..<6 where !seen.contains("key-setting attempt ") {
            try keys("PageDown")
            Thread.sleep(forTimeInterval: 0.2)
            screen = try self.screen()
            seen += screen
        }
        let crumb = seen.split(separator: "\n").first { $0.contains("key-setting attempt ") }
        #expect(crumb?.contains("shop") == true, "\(seen)")
        #expect(crumb?.contains("info") == true, "\(seen)")

        // The next kept event of the issue, then at 80×24 its frame still reads whole.
        try keys("g")
        try keys(position < 3 ? ">" : "<")
        try waitFor("Kept whole, \(position < 3 ? position + 1 : position - 1) of 3")
        try resize(cols: 80, rows: 24)
        // (Until the dashboard draws at the new size, tmux shows its 40 rows cut to 24, the frame
        // among them but not the status bar: wait for both.)
        screen = try waitUntil("the frame and the kept events' keys at 80×24") {
            $0.contains("▸ pyshop/catalog.py:11 in setting") && $0.contains("> < kept events")
        }
        #expect(screen.contains("> < kept events"), "\(screen)")
    }
}
