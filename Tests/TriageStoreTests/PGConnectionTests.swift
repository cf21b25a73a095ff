import Foundation
import Testing
import TestSupport
@testable import TriageStore

/// libpq through `PGConnection`, against the run's throwaway PostgreSQL cluster.
@Suite struct PGConnectionTests {
    @Test func parametersTravelApartFromTheSQLAndNullStaysNull() throws {
        let db = try PGConnection(try PostgresCluster.database())
        let hostile = "x'); DROP TABLE t; --\t\n\\ é 漢"
        let rows = try db.execute("SELECT $1::text AS a, $2::text AS b, $3::bigint + 1 AS c", [hostile, nil, "41"])
        #expect(rows.columns == ["a", "b", "c"])
        #expect(rows.rows == [[hostile, nil, "42"]])
    }

    @Test func aFailedStatementNamesTheServerAndKeepsItsSQLState() throws {
        let db = try PGConnection(try PostgresCluster.database())
        try db.execute("CREATE TABLE t (id int PRIMARY KEY)")
        try db.execute("INSERT INTO t VALUES (1)")
        let error = #expect(throws: PGError.self) { try db.execute("INSERT INTO t VALUES (1)") }
        #expect(error?.sqlState == "23505")
        #expect(error?.message.contains(db.target) == true)
        #expect(error?.message.contains("duplicate key") == true)
        #expect(error?.connectionLost == false)
        #expect(db.isConnected)
    }

    @Test func aTransactionThatThrowsLeavesNothingBehind() throws {
        let db = try PGConnection(try PostgresCluster.database())
        try db.execute("CREATE TABLE t (id int)")
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try db.transaction {
                try db.execute("INSERT INTO t VALUES (1)")
                throw Stop()
            }
        }
        try db.transaction { try db.execute("INSERT INTO t VALUES (2)") }
        #expect(try db.execute("SELECT id FROM t").rows == [["2"]])
    }

    @Test func copyCarriesEveryCharacterAndNull() throws {
        let db = try PGConnection(try PostgresCluster.database())
        try db.execute("CREATE TABLE t (n int, s text)")
        let texts: [String?] = ["tab\there", "line\nbreak", "back\\slash", "cr\rlf", nil, "", "\\N", "漢字 🙂"]
        let copied = try db.copyIn("COPY t (n, s) FROM STDIN") { writer in
            for (n, text) in texts.enumerated() { try writer.row([String(n), text]) }
        }
        #expect(copied == texts.count)
        let back = try db.execute("SELECT s FROM t ORDER BY n").rows.map { $0[0] }
        #expect(back == texts)
    }

    @Test func aCopyLargerThanOneChunkArrivesWhole() throws {
        let db = try PGConnection(try PostgresCluster.database())
        try db.execute("CREATE TABLE t (n int, s text)")
        let count = 50_000
        try db.copyIn("COPY t FROM STDIN") { writer in
            for n in 0..<count { try writer.row([String(n), "row \(n)"]) }
        }
        #expect(try db.execute("SELECT count(*), sum(n) FROM t").rows == [[String(count), String(count * (count - 1) / 2)]])
    }

    @Test func aBadRowFailsTheWholeCopy() throws {
        let db = try PGConnection(try PostgresCluster.database())
        try db.execute("CREATE TABLE t (n int)")
        #expect(throws: PGError.self) {
            try db.copyIn("COPY t FROM STDIN") { writer in
                try writer.row(["1"])
                try writer.row(["not a number"])
            }
        }
        #expect(try db.execute("SELECT count(*) FROM t").rows == [["0"]])
        #expect(db.isConnected)
    }

    @Test func aBinaryCopyCarriesEveryTextEveryIntegerAndNull() throws {
        let db = try PGConnection(try PostgresCluster.database())
        try db.execute("CREATE TABLE t (n bigint, s text, i bigint)")
        let texts: [String?] = ["tab\there", "line\nbreak", "back\\slash", "cr\rlf", nil, "", "\\N", "漢字 🙂", String(repeating: "long ", count: 5_000)]
        let integers: [Int64?] = [0, -1, 1, Int64.max, Int64.min, nil, 1 << 40, -(1 << 33), 42]
        var rows = PGBinaryRows()
        for (n, (text, integer)) in zip(texts, integers).enumerated() {
            rows.row(fields: 3)
            rows.integer(n)
            rows.text(text)
            rows.integer(integer)
        }
        #expect(try db.copyIn("COPY t FROM STDIN WITH (FORMAT binary)", binary: rows) == texts.count)
        let back = try db.execute("SELECT s, i::text FROM t ORDER BY n").rows
        #expect(back.map { $0[0] } == texts)
        #expect(back.map { $0[1] } == integers.map { $0.map(String.init) })
    }

    @Test func aBinaryCopyOfTheWrongTypeFailsWhole() throws {
        let db = try PGConnection(try PostgresCluster.database())
        try db.execute("CREATE TABLE t (n int)")
        var rows = PGBinaryRows()
        rows.row(fields: 1)
        rows.integer(1)  // eight bytes where int4 takes four
        #expect(throws: PGError.self) { try db.copyIn("COPY t FROM STDIN WITH (FORMAT binary)", binary: rows) }
        #expect(try db.execute("SELECT count(*) FROM t").rows == [["0"]])
        #expect(db.isConnected)
    }

    @Test func anotherSessionsNotifyArrives() throws {
        let uri = try PostgresCluster.database()
        let listener = try PGConnection(uri)
        let sender = try PGConnection(uri)
        try listener.listen("errtriage changes")
        #expect(try listener.notifications().isEmpty)
        try sender.execute("SELECT pg_notify('errtriage changes', 'revision 7')")
        let received = try listener.notifications(waitingUpTo: 5_000)
        #expect(received == [PGNotification(channel: "errtriage changes", payload: "revision 7", senderPID: sender.backendPID)])
    }

    @Test func anUnknownDatabaseIsOneSentenceNamingTheServer() throws {
        let cluster = try PostgresCluster.shared.get()
        let error = #expect(throws: PGError.self) { try PGConnection(cluster.uri("no_such_database")) }
        #expect(error?.message.hasPrefix("cannot connect to [local]:\(cluster.port)/no_such_database: ") == true)
        #expect(error?.message.contains("\n") == false)
    }

    @Test func aServerThatIsNotThereIsOneSentenceWithoutThePassword() throws {
        let error = #expect(throws: PGError.self) {
            try PGConnection("postgresql://someone:s3cret@/db?host=/nonexistent-errtriage&port=1&connect_timeout=2")
        }
        #expect(error?.message.hasPrefix("cannot connect to [local]:1/db: ") == true)
        #expect(error?.message.contains("s3cret") == false)
        #expect(error?.connectionLost == true)
    }

    @Test func aTerminatedSessionReportsTheConnectionLost() throws {
        let uri = try PostgresCluster.database()
        let victim = try PGConnection(uri)
        let admin = try PGConnection(uri)
        try admin.execute("SELECT pg_terminate_backend($1::int)", [String(victim.backendPID)])
        let error = #expect(throws: PGError.self) { try victim.execute("SELECT 1") }
        #expect(error?.connectionLost == true)
        #expect(error?.message.hasPrefix("lost the connection to ") == true)
    }
}
