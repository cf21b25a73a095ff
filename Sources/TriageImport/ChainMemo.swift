import Foundation
import TriageModel

/// Chains already made, by what they were made from: a file repeats a few hundred chains millions
/// of times, and making one (zipping a short key with its full form) costs more than the rest of
/// a line. At most `capacity` are kept; past it the memo starts over, so memory stays bounded.
/// Locked, so that a decoder holding one may be shared; one reader at a time uses it in practice.
final class ChainMemo<Key: Hashable>: @unchecked Sendable {  // `known` is guarded by `lock`
    private var known: [Key: ErrorChain] = [:]
    private let lock = NSLock()
    static var capacity: Int { 4096 }

    /// The chain remembered for `key`, else the one `make` gives (remembered when `keep` says so).
    func chain(for key: Key, keep: (ErrorChain) -> Bool = { _ in true },
               make: () throws(LineRejection) -> ErrorChain) throws(LineRejection) -> ErrorChain {
        lock.lock()
        let found = known[key]
        lock.unlock()
        if let found { return found }
        let made = try make()
        guard keep(made) else { return made }
        lock.lock()
        if known.count >= Self.capacity { known.removeAll(keepingCapacity: true) }
        known[key] = made
        lock.unlock()
        return made
    }
}
