import ChildProcess
import Foundation
import Testing

/// ErrorChainKit's queue across a killed app: chain-probe reports numbered errors to the real
/// `errtriage serve` and is killed with SIGKILL between writing and sending, right after the server
/// committed a batch (before the queue heard), and at random moments; a new launch sends what is
/// left. Every report that `report` returned from arrives exactly once.
@Suite(.serialized) struct ChainQueueKillTests {
    @Test func aKillBetweenWriteAndSendLosesNothing() throws {
        let cli = try CLI()
        let server = try ServeTests.Server(cli)
        defer { _ = server.stop() }
        let dsn = try server.addKey("app").dsn
        let queue = cli.temporary.path("queue")
        let probe = try ChainProbe.start(dsn, queue: queue, ["--count", "50", "--hold"])
        try #require(ChainProbe.wait(probe, for: "written"), "\(probe.stderrSoFar)")
        probe.signal(SIGKILL)
        #expect(probe.wait().status == 128 + SIGKILL)
        #expect(try ChainProbe.stored(cli).isEmpty)
        let drain = try ChainProbe.drain(dsn, queue: queue)
        #expect(drain.status == 0, "\(drain.stderr)")
        #expect(try ChainProbe.stored(cli) == Dictionary(uniqueKeysWithValues: (1...50).map { ($0, 1) }))
    }

    @Test func aKillAfterTheServerCommittedABatchDuplicatesNothing() throws {
        let cli = try CLI()
        let server = try ServeTests.Server(cli)
        defer { _ = server.stop() }
        let dsn = try server.addKey("app").dsn
        let queue = cli.temporary.path("queue")
        // The probe kills itself as the answer to its first batch arrives: the server holds the
        // batch, the queue still holds every record.
        let probe = try ChainProbe.start(dsn, queue: queue, ["--count", "50", "--die-after-send"])
        let result = probe.wait()
        #expect(result.status == 128 + SIGKILL)
        #expect(result.stdout.contains("sent"))
        let committed = try ChainProbe.stored(cli)
        #expect(!committed.isEmpty)
        let drain = try ChainProbe.drain(dsn, queue: queue)
        #expect(drain.status == 0, "\(drain.stderr)")
        #expect(try ChainProbe.stored(cli) == Dictionary(uniqueKeysWithValues: (1...50).map { ($0, 1) }))
    }

    @Test func killsAtRandomMomentsLoseNothingAndDuplicateNothing() throws {
        let cli = try CLI()
        let server = try ServeTests.Server(cli)
        defer { _ = server.stop() }
        let dsn = try server.addKey("app").dsn
        let queue = cli.temporary.path("queue")
        var generator = SystemRandomNumberGenerator()
        var reported: [Int] = []
        for round in 0..<5 {
            // Reports while it sends; killed anywhere in that, once it has begun (on a busy
            // machine its start alone can take longer than the moment drawn).
            let probe = try ChainProbe.start(dsn, queue: queue, ["--count", "60", "--start", String(round * 1000), "--interval-ms", "1"])
            let deadline = ChildProcess.clock() + 30
            while ChainProbe.reported(probe.stdoutSoFar).isEmpty, probe.isRunning, ChildProcess.clock() < deadline {
                Thread.sleep(forTimeInterval: 0.005)
            }
            Thread.sleep(forTimeInterval: Double.random(in: 0.02...0.2, using: &generator))
            probe.signal(SIGKILL)
            reported += ChainProbe.reported(probe.wait().stdout)
        }
        let drain = try ChainProbe.drain(dsn, queue: queue)
        #expect(drain.status == 0, "\(drain.stderr)")
        let stored = try ChainProbe.stored(cli)
        #expect(!reported.isEmpty)
        #expect(reported.filter { stored[$0] == nil }.isEmpty, "lost")
        #expect(stored.filter { $0.value > 1 }.isEmpty, "duplicated")
    }
}
