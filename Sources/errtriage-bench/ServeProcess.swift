import ChildProcess
import Foundation
import LoopbackHTTP
#if canImport(Glibc)
import Glibc
#endif

/// One `errtriage serve` on 127.0.0.1 and a free port, its log in a file, for the serve bench:
/// started, read (port, peak memory, CPU per thread, /metrics), and stopped with SIGTERM, or
/// killed with SIGKILL by the kill test. A watcher kills it should the bench itself die first.
final class ServeProcess {
    let process: ChildProcess
    let port: Int
    let logPath: String
    var pid: pid_t { process.pid }

    init(errtriage: String, store: String, log: String, options: [String] = []) throws {
        logPath = log
        try? FileManager.default.removeItem(atPath: log)
        // exec: the shell's pid becomes the server's, so its /proc entry and the kill are the server's.
        let command = "exec \(Self.quote(errtriage)) serve --store \(Self.quote(store)) --listen 127.0.0.1:0 --rate-limit off "
            + "--log-every 3600 \(options.map(Self.quote).joined(separator: " ")) 2>>\(Self.quote(log))"
        let child = try ChildProcess(["/bin/sh", "-c", command], output: .discard)
        Self.killAtExit(server: child.pid, marker: store)
        let started = ChildProcess.clock()
        var found: Int?
        while found == nil {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: "listening on http://127.0.0.1:") {
                found = Int(text[range.upperBound...].prefix { $0.isNumber })
                break
            }
            guard child.isRunning else {
                throw BenchFailure("errtriage serve exited before listening: \(text.trimmingCharacters(in: .whitespacesAndNewlines))")
            }
            guard ChildProcess.clock() - started < 30 else {
                child.signal(SIGKILL)
                throw BenchFailure("errtriage serve did not listen within 30 s")
            }
            usleep(20_000)
        }
        port = found!
        process = child
    }

    deinit {
        if process.isRunning {
            process.signal(SIGKILL)
            process.wait()
        }
    }

    /// SIGTERM (stop accepting, commit, exit 0), and how it exited.
    @discardableResult
    func stop() -> Int32 {
        guard process.isRunning else { return process.wait().status }
        process.signal(SIGTERM)
        let started = ChildProcess.clock()
        while process.isRunning, ChildProcess.clock() - started < 30 { usleep(10_000) }
        if process.isRunning { process.signal(SIGKILL) }
        return process.wait().status
    }

    func kill9() {
        process.signal(SIGKILL)
        process.wait()
    }

    /// A field of /proc/PID/status in KiB (VmHWM: the peak resident set).
    func status(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }

    /// CPU seconds of each thread so far, by `name[tid]`.
    func threadCPU() -> [String: Double] { Self.threadCPU(pid: pid) }

    static func threadCPU(pid: pid_t) -> [String: Double] {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        var byName: [String: Double] = [:]
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for tid in tasks {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let name = (try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? tid
            // After ")": state is field 3; utime and stime are fields 14 and 15.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { continue }
            // Threads of one name are told apart by their id (the pool's threads share a name).
            byName["\(name)[\(tid)]", default: 0] += (user + system) / ticks
        }
        return byName
    }

    /// A sample of the server's /metrics (Prometheus text), by metric line name.
    func metrics() -> [String: Double] {
        let port = port
        let text = ServeLoad.blocking { () -> String in
            (try? await LoopbackConnection.send(LoopbackRequest(.GET, "/metrics"), port: port, timeout: 5))?.text ?? ""
        }
        var values: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            if parts.count >= 2, let value = Double(parts[1]) { values[String(parts[0])] = value }
        }
        return values
    }

    static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Kills the server should this process end first (a crash of the bench leaves no server).
    private static func killAtExit(server: pid_t, marker: String) {
        let script = """
            while kill -0 \(getpid()) 2>/dev/null && kill -0 \(server) 2>/dev/null; do sleep 0.5; done
            if kill -0 \(server) 2>/dev/null && tr '\\0' ' ' < /proc/\(server)/cmdline 2>/dev/null | grep -qF -- \(quote(marker)); then
              kill -9 \(server)
            fi
            """
        watchers.append(try? ChildProcess(["/bin/sh", "-c", script], output: .discard))
    }

    nonisolated(unsafe) private static var watchers: [ChildProcess?] = []
}
