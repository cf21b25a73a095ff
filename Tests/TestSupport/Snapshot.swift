import Foundation
import Testing

/// Golden files: text compared with a file, or written to it when `SNAPSHOT_RECORD=1`.
public enum Snapshot {
    /// Whether this run records golden files instead of comparing with them.
    public static var recording: Bool { ProcessInfo.processInfo.environment["SNAPSHOT_RECORD"] == "1" }

    /// Compares `actual` with the file's text (recording it instead when `SNAPSHOT_RECORD=1`); a
    /// difference or a missing file is an issue naming the differing lines.
    public static func expect(_ actual: String, matches file: URL, sourceLocation: SourceLocation = #_sourceLocation) {
        let name = file.lastPathComponent
        if recording {
            do {
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(actual.utf8).write(to: file)
            } catch {
                Issue.record("Cannot record \(name): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("No snapshot \(name); record it with SNAPSHOT_RECORD=1. Actual:\n\(actual)", sourceLocation: sourceLocation)
            return
        }
        if expected != actual {
            Issue.record("Snapshot \(name) differs:\n\(lineDiff(expected, actual))", sourceLocation: sourceLocation)
        }
    }

    /// The differing lines, numbered, expected (-) above actual (+).
    public static func lineDiff(_ expected: String, _ actual: String) -> String {
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var out = ""
        for i in 0..<max(e.count, a.count) {
            let x = i < e.count ? String(e[i]) : "<none>"
            let y = i < a.count ? String(a[i]) : "<none>"
            if x != y { out += "line \(i)\n  - \(x)\n  + \(y)\n" }
        }
        return out
    }
}
