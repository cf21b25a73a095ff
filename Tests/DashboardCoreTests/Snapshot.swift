import DashboardCore
import Foundation
import Testing

/// Compares a screen, as text, with `Snapshots/NAME.txt` next to this file; `SNAPSHOT_RECORD=1` writes it instead.
func expectSnapshot(_ buffer: ScreenBuffer, _ name: String, filePath: String = #filePath,
                    sourceLocation: SourceLocation = #_sourceLocation) {
    let actual = snapshotText(buffer)
    let directory = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")
    let file = directory.appendingPathComponent(name + ".txt")
    if ProcessInfo.processInfo.environment["SNAPSHOT_RECORD"] == "1" {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? actual.write(to: file, atomically: true, encoding: .utf8)
        return
    }
    guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
        Issue.record("No snapshot \(name).txt; record it with SNAPSHOT_RECORD=1. Actual:\n\(actual)", sourceLocation: sourceLocation)
        return
    }
    if expected != actual {
        Issue.record("Snapshot \(name) differs:\n\(lineDiff(expected, actual))", sourceLocation: sourceLocation)
    }
}

/// The screen with a ruler of its size, each row between bars so that trailing blanks stay visible.
func snapshotText(_ buffer: ScreenBuffer) -> String {
    var text = "\(buffer.size.cols)x\(buffer.size.rows)\n"
    for line in buffer.lines { text += "|" + line + "|\n" }
    return text
}

/// The differing lines, numbered, expected (-) above actual (+).
func lineDiff(_ expected: String, _ actual: String) -> String {
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
