import NIOPosix
import ServiceLifecycle
import TriageIngest
import TriageModel
import TriageStore

/// The server's log line every `interval` (what was accepted and refused, the queue, the
/// commits), and the minute's refusals recorded in the store for the dashboards on it (their
/// status line); a quiet minute after one that refused clears them once.
struct MinuteLog: Service {
    let stats: IntakeStats
    let committer: GroupCommitter
    let reader: ReadingStore
    let clock: ServeClock
    let interval: Duration
    let log: @Sendable (String) -> Void

    func run() async throws {
        var recorded = false
        while !Task.isShuttingDownGracefully {
            do { try await cancelWhenGracefulShutdown { [interval] in try await Task.sleep(for: interval) } } catch { break }
            let minute = stats.takeMinute()
            log(IntakeStats.line(minute, queueDepth: committer.depth))
            let rejected = minute.rejectedByName
            guard !rejected.isEmpty || recorded else { continue }
            let row = IntakeRejections(at: clock.now(), byReason: rejected)
            do {
                try await NIOThreadPool.singleton.runIfActive { [reader] in try reader.use { try $0.recordIntakeRejections(row) } }
                recorded = !rejected.isEmpty
            } catch {
                log("cannot record the minute's refusals in the store: \((error as? StoreError)?.message ?? "\(error)")")
            }
        }
    }
}
