import Foundation
import Testing

/// Every text command's output, for every field a store holds, when that field holds escape
/// sequences, C1 controls and bidi characters from the network: nothing live reaches a terminal
/// (no byte below 0x20 but a line break or tab, no 0x7F–0x9F, no bidi or format character), and
/// the JSON outputs keep the text exactly. `HostileTextTests` covers the chain, the message and
/// the dashboard; this covers versions, environment, device, OS, network, tags, user, project,
/// notes, assignee, rules, views and alerts (project and key names are refused unless plain), through show, alerts, history, releases, release, ticket,
/// the meeting's agenda, the minutes, key list and export to a terminal.
@Suite(.serialized) struct HostileOutputsTests {
    static let hostile = HostileTextTests.hostile
    static let now = HostileTextTests.now
    /// A text that is one token in a shell's argument and a version's text: no quote, no dash.
    static var field: String { hostile.filter { $0 != "'" && $0 != "\"" && $0 != "-" } }

    func store() throws -> CLI {
        let cli = try CLI()
        var lines: [String] = []
        for i in 0..<8 {
            // The first four in 1.0, resolved there; the rest in a hostile version: a regression.
            let version = i < 4 ? "1.0" : "2.0" + Self.field
            lines.append(HostileTextTests.json([
                "event_id": "o\(i)", "timestamp": i < 4 ? "2026-11-1\(2 + i)T10:00:00Z" : "2026-11-20T1\(i):00:00Z", "codes": "US14-LO43",
                "app": ["version": version, "build": Self.hostile], "environment": Self.hostile,
                "device": ["model": Self.hostile], "os": ["name": Self.hostile, "version": Self.hostile],
                "network": Self.hostile, "user_id": Self.hostile + "\(i)", "keys": [Self.hostile: Self.hostile, "shard": Self.hostile],
                "message": "login failed",
            ] as [String: Any]))
        }
        let early = try cli.file("early.ndjson", lines.prefix(4).joined(separator: "\n") + "\n")
        let late = try cli.file("late.ndjson", lines.dropFirst(4).joined(separator: "\n") + "\n")
        // Project and key names are refused unless letters, digits, '.', '_' and '-': they cannot be hostile.
        #expect(try cli.run(["ingest", early, "--project", Self.field]).status == 1)
        #expect(try cli.run(["ingest", early, "--project", "shop"]).status == 0)
        #expect(try cli.run(["mark", "US14-LO43", "resolved", "--in-version", "1.0", "--note", Self.hostile, "--by", Self.hostile,
                             "--now", "2026-11-16T00:00:00Z"]).status == 0)
        let ingest = try cli.run(["ingest", late, "--project", "shop"])
        #expect(ingest.status == 0, "\(ingest.stderr)")
        #expect(try cli.run(["assign", "US14-LO43", Self.hostile]).status == 0)
        #expect(try cli.run(["owner", "add", "key:US14", Self.hostile]).status == 0)
        #expect(try cli.run(["view", "save", Self.field, "--query", "key:US14"]).status == 0)
        #expect(try cli.run(["rule", "add", "key:US14*", "--as", Self.field, "--by", Self.hostile]).status == 0)
        #expect(try cli.run(["alert", "add", Self.field, "--query", "key:US14", "--events", "1", "--within", "7d"]).status == 0)
        #expect(try cli.run(["key", "add", Self.field]).status == 1)
        let key = try cli.run(["key", "add", "shop", "--url", "http://127.0.0.1:8000"])
        #expect(key.status == 0, "\(key.stderr)")
        return cli
    }

    @Test func everyTextCommandShowsEveryStoredFieldInert() throws {
        let cli = try store()
        let at = ["--now", Self.now]
        let commands: [[String]] = [
            ["show", "US14-LO43", "--window", "all"] + at,
            ["alert", "run", "--dry-run"] + at, ["alert", "list"], ["history", "US14-LO43"],
            ["release", "list"], ["release", "list", "--format", "markdown"], ["release", "latest"] + at,
            ["ticket", "US14-LO43", "--window", "all"] + at, ["ticket", "US14-LO43", "--window", "all", "--format", "jira", "--with-users"] + at,
            ["ticket", "US14-LO43", "--window", "all", "--format", "github"] + at,
            ["meeting", "--print", "--window", "30d"] + at, ["report", "--window", "30d", "--format", "markdown"] + at,
            ["report", "--window", "all", "--query", "project:shop"] + at,
            ["key", "list"], ["view", "list"], ["owner", "list"], ["rule", "list"], ["rule", "add", "key:US14*", "--as", Self.field, "--dry-run"],
            ["check"],
        ]
        for command in commands {
            let result = try cli.run(command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(Self.live(result.stdout).isEmpty, "\(command) printed live characters: \(Self.live(result.stdout))")
            // The agenda, the keys and check name none of the hostile fields.
            if !["meeting", "key", "check"].contains(command[0]) {
                #expect(result.stdout.contains("^[") || result.stdout.contains("^\\["), "\(command) does not show ESC visibly: \(result.stdout)")
            }
            #expect(Self.live(result.stderr).isEmpty, "\(command)'s standard error: \(result.stderr)")
        }
        // JSON keeps the values exactly, with what a terminal would act on escaped.
        for command in [["show", "US14-LO43", "--window", "all", "--format", "json"] + at, ["history", "US14-LO43", "--format", "json"],
                        ["alert", "run", "--dry-run", "--format", "json"] + at] {
            let result = try cli.run(command)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(Self.live(result.stdout).isEmpty, "\(command) printed live characters: \(Self.live(result.stdout))")
            let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
            #expect(HostileTextTests.json(parsed).contains(HostileTextTests.json([Self.field]).dropFirst(2).dropLast(2)), "\(command) lost the text")
        }
    }

    /// The characters of `text` a terminal would act on, as hex: `HostileTextTests.live` but the
    /// tab, which an output may carry as it is (it moves the cursor, nothing more).
    static func live(_ text: String) -> [String] {
        text.unicodeScalars.filter { s in s != "\t" && HostileTextTests.live.contains { $0.contains(s.value) } }.map { String($0.value, radix: 16) }
    }

    /// `export` to a terminal shows its CSV and NDJSON inert; to a pipe it stays exact.
    @Test func exportToATerminalIsInertAndToAPipeExact() throws {
        let cli = try store()
        for format in ["csv", "ndjson"] {
            let command = "ERRTRIAGE_STORE='\(cli.store)' '\(CLI.binary)' export --window all --now \(Self.now) --format \(format)"
            let terminal = try tool("script", "-qec", command, "/dev/null")
            #expect(terminal.status == 0, "\(terminal.stderr)")
            // `script` turns the output's line breaks into CR LF: those are the terminal's own.
            let shown = terminal.stdout.replacingOccurrences(of: "\r\n", with: "\n")
            #expect(Self.live(shown).isEmpty, "export --format \(format) to a terminal: \(Self.live(shown))")
            #expect(shown.contains(format == "csv" ? "^[[31mRED" : "\\u001b[31mRED"), "export --format \(format) to a terminal does not show ESC visibly")
            let piped = try cli.run(["export", "--window", "all", "--now", Self.now, "--format", format])
            #expect(piped.stdout.contains(format == "csv" ? Self.hostile.replacingOccurrences(of: "\"", with: "\"\"") : "\\u001b[31mRED"),
                    "export --format \(format) to a pipe changed the data")
        }
    }
}
