import NIOPosix
import Presentation
import ServiceLifecycle
import TriageIngest
import TriageModel
import TriageStore

/// What `ingest` does after its files, done by a server at its start and then every hour: mutes
/// whose condition came due are lifted, and the store's retention (`errtriage retention set 90d`)
/// is applied when due (at most once a day; a prune deletes in short transactions, so intake
/// waits a moment at most). The store work runs on the thread pool.
struct UpkeepService: Service {
    let location: String
    let clock: ServeClock
    let log: @Sendable (String) -> Void
    var every: Duration = .seconds(3_600)

    func run() async throws {
        while !Task.isShuttingDownGracefully {
            let now = clock.now()
            let lines: [String]
            do {
                lines = try await NIOThreadPool.singleton.runIfActive { [location] in try Self.upkeep(location: location, now: now) }
            } catch {
                lines = ["upkeep: \((error as? StoreError)?.message ?? "\(error)")"]
            }
            lines.forEach(log)
            try? await cancelWhenGracefulShutdown { [every] in try await Task.sleep(for: every) }
        }
    }

    /// One round: what it did, as log lines.
    static func upkeep(location: String, now: Timestamp) throws -> [String] {
        PruneText.upkeep(try TriageStore.open(location, for: .writing).upkeep(now: now))
    }
}

/// The group commit's writer as a service: at shutdown, after the server has answered what was
/// in flight, what is queued is committed and the writer stops.
struct CommitService: Service {
    let committer: GroupCommitter

    func run() async throws {
        try? await gracefulShutdown()
        _ = try? await NIOThreadPool.singleton.runIfActive { [committer] in committer.close() }
    }
}
