import Foundation
import TestSupport
import Testing
@testable import TriageImport
import TriageModel

/// A file whose lines come from several sources reads each line by its own members, whichever
/// reader (the byte reader of native lines, or the tree) the line before it went to.
@Suite struct RecordReaderTests {
    /// What each line is on its own: its source's decoder over the tree.
    /// The line read alone, carrying its bytes as the reader's events do (to be kept whole).
    static func alone(_ line: String) -> ImportedRecord? {
        guard let value = try? JSONParser.parse(Array(line.utf8)), let source = SourceKind.detect(object: value),
              let record = try? source.decoder.decode(value) else { return nil }
        guard case .event(var event) = record else { return record }
        event.payload = Array(line.utf8)
        return .event(event)
    }

    @Test func crashlyticsAndNativeLinesInOneFileAreEachReadAsTheyAreAlone() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/crashlytics.ndjson").path
        let crashlytics = try String(contentsOfFile: fixture, encoding: .utf8)
            .split(separator: "\n").prefix(20).map(String.init)
        let native = TemporaryStore.sampleLines(events: 60, issues: 10)
        try #require(native.count >= 2 * crashlytics.count)
        // Runs of each source, and single lines between them, so that every switch happens.
        var lines: [String] = []
        for (i, line) in crashlytics.enumerated() {
            lines.append(line)
            if i % 2 == 0 { lines.append(contentsOf: native[(2 * i)..<(2 * i + 2)]) } else { lines.append(native[2 * i]) }
        }
        let folder = try TemporaryFolder()
        let reader = try RecordReader(path: try folder.file("mixed.ndjson", lines.joined(separator: "\n") + "\n"), source: nil)
        var read = 0
        while let result = try reader.next() {
            switch result {
            case .record(let number, let record):
                #expect(Self.alone(lines[number - 1]).map { "\($0)" } == "\(record)", "line \(number)")
            case .rejected(let number, _, _):
                #expect(Self.alone(lines[number - 1]) == nil, "line \(number) rejected, alone it reads")
            }
            read += 1
        }
        #expect(read == lines.count)
    }

    static func crashlyticsFixture() throws -> [String] {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/crashlytics.ndjson").path
        return try String(contentsOfFile: fixture, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// Edits that make a row bigger in the parts its decoder skips, or break it there or elsewhere.
    static let edits: [(String, String)] = [
        ("\"logs\":[]", "\"logs\":[{\"timestamp\":\"2026-11-11 01:07:13 UTC\",\"message\":\"a\\u00e9\\n\"}]"),
        ("\"breadcrumbs\":[]", "\"breadcrumbs\":[{\"name\":\"x\",\"params\":[{\"key\":\"k\",\"value\":-1.5e-3}]}],\"threads\":[[[[true,false,null]]]]"),
        ("\"frames\":[]", "\"frames\":[{\"symbol\":\"main\",\"line\":12,\"offset\":0}]"),
        ("\"logs\":[]", "\"logs\":[\"bad \\q escape\"]"), ("\"logs\":[]", "\"logs\":[01]"), ("\"logs\":[]", "\"logs\":[1.]"),
        ("\"logs\":[]", "\"logs\":[tru]"), ("\"logs\":[]", "\"logs\":[\"\\ud800\"]"), ("\"logs\":[]", "\"logs\":{\"a\" 1}"),
        ("\"logs\":[]", "\"logs\":[1,]"), ("\"logs\":[]", "\"logs\":" + String(repeating: "[", count: 130) + String(repeating: "]", count: 130)),
        ("\"bundle_identifier\"", "\"bundle\\u005fidentifier\""), ("\"issue_title\"", "\"issue\\u005ftitle\""),
        ("\"event_id\":", "\"event_id\":\"dup\",\"event_id\":"), ("\"errors\":[{", "\"errors\":[7,{"),
        ("\"errors\":[{", "\"errors\":[{\"title\":null,"), ("}", "} x"), ("\"platform\"", "\"platform\u{01}\""),
    ]

    @Test func theSparseReadOfACrashlyticsRowAcceptsRejectsAndDecodesExactlyAsTheWholeTreeDoes() throws {
        let decoder = CrashlyticsDecoder()
        var lines = try Self.crashlyticsFixture()
        for line in lines.prefix(40) {
            for (from, to) in Self.edits {
                if let range = line.range(of: from) { lines.append(line.replacingCharacters(in: range, with: to)) }
            }
        }
        // Invalid UTF-8 inside a skipped member and inside a kept one.
        var rows = lines.map { Array($0.utf8) }
        for (member, prefix) in [("\"logs\":[", "\""), ("\"issue_subtitle\":\"", "")] {
            let row = try #require(lines.first { $0.contains(member) }.map { Array($0.utf8) })
            let at = try #require(Array(row.indices).first(where: { row[$0...].starts(with: Array(member.utf8)) }))
            var broken = row
            // A string that starts with the bytes C3 28 (a lead byte without its continuation).
            broken.insert(contentsOf: Array(prefix.utf8) + [0xC3, 0x28] + (prefix.isEmpty ? [] : [0x22]), at: at + member.utf8.count)
            rows.append(broken)
        }
        var skipped = 0
        for bytes in rows {
            let line = String(decoding: bytes, as: UTF8.self)
            let whole = Result { () throws(JSONParseError) in try JSONParser.parse(bytes) }
            let sparse = Result { () throws(JSONParseError) in try JSONParser.parse(bytes, keeping: .crashlytics) }
            switch (whole, sparse) {
            case (.success(let w), .success(let s)):
                #expect(SourceKind.detect(object: w) == SourceKind.detect(object: s), "\(line)")
                let a = Result { () throws(LineRejection) in try decoder.decode(w) }, b = Result { () throws(LineRejection) in try decoder.decode(s) }
                #expect("\(a)" == "\(b)", "\(line)")
                if "\(w)" != "\(s)" { skipped += 1 }
            case (.failure(let w), .failure(let s)):
                #expect(w == s, "\(line)")
            default:
                Issue.record("one parse accepts what the other rejects: \(whole) / \(sparse) for \(line)")
            }
        }
        // The edits did reach members the sparse read leaves out.
        #expect(skipped > 40)
    }

    /// Edits of a Sentry event: bigger or broken in the parts its decoder skips, or changed in the ones it reads.
    static let sentryEdits: [(String, String)] = [
        ("\"exception\":{\"values\":[{", "\"exception\":{\"values\":[{\"stacktrace\":{\"frames\":[{\"vars\":{\"a\":[1,{\"b\":null}]}}]},"),
        ("\"exception\":{\"values\":[{", "\"exception\":{\"values\":[{\"stacktrace\":{\"frames\":[{\"vars\":tru}]},"),
        ("\"exception\":{\"values\":", "\"exception\":"), ("\"contexts\":{", "\"contexts\":{\"trace\":{\"x\":[]},"),
        ("\"contexts\":{", "\"breadcrumbs\":{\"values\":[{\"message\":\"a\\u00e9\"}]},\"contexts\":{"),
        ("\"user\":{", "\"user\":{\"data\":{\"k\":1},"), ("\"exception\"", "\"stacktrace\":{},\"exception_\""),
        ("\"type\":\"", "\"type\":\"\\u0000"), ("}", "} x"),
    ]

    @Test func theSparseReadOfASentryEventDecodesExactlyAsTheWholeTreeDoes() throws {
        let decoder = SentryDecoder()
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
        var lines = try ["sentry.ndjson", "sentry-platforms.ndjson", "sentry-sdk-chains.ndjson"].flatMap {
            try String(contentsOfFile: folder.appendingPathComponent($0).path, encoding: .utf8).split(separator: "\n").map(String.init)
        }
        for line in lines.prefix(60) {
            for (from, to) in Self.sentryEdits {
                if let range = line.range(of: from) { lines.append(line.replacingCharacters(in: range, with: to)) }
            }
        }
        var skipped = 0
        for line in lines {
            let bytes = Array(line.utf8)
            let whole = Result { () throws(JSONParseError) in try JSONParser.parse(bytes) }
            let sparse = Result { () throws(JSONParseError) in try JSONParser.parse(bytes, keeping: .sentryEvent) }
            switch (whole, sparse) {
            case (.success(let w), .success(let s)):
                #expect(SourceKind.detect(object: w) == SourceKind.detect(object: s), "\(line)")
                let a = Result { () throws(LineRejection) in try decoder.decode(w) }, b = Result { () throws(LineRejection) in try decoder.decode(s) }
                #expect("\(a)" == "\(b)", "\(line)")
                if "\(w)" != "\(s)" { skipped += 1 }
            case (.failure(let w), .failure(let s)):
                #expect(w == s, "\(line)")
            default:
                Issue.record("one parse accepts what the other rejects: \(whole) / \(sparse) for \(line)")
            }
        }
        // Many events carry members the sparse read leaves out (a third of these; the edits add some).
        #expect(skipped > lines.count / 4)
    }
}
