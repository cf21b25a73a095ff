import ChildProcess
import Foundation
import Testing

/// docs/commands.md is the binary's help (issues 36 and 38): `scripts/command-reference` run on the
/// built binary must print it exactly, so a changed option or abstract fails here until `make docs`
/// writes the page again.
@Suite struct DocCommandsTests {
    @Test func commandReferenceIsTheBinarysHelp() throws {
        let script = CLI.packageRoot.appendingPathComponent("scripts/command-reference").path
        let generated = try ChildProcess.run(["python3", script, CLI.binary])
        try #require(generated.status == 0, "scripts/command-reference exited \(generated.status): \(generated.stderr)")
        let page = CLI.packageRoot.appendingPathComponent("docs/commands.md")
        let committed = try String(contentsOf: page, encoding: .utf8)
        guard committed != generated.stdout else { return }
        let wanted = generated.stdout.components(separatedBy: "\n"), have = committed.components(separatedBy: "\n")
        let first = zip(wanted, have).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(wanted.count, have.count)
        Issue.record("""
            docs/commands.md differs from the binary's help at line \(first + 1): run `make docs` to write it again.
            help says: \(first < wanted.count ? wanted[first] : "(end of page)")
            page says: \(first < have.count ? have[first] : "(end of page)")
            """)
    }

    @Test func everyShownCommandHasItsSection() throws {
        let page = try String(contentsOf: CLI.packageRoot.appendingPathComponent("docs/commands.md"), encoding: .utf8)
        for command in ["ingest", "report", "serve", "key add", "key list", "key revoke", "mark", "export"] {
            #expect(page.contains("\n## errtriage \(command)\n"), "docs/commands.md has no section for \(command)")
        }
        // Issue 38: the old table listed ingest and report twice; each command has one section.
        #expect(page.components(separatedBy: "\n## errtriage ingest\n").count == 2)
        #expect(page.components(separatedBy: "\n## errtriage report\n").count == 2)
        #expect(page.contains("--max-connections"), "serve's options are in the reference")
    }
}
