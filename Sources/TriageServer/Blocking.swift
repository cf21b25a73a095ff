import Foundation

/// Runs `body` on the concurrency pool and waits for it on this thread: for callers that are not
/// async (a command's `run`, the alerts' thread). Never call it on the pool itself.
func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = BlockingOutcome<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do { outcome.result = .success(try await body()) } catch { outcome.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try outcome.result!.get()
}

/// Where `blocking`'s task leaves its result; read only after the semaphore says it is there.
private final class BlockingOutcome<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
