#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChildProcess
import Testing

/// The process groups of children: a throwaway PostgreSQL's watcher (which stops the server and
/// removes its folder when the tests end) starts in a group of its own, so that a kill of the
/// tests' whole group, as a job runner stops a job, does not take the watcher with it.
@Suite struct ChildProcessTests {
    @Test func aChildInItsOwnGroupLeadsItAndAnotherSharesTheCallers() throws {
        let own = try ChildProcess(["sleep", "30"], output: .discard, ownProcessGroup: true)
        let shared = try ChildProcess(["sleep", "30"], output: .discard)
        defer {
            own.signal(SIGKILL)
            shared.signal(SIGKILL)
        }
        #expect(getpgid(own.pid) == own.pid)
        #expect(getpgid(own.pid) != getpgrp())
        #expect(getpgid(shared.pid) == getpgrp())

        // A signal to the child's group reaches it, and the caller's group is not that group.
        #expect(kill(-own.pid, SIGKILL) == 0)
        #expect(own.wait().status == 128 + SIGKILL)
    }
}
