import Foundation
import SampleData
import TriageImport
import TriageModel
@testable import TriageStore

/// A fresh store in a temporary folder, removed when the fixture goes.
final class StoreFixture {
    let folder: URL
    let path: String
    let store: TriageStore

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("errtriage-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("store.sqlite").path
        store = try TriageStore(path: path)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    /// Decodes native lines and writes them in batches, as `ingest` does.
    @discardableResult
    func ingest(lines: [String], batch: Int = 500) throws -> IngestCounts {
        let writer = try IngestWriter(store: store)
        var total = IngestCounts()
        var events: [ErrorEvent] = []
        var complaints: [Complaint] = []
        func flush() throws {
            total += try writer.write(events: events, complaints: complaints)
            events = []
            complaints = []
        }
        for line in lines {
            switch try NativeDecoder().decode(line: Array(line.utf8)) {
            case .event(let e): events.append(e)
            case .complaint(let c): complaints.append(c)
            }
            if events.count + complaints.count >= batch { try flush() }
        }
        try flush()
        return total
    }

    /// Generated sample lines.
    static func sampleLines(events: Int, issues: Int = 30, days: Int = 20, seed: UInt64 = 3) -> [String] {
        var lines: [String] = []
        SampleGenerator(.init(events: events, issues: issues, days: days, seed: seed, end: sampleEnd)).write { lines.append($0) }
        return lines
    }

    static let sampleEnd = Timestamp.parse("2026-11-20T18:00:00Z")!

    /// One native event line.
    static func event(_ id: String, _ time: String, codes: String = "US14-LO43-AP7-NE8", version: String? = nil,
                      build: String? = nil, user: String? = nil) -> String {
        var line = "{\"event_id\":\"\(id)\",\"timestamp\":\"\(time)\",\"codes\":\"\(codes)\""
        if let version {
            line += ",\"app\":{\"version\":\"\(version)\"" + (build.map { ",\"build\":\"\($0)\"" } ?? "") + "}"
        }
        if let user { line += ",\"user_id\":\"\(user)\"" }
        return line + "}"
    }
}
