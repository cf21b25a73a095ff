import DashboardCore
import Foundation
import TriageModel

/// Answers the dashboard's store requests: against the store in the program (`StoreEffects`), scripted in tests.
public protocol EffectPerformer: Sendable {
    /// Carries out one request; its result comes back as an action.
    func perform(_ request: StoreRequest, now: Timestamp) -> DashboardAction
    /// The store's revision, raised by every committed write; nil when it cannot be read.
    func revision() -> Int64?
}

/// Carries out the reducer's effects off the input loop, one at a time and in order, so that the
/// dashboard never waits on the store: keys are read and frames drawn (with "loading…") while a
/// query runs or a mark waits for an ingest's transaction. Results wait here for the loop.
final class EffectWorker: @unchecked Sendable {  // `results` and `pending` are guarded by `lock`
    private let effects: any EffectPerformer
    private let queue = DispatchQueue(label: "errtriage.effects")
    private let lock = NSLock()
    private var results: [(DashboardAction, Int64?)] = []
    private var pending = 0

    init(_ effects: any EffectPerformer) { self.effects = effects }

    /// Starts a request; its action (and, after a write, the store's revision) comes out of `take`.
    func submit(_ request: StoreRequest, now: Timestamp) {
        lock.withLock { pending += 1 }
        queue.async { [self] in
            let result = effects.perform(request, now: now)
            let revisionAfter = request.writes ? effects.revision() : nil
            lock.withLock {
                results.append((result, revisionAfter))
                pending -= 1
            }
        }
    }

    /// Whether an effect is still running, or its result is still to be taken: until the loop has
    /// reduced it, keys must wait.
    var isBusy: Bool { lock.withLock { pending > 0 || !results.isEmpty } }

    /// The results finished since the last call, in the order their effects were submitted.
    func take() -> [(DashboardAction, Int64?)] {
        lock.withLock {
            defer { results = [] }
            return results
        }
    }

    /// Waits for every submitted effect to finish.
    func finish() { queue.sync {} }
}
