import Foundation
import Testing

/// Malformed input: every bad line named with its file, line and reason; every good line kept.
@Suite struct BadInputTests {
    static let good = #"{"event_id":"g%d","timestamp":"2026-11-01T10:00:00Z","codes":"US14-LO43-AP7-NE8"}"#

    func goodLine(_ n: Int) -> [UInt8] { Array(String(format: BadInputTests.good, n).utf8) }

    /// Writes good lines around each bad one and checks the exact message and the count kept.
    func check(_ bad: [UInt8], reason: String, sourceArgs: [String] = []) throws {
        let cli = try CLI()
        var bytes = goodLine(1) + [0x0A] + bad + [0x0A] + goodLine(2) + [0x0A]
        if bad.isEmpty { bytes = goodLine(1) + [0x0A] + goodLine(2) + [0x0A] }
        let path = cli.folder.appendingPathComponent("in.ndjson").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let result = try cli.run(["ingest"] + sourceArgs + [path])
        #expect(result.status == 2, "\(reason)")
        #expect(result.stderr.hasPrefix("\(path):2: \(reason)"), "got: \(result.stderr)")
        #expect(result.stdout.hasPrefix("ingest: 2 events added"))
        let rejects = try Data(contentsOf: URL(fileURLWithPath: cli.rejects))
        #expect(Array(rejects) == (bad.count > (1 << 20) ? Array(bad.prefix(256)) : bad) + [0x0A])
    }

    @Test func truncatedJSON() throws {
        try check(Array(#"{"event_id":"x","timestamp":"2026-11-01T10:00:00Z","codes":"US1"#.utf8), reason: "not valid JSON: unexpected end of line (unterminated string)")
    }

    @Test func notJSON() throws { try check(Array("hello world".utf8), reason: "not valid JSON: not JSON at byte 1") }

    @Test func invalidUTF8() throws {
        try check(Array(#"{"event_id":"x"#.utf8) + [0xC3, 0x28] + Array(#"","timestamp":1}"#.utf8), reason: "not valid JSON: invalid UTF-8")
    }

    @Test func nulByte() throws {
        try check(Array(#"{"event_id":"x"#.utf8) + [0x00] + Array(#""}"#.utf8), reason: "not valid JSON: NUL byte")
    }

    @Test func missingTimestamp() throws {
        try check(Array(#"{"event_id":"x","codes":"US14-LO43-AP7-NE8"}"#.utf8), reason: "missing timestamp")
    }

    @Test func missingChain() throws {
        try check(Array(#"{"event_id":"x","timestamp":"2026-11-01T10:00:00Z"}"#.utf8), reason: "missing chain")
    }

    @Test func wrongTypes() throws {
        try check(Array(#"{"event_id":"x","timestamp":"2026-11-01T10:00:00Z","codes":"US14-LO43-AP7-NE8","user_id":{"a":1}}"#.utf8),
                  reason: "user_id must be text, found an object")
    }

    @Test func anArrayInsteadOfAnObject() throws {
        try check(Array("[1,2,3]".utf8), reason: "expected a JSON object, found an array")
    }

    @Test func aLineOverOneMebibyte() throws {
        try check(Array(#"{"event_id":"x","message":""#.utf8) + [UInt8](repeating: 0x61, count: 1 << 21) + Array(#""}"#.utf8),
                  reason: "line of \((1 << 21) + 29) bytes is over the limit of 1048576 bytes for one record")
    }

    @Test func mismatchedChainLengths() throws {
        try check(Array(#"{"event_id":"x","timestamp":"2026-11-01T10:00:00Z","codes":"US14-LO43","chain":"UserError.a - LogicError.b - APIError.c"}"#.utf8),
                  reason: "chain: the short key has 2 links but the full chain has 3")
    }

    @Test func deeplyNestedJSON() throws {
        try check([UInt8](repeating: UInt8(ascii: "["), count: 100_000), reason: "not valid JSON: nesting deeper than 128")
    }

    @Test func anEmptyFileADirectoryAndABinaryFileAreClearErrors() throws {
        let cli = try CLI()
        let empty = try cli.file("empty.ndjson", "")
        #expect(try cli.run(["ingest", empty]).stderr == "errtriage: \(empty): the file is empty\n")
        #expect(try cli.run(["ingest", cli.folder.path]).stderr == "errtriage: \(cli.folder.path): is a directory, not a file\n")
        let binary = cli.folder.appendingPathComponent("x.bin").path
        try Data((0..<4096).map { UInt8($0 % 7) }).write(to: URL(fileURLWithPath: binary))
        let result = try cli.run(["ingest", binary])
        #expect(result.status == 2)
        #expect(result.stderr == "errtriage: \(binary): looks like a binary file, not NDJSON or CSV text\n")
    }

    @Test func aCSVWithAnUnclosedQuoteKeepsTheRecordsBeforeIt() throws {
        let cli = try CLI()
        let path = try cli.file("desk.csv", "id,created_at,description\n1,2026-11-01,\"fine, US14-LO43-AP7-NE8\"\n2,2026-11-02,\"never closed\n3,2026-11-03,lost\n")
        let result = try cli.run(["ingest", path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("desk.csv:3: a quoted field is never closed"))
        #expect(result.stdout.contains("1 complaints added"))
    }

    @Test func aCSVRowWithABadDateIsRejectedWithItsLine() throws {
        let cli = try CLI()
        let path = try cli.file("desk.csv", "Ticket ID,Created At,Subject\nA,yesterday,\"multi\nline\"\nB,2026-11-02 10:00:00,ok\n")
        let result = try cli.run(["ingest", path])
        #expect(result.stderr.contains("desk.csv:2: created-at 'yesterday' is not a time"))
        #expect(result.stdout.contains("1 complaints added"))
    }
}
