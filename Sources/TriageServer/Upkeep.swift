import Foundation
import TriageModel
import TriageStore

/// What `ingest` does after its files, done by a server every hour on a thread of its own: mutes
/// whose condition came due are lifted, and the store's retention (`errtriage retention set 90d`) is
/// applied when due (at most once a day; a prune deletes in short transactions, so intake waits a
/// moment at most).
final class Upkeep: @unchecked Sendable {
    private let condition = NSCondition()
    private var stopping = false
    private var finished = false

    init(location: String, log: @escaping @Sendable (String) -> Void, everySeconds: Double = 3_600) {
        let thread = Thread { [unowned self] in
            while true {
                do {
                    let store = try TriageStore.open(location, for: .writing)
                    let now = Timestamp(millis: Int64(Date().timeIntervalSince1970 * 1000))
                    for key in try store.applyDueMutes(now: now) { log("\(key): muted → open (its mute condition is met)") }
                    if let pruned = try store.applyRetentionIfDue(now: now) {
                        log("retention: \(pruned.eventsDeleted) events and \(pruned.complaintsDeleted) complaints pruned"
                            + (pruned.eventsSince.map { "; raw events kept from \($0.iso8601)" } ?? ""))
                    }
                } catch {
                    log("upkeep: \((error as? StoreError)?.message ?? "\(error)")")
                }
                self.condition.lock()
                if !self.stopping { _ = self.condition.wait(until: Date(timeIntervalSinceNow: everySeconds)) }
                let stop = self.stopping
                self.condition.unlock()
                if stop { break }
            }
            self.condition.lock()
            self.finished = true
            self.condition.broadcast()
            self.condition.unlock()
        }
        thread.name = "errtriage upkeep"
        thread.start()
    }

    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
    }
}
