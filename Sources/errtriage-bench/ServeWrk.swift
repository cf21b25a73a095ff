import ChildProcess
import Foundation

/// The intake load through `wrk` (C, one event loop per thread) with a Lua body, the load
/// generator the issue names: it costs the two shared cores far less per request than our own
/// generator (ServeLoad, on `LoopbackConnection`), so the figure says more of the server and less of its
/// client. Each request carries one of the envelopes of `ServeEnvelopes`, with its own event id
/// (the bench's nonce, the run, the wrk thread, a counter), so that every acknowledged event can be found in
/// the store afterwards. Bounded by `-d`; loopback only.
struct ServeWrk {
    let path: String
    let script: String

    /// nil when `wrk` is not installed (`make setup` installs it).
    init?(envelopes: ServeEnvelopes, key: String, folder: String) {
        let found = ["/usr/bin/wrk", "/usr/local/bin/wrk", "/opt/homebrew/bin/wrk"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let found else { return nil }
        path = found
        script = "\(folder)/serve-wrk.lua"
        let nonce = String(envelopes.nonce >> 32, radix: 16)
        let padded = String(repeating: "0", count: 8 - nonce.count) + nonce
        var lua = "local bodies = {\n"
        for template in envelopes.templates {
            lua += "[=====[" + String(decoding: template.bytes, as: UTF8.self) + "]=====],\n"
        }
        lua += """
            }
            local nonce = "\(padded)"
            local counter = 0
            wrk.method = "POST"
            wrk.headers["Content-Type"] = "application/x-sentry-envelope"
            wrk.headers["X-Sentry-Auth"] = "Sentry sentry_key=\(key), sentry_version=7, sentry_client=errtriage-bench-wrk/1"
            local threads = {}
            function setup(thread)
              thread:set("tid", #threads)
              table.insert(threads, thread)
            end
            function init(args)
              run = tonumber(args[1]) or 0
              acknowledged = 0
              other = 0
            end
            function request()
              counter = counter + 1
              local id = string.format("%s%02x%06x%016x", nonce, run, tid, counter)
              local body = string.gsub(bodies[(counter % #bodies) + 1], "\(ServeEnvelopes.placeholder)", id)
              return wrk.format(nil, nil, nil, body)
            end
            function response(status, headers, body)
              if status == 200 then acknowledged = acknowledged + 1 else other = other + 1 end
            end
            function done(summary, latency, requests)
              local a, o = 0, 0
              for _, t in ipairs(threads) do
                a = a + t:get("acknowledged")
                o = o + t:get("other")
              end
              io.write(string.format("wrk-result acknowledged=%d other=%d errors=%d micros=%d\\n", a, o,
                summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout, summary.duration))
            end

            """
        guard (try? lua.write(toFile: script, atomically: true, encoding: .utf8)) != nil else { return nil }
    }

    struct Outcome {
        var acknowledged = 0
        var other = 0
        var errors = 0
        /// How long the run lasted, as wrk measured it.
        var seconds = 0.0
        var output = ""
    }

    /// One closed-loop run of `seconds` over `connections` keep-alive connections on `threads`
    /// threads; `run` (0–255) keeps its event ids apart from the other runs'.
    func run(_ run: Int, port: Int, projectID: Int, seconds: Double, connections: Int, threads: Int) throws -> Outcome {
        let url = "http://127.0.0.1:\(port)/api/\(projectID)/envelope/"
        let result = try ChildProcess.run([path, "-t", String(threads), "-c", String(connections), "-d", "\(max(1, Int(seconds.rounded())))s",
                                           "--timeout", "10s", "-s", script, url, "--", String(run % 256)])
        guard result.status == 0, let line = result.stdout.split(separator: "\n").first(where: { $0.hasPrefix("wrk-result ") }) else {
            throw BenchFailure("wrk failed (exit \(result.status)): \(result.stdout)\(result.stderr)")
        }
        var outcome = Outcome(output: result.stdout)
        for pair in line.split(separator: " ").dropFirst() {
            let parts = pair.split(separator: "=")
            guard parts.count == 2, let n = Int(parts[1]) else { continue }
            switch parts[0] {
            case "acknowledged": outcome.acknowledged = n
            case "other": outcome.other = n
            case "errors": outcome.errors = n
            case "micros": outcome.seconds = Double(n) / 1e6
            default: break
            }
        }
        return outcome
    }
}
