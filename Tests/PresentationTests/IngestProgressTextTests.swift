import Presentation
import Testing
import TriageModel

/// `ingest`'s progress line fits the terminal it is drawn on: it never wraps, and what gives way
/// first is the start of the input's path, then the bar.
@Suite struct IngestProgressTextTests {
    static let path = "/srv/exports/crashlytics/2026/11/firebase-crashlytics-export-2026-11-26.ndjson.gz"
    static let halfway = IngestProgress(input: path, bytesRead: 50 << 20, totalBytes: 100 << 20, events: 123_456)

    static func cells(_ line: String) -> Int { line.count }

    @Test func aWideTerminalGetsTheWholeLine() {
        let line = IngestText.progress(Self.halfway, elapsedSeconds: 10, width: 200)
        #expect(line == Self.path + ": 123456 events, 12345/s [############............] 50%, 10s left")
        #expect(IngestText.progress(Self.halfway, elapsedSeconds: 10) == line)
    }

    @Test func at80ColumnsThePathGivesWayAndTheBarStays() {
        let line = IngestText.progress(Self.halfway, elapsedSeconds: 10, width: 80)
        #expect(Self.cells(line) == 79, "\(line)")
        #expect(line == "…-26.ndjson.gz: 123456 events, 12345/s [############............] 50%, 10s left")
    }

    @Test func at40ColumnsTheBarGivesWayAndTheCountsStay() {
        let line = IngestText.progress(Self.halfway, elapsedSeconds: 10, width: 40)
        #expect(Self.cells(line) <= 39, "\(line)")
        #expect(!line.contains("["))
        #expect(line.hasSuffix(": 123456 events, 12345/s 50%, 10s left"), "\(line)")
        let unknownSize = IngestProgress(input: "-", bytesRead: 3 << 20, totalBytes: nil, events: 900)
        #expect(IngestText.progress(unknownSize, elapsedSeconds: 1, width: 40) == "-: 900 events, 900/s, 3 MiB read")
    }

    @Test func aTinyTerminalGetsACutLineAndAHostileNameStaysInert() {
        let hostile = IngestProgress(input: "evil\u{1B}]0;owned\u{07}\n.ndjson", bytesRead: 1, totalBytes: 2, events: 1)
        let line = IngestText.progress(hostile, elapsedSeconds: 1, width: 20)
        #expect(Self.cells(line) <= 19, "\(line)")
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 })
        #expect(!IngestText.progress(hostile, elapsedSeconds: 1).unicodeScalars.contains { $0.value < 0x20 })
    }
}
