import ChildProcess
import Foundation
import Testing

/// `e` on the real binary in tmux (issue 48): the Python service's events read against a throwaway
/// checkout of its code in a folder whose name holds a space; the Chain pane shows the raising
/// line's last commit and its owners; `e` there and on the event screen runs $EDITOR (a script
/// that records its arguments) with `+LINE FILE`, and the dashboard is drawn again when it ends.
/// Both engines.
@Suite(.serialized) struct CodeEditorTmuxTests: TmuxDriving {
    let session = "errtriage-editor-\(getpid())"

    /// Each argument the editor got, one a line, once it has run.
    func arguments(_ file: String) throws -> [String] {
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: file, encoding: .utf8), text.hasSuffix("\n") {
                return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        Issue.record("the editor never ran")
        return []
    }

    /// Starts the dashboard with `command` and opens the issue `key` (filtered to it, Enter).
    func open(_ key: String, _ command: String) throws {
        try start(command, cols: 120, rows: 40)
        try waitForLoaded("rank: events")
        try keys("/")
        try enter("key:\(key)")
        try waitForLoaded("1 issue")
        try keys("Enter")
    }

    @Test func eOpensTheRaisingLineInTheEditorAndTheDashboardComesBack() throws {
        let checkout = try CodeCheckoutCLITests.checkout(.python)
        let (cli, grouping) = try CodeCheckoutCLITests.ingest(.python)
        let key = try #require(grouping.key("key-setting"))
        let record = cli.temporary.path("editor-args.txt")
        // Copied by cp, so that no child of this process holds the script open for writing (ETXTBSY).
        let draft = try cli.temporary.file("editor.txt", "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > '\(record).part'\n"
                                           + "echo EDITOR-IS-RUNNING; sleep 1; mv '\(record).part' '\(record)'\n")
        let editor = cli.temporary.path("editor")
        #expect(try ChildProcess.run(["cp", draft, editor]).status == 0)
        chmod(editor, 0o755)

        defer { stop() }
        try open(key, "ERRTRIAGE_STORE='\(cli.store)' USER=tester EDITOR='\(editor)' VISUAL= '\(CLI.binary)' --now data --repo '\(checkout.repo.root)'")
        var screen = try waitFor("\(checkout.tagged.prefix(7))  2026-09-20  Ben Okafor  Release the shop")
        #expect(screen.contains("▸ pyshop/catalog.py:11 in setting"), "\(screen)")
        #expect(screen.contains("owners @ana  (CODEOWNERS:5 pyshop/catalog.py)"), "\(screen)")
        #expect(screen.contains("Code: \(checkout.repo.root) at v2.0.0"), "\(screen)")

        try keys("e")
        try waitFor("EDITOR-IS-RUNNING")
        #expect(try arguments(record) == ["+11", checkout.repo.root + "/pyshop/catalog.py"])
        // The editor gone, the dashboard is drawn again whole.
        screen = try waitUntil("the detail again") { $0.contains("\(key) · Chain") && !$0.contains("EDITOR-IS-RUNNING") }
        #expect(screen.contains("Ben Okafor"), "\(screen)")
        try FileManager.default.removeItem(atPath: record)

        // The event screen: the raising frame first, J to the next one.
        try keys("3")
        try keys("Enter")
        // Once the checkout has answered, the selected frame says that e opens it.
        try waitFor("▸ pyshop/catalog.py:11 in setting  ◂ e")
        try keys("J")
        // The service's line that calls it, wherever the service has it now.
        let service = try String(contentsOfFile: SDKService.sdk + "/python_shop.py", encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let caller = try #require(service.firstIndex { $0.contains(#"(fail, "key-setting", lambda n: catalog.setting("#) })
        try waitFor("python_shop.py:\(caller + 1) in <lambda>  ◂ e")
        try keys("e")
        let next = try arguments(record)
        #expect(next.count == 2 && next[0].hasPrefix("+") && next[1] == checkout.repo.root + "/python_shop.py", "\(next)")
        try waitUntil("the event again") { $0.contains("Event ") && !$0.contains("EDITOR-IS-RUNNING") }

        // At 80×24 the Chain pane still names the suspect.
        try keys("Escape")
        try resize(cols: 80, rows: 24)
        try keys("1")
        screen = try waitUntil("the suspect and e edit at 80×24") { $0.contains("Ben Okafor") && $0.contains("e edit") }
        #expect(screen.contains("e edit"), "\(screen)")
    }

    @Test func withoutACheckoutTheKeySaysHowToNameOne() throws {
        let (cli, grouping) = try CodeCheckoutCLITests.ingest(.python)
        let key = try #require(grouping.key("key-setting"))
        defer { stop() }
        try open(key, "ERRTRIAGE_STORE='\(cli.store)' ERRTRIAGE_REPO= USER=tester EDITOR=vi '\(CLI.binary)' --now data")
        try waitFor("← pyshop/catalog.py:11 in setting")
        try keys("e")
        try waitFor("No checkout of the code: start with --repo DIR")
    }
}
