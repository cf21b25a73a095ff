import Foundation
import TriageModel
import TriageStore

extension BenchRun {
    /// The same goals on a long tail of issues (issue 45), as real apps see: `tailIssues` issues
    /// over the same days, so that most issues have fewer than 20 events a day — the shape where a
    /// day sample keeps the most, and every batch touches most issues. The day-ordered ingest
    /// against `.import`, the ingest and the store with the default sample against `--keep-whole
    /// none`, and the first screen against DuckDB; each row named "long tail".
    mutating func measureLongTail(issues tailIssues: Int) throws {
        let tailFolder = "\(folder)/tail"
        try FileManager.default.createDirectory(atPath: tailFolder, withIntermediateDirectories: true)
        var tail = BenchRun(errtriage: errtriage, folder: tailFolder, events: events, issues: tailIssues, days: days)
        BenchRun.note("long tail: generating \(events) events of \(tailIssues) issues in day order")
        try tail.generate(.day)
        _ = try tail.measureIngest(.day, goal: 1.5, goalText: "<= 1.5x (lasting goal 1.0x)")
        try tail.measureWholeEvents(eventIDs: false)
        let now = try TriageStore(path: tail.store, readOnly: true).latestEventTime() ?? Timestamp(millis: 0)
        try tail.measureFirstScreen(now: now)
        for row in tail.rows {
            var row = row
            row.what = "long tail (\(tailIssues) issues): " + row.what
            rows.append(row)
        }
        for (name, value) in tail.details { details["tail_" + name] = value }
        try? FileManager.default.removeItem(atPath: tailFolder)
    }
}
