import Synchronization

/// The bytes of request bodies the server holds at once, as sent and as inflated. Each request
/// reserves what it holds as it reads and inflates, and gives it back when it is answered; a
/// reservation past the budget is refused (the request answered 503), so no mix of concurrent
/// large bodies takes the process past it.
public final class InFlightBudget: Sendable {
    public let limit: Int
    private let held = Mutex(0)

    public init(limit: Int) { self.limit = limit }

    /// Bytes held now.
    public var bytes: Int { held.withLock { $0 } }

    /// Takes `count` more bytes; false (and nothing taken) when that would pass the budget.
    public func reserve(_ count: Int) -> Bool {
        held.withLock { held in
            guard count <= limit - held else { return false }
            held += count
            return true
        }
    }

    /// Gives back bytes taken.
    public func release(_ count: Int) {
        held.withLock { $0 = max(0, $0 - count) }
    }
}

/// What one request holds of the budget, given back once when the request is done.
final class BudgetReservation: Sendable {
    let budget: InFlightBudget
    private let held = Mutex(0)

    init(_ budget: InFlightBudget) { self.budget = budget }

    /// Takes `count` more bytes for this request; false when the budget is spent.
    func reserve(_ count: Int) -> Bool {
        guard budget.reserve(count) else { return false }
        held.withLock { $0 += count }
        return true
    }

    /// Gives back everything this request took.
    func releaseAll() {
        let count = held.withLock { held in
            defer { held = 0 }
            return held
        }
        budget.release(count)
    }
}
