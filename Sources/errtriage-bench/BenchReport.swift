import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TriageModel

/// One measured row: a value next to its baseline and goal.
struct BenchRow {
    var what: String
    var value: String
    var baseline: String
    var ratio: String
    var goal: String
    var holds: Bool?
}

extension BenchRun {
    static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    static func seconds(_ s: Double) -> String { String(format: "%.2f s", s) }
    static func millis(_ s: Double) -> String { String(format: "%.2f ms", s * 1000) }
    static func times(_ r: Double) -> String { String(format: "%.2fx", r) }
    static func megabytes(_ b: Int64) -> String { String(format: "%.1f MB", Double(b) / 1_048_576) }
    static func size(_ path: String) -> Int64 {
        ["", "-wal"].reduce(0) { sum, suffix in
            sum + ((try? FileManager.default.attributesOfItem(atPath: path + suffix)[.size] as? Int64) ?? 0)
        }
    }


    func table(serveOnly: Bool = false, appOnly: Bool = false) -> String {
        let header = BenchRow(what: "what", value: "errtriage", baseline: "baseline (same run)", ratio: "ratio", goal: "goal", holds: nil)
        let all = [header] + rows
        let widths = [all.map(\.what.count).max()!, all.map(\.value.count).max()!, all.map(\.baseline.count).max()!,
                      all.map(\.ratio.count).max()!, all.map(\.goal.count).max()!]
        func pad(_ s: String, _ w: Int) -> String { s + String(repeating: " ", count: max(0, w - s.count)) }
        let run = serveOnly ? String(format: "serve only, %.0f s per measurement", serve.seconds)
            : appOnly ? "the app side (ErrorChainKit) only" : "\(events) events, \(issues) issues, \(days) days"
        var lines = ["errtriage bench: \(run); \(Self.machine())"]
        for (n, row) in all.enumerated() {
            // A row without a goal (a figure for comparison) has no verdict.
            let verdict = row.holds.map { $0 ? "holds" : "MISSES" } ?? (n == 0 ? "verdict" : "-")
            lines.append([pad(row.what, widths[0]), pad(row.value, widths[1]), pad(row.baseline, widths[2]),
                          pad(row.ratio, widths[3]), pad(row.goal, widths[4]), verdict].joined(separator: "  "))
        }
        return lines.joined(separator: "\n")
    }

    func json() -> String {
        var out = "{\"events\":\(events),\"issues\":\(issues),\"days\":\(days),\"machine\":"
        JSONString.write(Self.machine(), to: &out)
        out += ",\"date\":"
        JSONString.write(Timestamp(millis: Int64(Date().timeIntervalSince1970 * 1000)).iso8601, to: &out)
        out += ",\"rows\":["
        for (i, row) in rows.enumerated() {
            if i > 0 { out += "," }
            out += "{"
            for (j, (name, value)) in [("what", row.what), ("value", row.value), ("baseline", row.baseline),
                                       ("ratio", row.ratio), ("goal", row.goal)].enumerated() {
                if j > 0 { out += "," }
                JSONString.write(name, to: &out)
                out += ":"
                JSONString.write(value, to: &out)
            }
            out += ",\"holds\":\(row.holds ?? false)}"
        }
        out += "],\"figures\":{"
        // JSON has no NaN: a figure that could not be taken is left out.
        out += details.filter { $0.value.isFinite }.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\(String(format: "%.3f", $0.value))" }.joined(separator: ",")
        return out + "}}\n"
    }

    static func machine() -> String {
        var name = utsname()
        uname(&name)
        let machine = withUnsafeBytes(of: &name.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(ProcessInfo.processInfo.physicalMemory >> 30) GiB, \(machine) Linux \(release)"
    }
}
