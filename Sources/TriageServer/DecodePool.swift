import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The threads that inflate request bodies and decode their records: a pool of their own, run
/// at a lower OS priority than the threads that accept connections and answer requests (the
/// event loops, the cooperative pool, `/healthz`'s thread). A load of large or compressed bodies
/// then takes what CPU those threads leave, and a request beside it — `/healthz`, an honest
/// client's — is answered as soon as it arrives rather than after a scheduler's turn behind them.
/// Nothing is starved: with nothing else to run, the pool takes every core it has.
enum DecodePool {
    /// The nice value of the pool's threads (0 is the process's default, 19 the lowest): low
    /// enough that a waking answering thread preempts them, not so low that decoding stalls
    /// behind other processes of the machine.
    static let niceness: Int32 = 10

    static let pool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: System.coreCount)
        pool.start()
        return pool
    }()

    /// Runs `body` on the pool, at its priority.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await pool.runIfActive {
            lowerPriority()
            return try body()
        }
    }

    /// Lowers the calling thread's priority (only ever lowered: it needs no privilege, and a
    /// thread already there is left as it is).
    static func lowerPriority() {
        #if os(Linux)
        // On Linux a nice value is each thread's own, and PRIO_PROCESS with 0 names the calling
        // thread (setpriority(2), "Bugs"): the rest of the process keeps its priority.
        let thread: id_t = 0
        errno = 0
        let now = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), thread)
        if errno == 0 && now < niceness { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), thread, niceness) }
        #elseif canImport(Darwin)
        _ = pthread_set_qos_class_self_np(QOS_CLASS_UTILITY, 0)
        #endif
    }
}
