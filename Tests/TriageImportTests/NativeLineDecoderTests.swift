import Foundation
import PropertyBased
import TestSupport
import Testing
@testable import TriageImport
import TriageModel

/// The byte-level reader of native lines against the tree reader: whatever line it reads, the
/// tree reads as the same event; valid lines it reads itself; the rest it leaves to the tree.
@Suite struct NativeLineDecoderTests {
    /// What the tree path makes of a line: an event, or nil (a complaint, a rejection, another source).
    static func tree(_ line: [UInt8], forced: Bool) -> ErrorEvent? {
        guard let value = try? JSONParser.parse(line) else { return nil }
        if !forced, SourceKind.detect(object: value) != .native { return nil }
        guard case .event(let event)? = try? NativeDecoder().decode(value) else { return nil }
        return event
    }

    /// The property: the byte reader never reads a line otherwise than the tree does.
    static func expectAgreement(_ line: [UInt8], _ decoder: NativeLineDecoder = NativeLineDecoder()) {
        for forced in [true, false] {
            guard let fast = decoder.event(line, forced: forced) else { continue }
            #expect(tree(line, forced: forced) == fast, "forced \(forced): \(String(decoding: line, as: UTF8.self))")
        }
    }

    /// Edits that break a line in the ways the tree reader's rejections name, and ways it accepts.
    static let edits: [(String, String)] = [
        ("\"event_id\"", "\"event\\u005fid\""), ("\"app\":{", "\"app\":{\"version\":null,"), ("\"device\":{", "\"device\":["),
        ("\"timestamp\":\"", "\"timestamp\":\"x"), ("\"codes\":\"", "\"codes\":\"ZZ"), ("\"kind\":\"", "\"kind\":\"very "),
        ("\"keys\":{", "\"keys\":null,\"k\":{"), ("\"free_ram\":", "\"free_ram\":\"12\",\"x\":"), ("\"network\":", "\"network\":[1],\"n\":"),
        ("\"event_id\":", "\"event_id\":\"dup\",\"event_id\":"), ("\"os\":{", "\"os\":{\"name\":\"a\",\"name\":\"b\","),
        ("\"jailbroken\":false", "\"jailbroken\":\"TRUE\""), ("\"message\":", "\"message\":1.5e3,\"m\":"), ("}", " }  "),
        ("\"codes\"", "\"complaint_id\""), ("\"chain\"", "\"chains\""), ("\"app\":", "\"app\":7,\"a\":"), ("\"user_id\":\"", "\"user_id\":\"\\n\\u00e9"),
    ]

    static let sampleLines = TemporaryStore.sampleLines(events: 300, issues: 40).filter { $0.contains("\"event_id\"") }

    @Test func everyGeneratedSampleLineIsReadByTheByteReaderAsTheTreeReadsIt() {
        // One reader for all lines, so that most chains come from its memo.
        let decoder = NativeLineDecoder()
        for line in Self.sampleLines {
            let bytes = Array(line.utf8)
            let fast = decoder.event(bytes, forced: false)
            #expect(fast != nil, "the byte reader left a valid line to the tree: \(line)")
            #expect(fast == Self.tree(bytes, forced: false), "\(line)")
        }
    }

    @Test func everyEncodedEventIsReadByTheByteReaderAsTheTreeReadsIt() async {
        await propertyCheck(count: 300, input: NativeRoundTripTests.event) { event in
            let bytes = Array(NativeEncoder.line(event).utf8)
            let fast = NativeLineDecoder().event(bytes, forced: true)
            #expect(fast != nil, "the byte reader left a valid line to the tree")
            #expect(fast == event)
            Self.expectAgreement(bytes)
        }
    }

    @Test func editedLinesAreReadAsTheTreeReadsThemOrLeftToIt() {
        let decoder = NativeLineDecoder()
        for line in Self.sampleLines.prefix(40) {
            for (from, to) in Self.edits {
                guard let range = line.range(of: from) else { continue }
                Self.expectAgreement(Array(line.replacingCharacters(in: range, with: to).utf8), decoder)
            }
        }
    }

    @Test func linesWithBytesCutInsertedOrChangedAreReadAsTheTreeReadsThemOrLeftToIt() async {
        let mutation = zip(Gen<Int>.value(in: 0...Self.sampleLines.count - 1), Gen<Int>.value(in: 0...2_000),
                           Gen<Int>.value(in: 0...2), Gen<Int>.value(in: 0...255))
        await propertyCheck(count: 2_000, input: mutation) { pick, at, operation, byte in
            var bytes = Array(Self.sampleLines[pick].utf8)
            let i = at % bytes.count
            let interesting: [UInt8] = [0x22, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x3A, 0x2C, 0x20, 0x00, 0xFF, 0xC3, 0x6E]
            let b = byte < 128 ? interesting[byte % interesting.count] : UInt8(byte)
            switch operation {
            case 0: bytes.remove(at: i)
            case 1: bytes.insert(b, at: i)
            default: bytes[i] = b
            }
            Self.expectAgreement(bytes)
        }
    }

    @Test func complaintsAndOtherSourcesAreLeftToTheTree() throws {
        let complaint = Array(TemporaryStore.complaint("T-1", "2026-11-20T10:00:00Z", codes: ["US14-LO43-AP7-NE8"]).utf8)
        #expect(NativeLineDecoder().event(complaint, forced: true) == nil)
        let sentry = Array(#"{"event_id":"abc","level":"error","platform":"cocoa","timestamp":1700000000}"#.utf8)
        #expect(NativeLineDecoder().event(sentry, forced: false) == nil)
    }

    @Test func aLineTheTreeRejectsIsLeftToTheTreeForItsReason() {
        let line = Array(#"{"event_id":"a","timestamp":"2026-11-20T10:00:00Z","codes":"US14-LO43-AP7-NE8","kind":"sometimes"}"#.utf8)
        #expect(NativeLineDecoder().event(line, forced: false) == nil)
        #expect(throws: LineRejection("kind 'sometimes' is not crash, non-fatal or anr")) {
            try NativeDecoder().decode(line: line)
        }
    }

    @Test func aRememberedChainIsUsedOnlyForTheSameShortKeyAndFullForm() throws {
        let decoder = NativeLineDecoder()
        func line(_ chain: String) -> [UInt8] {
            Array(#"{"event_id":"a","timestamp":"2026-11-20T10:00:00Z","codes":"US14-LO43-AP7-NE8","chain":"\#(chain)"}"#.utf8)
        }
        let first = decoder.event(line("UserError.connectionIssue - LogicError.loginFailed - APIError.getTokenFailed - NetworkError.timeout"), forced: false)
        let second = decoder.event(line("UserError.offline - LogicError.loginFailed - APIError.getTokenFailed - NetworkError.timeout"), forced: false)
        #expect(first?.chain.links.first?.name == "connectionIssue")
        #expect(second?.chain.links.first?.name == "offline")
        #expect(decoder.event(line("UserError.offline - LogicError.loginFailed"), forced: false) == nil, "a mismatch is still the tree's to reject")
    }
}
