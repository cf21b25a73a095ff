import Foundation
import TriageModel

/// Scrubs and compresses the payloads the writer keeps, on a thread of its own, while the writer
/// goes on with the transaction's rows: the writer hands over the events it decided to keep and
/// takes the finished frames back before it commits (`collect`). One press per writer.
final class PayloadPress: @unchecked Sendable {  // every mutable member is guarded by `condition`
    /// A payload to press, with the dictionary of its source (nil: none trained yet).
    struct Job {
        var event: IngestWriter.Landed
        var roles: KeptRoles
        var dictionary: ZstdDictionary?
    }

    /// A pressed payload: the frame, its size before compression, and, where no dictionary was
    /// used, the scrubbed payload itself (what a dictionary is trained on).
    struct Pressed {
        var job: Job
        var frame: [UInt8]
        var bytes: Int
        var clean: [UInt8]?
    }

    private let condition = NSCondition()
    private var queue: [Job] = []
    private var done: [Pressed] = []
    private var working = 0
    private var stopping = false
    private var started = false

    /// Queues payloads; the thread starts with the first.
    func submit(_ jobs: [Job]) {
        guard !jobs.isEmpty else { return }
        condition.lock()
        defer { condition.unlock() }
        queue += jobs
        if !started {
            started = true
            let thread = Thread { [weak self] in self?.run() }
            thread.name = "errtriage payload press"
            thread.start()
        }
        condition.broadcast()
    }

    /// Waits for everything submitted and returns it, in the order it was submitted.
    func collect() -> [Pressed] {
        condition.lock()
        defer { condition.unlock() }
        while !queue.isEmpty || working > 0 { condition.wait() }
        defer { done = [] }
        return done
    }

    /// What is pressed so far, without waiting for the rest.
    func take() -> [Pressed] {
        condition.lock()
        defer { condition.unlock() }
        defer { done = [] }
        return done
    }

    /// Drops what waits and what was pressed (a transaction rolled back).
    func discard() { _ = collect() }

    /// Ends the thread once it has nothing left.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    private func run() {
        let compressor = PayloadZstd.Compressor()
        condition.lock()
        while true {
            while queue.isEmpty && !stopping { condition.wait() }
            if queue.isEmpty { break }
            let jobs = queue
            queue = []
            working = jobs.count
            condition.unlock()
            let pressed = jobs.map { job -> Pressed in
                let clean = PayloadScrubber.scrub(job.event.payload) ?? PayloadPress.unreadablePayload
                return Pressed(job: job, frame: compressor.compress(clean, dictionary: job.dictionary), bytes: clean.count,
                               clean: job.dictionary == nil ? clean : nil)
            }
            condition.lock()
            done += pressed
            working = 0
            condition.broadcast()
        }
        condition.unlock()
    }

    /// What a kept event holds in place of a payload whose secrets cannot be found (not one JSON
    /// value; the importers hand on only JSON, so this is for what they may hand on one day).
    static let unreadablePayload = Array(#"{"errtriage":"this event's payload was not one JSON value: its secrets could not be found, so it is not kept"}"#.utf8)
}
