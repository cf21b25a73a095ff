import Synchronization

#if os(Linux)
/// glibc's `mallopt(3)` (declared in malloc.h, which the Glibc module leaves out).
@_silgen_name("mallopt") private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
/// `M_MMAP_THRESHOLD` of malloc.h.
private let mmapThreshold: Int32 = -3
#endif

/// The memory requests hold at once: their bodies as sent and as inflated, and the records
/// decoded from them until they are committed. Each request reserves what it allocates as it
/// reads, inflates and decodes — a buffer's whole capacity, both the old and the new storage
/// while it grows, each record's estimated size (`RecordMemory`) — and gives it back as it frees
/// it and when it is answered; a reservation past the budget is refused (the request answered
/// 503, or 413 when it alone would need more than the whole budget), so no mix of concurrent
/// requests takes the process past it.
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

    /// Makes every buffer of 128 KiB or more its own mapping, given back to the system when
    /// freed. glibc's malloc otherwise raises that threshold each time such a buffer is freed (up
    /// to 32 MiB), and serves later ones from its per-thread arenas, which keep what was freed:
    /// 64 concurrent bodies inflating within a 128 MiB budget then took the process 230 MiB past
    /// its start, against 130 MiB with the threshold fixed. Called once, as `serve` starts.
    public static func returnLargeBuffersToTheSystem() {
        #if os(Linux)
        _ = glibcMallopt(mmapThreshold, 128 << 10)
        #endif
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

    /// Gives back `count` bytes this request took and has freed.
    func release(_ count: Int) {
        let given = held.withLock { held in
            let given = min(held, max(0, count))
            held -= given
            return given
        }
        budget.release(given)
    }

    /// Bytes this request holds now.
    var bytes: Int { held.withLock { $0 } }

    /// Whether `count` more bytes could never be had, however many other requests gave theirs
    /// back: this request alone would pass the whole budget (413, where a full budget is 503).
    func exceedsBudget(_ count: Int) -> Bool { bytes + count > budget.limit }

    /// Gives back everything this request took.
    func releaseAll() {
        let count = held.withLock { held in
            defer { held = 0 }
            return held
        }
        budget.release(count)
    }
}
