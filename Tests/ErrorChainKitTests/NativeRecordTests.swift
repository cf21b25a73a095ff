import Foundation
import Testing
@testable import ErrorChainKit

/// The native NDJSON lines the reporter writes byte by byte: valid JSON whatever the text, cut
/// at a character's boundary, timestamps as ISO 8601 would write them.
@Suite struct NativeRecordTests {
    static func parse(_ bytes: [UInt8]) throws -> [String: Any] {
        #expect(bytes.last == 0x0A)
        #expect(!bytes.dropLast().contains(0x0A))
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes.dropLast())) as? [String: Any])
    }

    @Test func hostileTextStaysOneLineOfValidJSON() throws {
        let text = "quote \" backslash \\ newline \n tab \t nul \u{0} bell \u{7} del \u{7F} é 漢字 🧨"
        let chain = ErrorChain(links: [.init(domain: "X\"Error", shortName: "XE", code: -1, codeName: "a\nb", systemMessage: text)],
                               additionalInfo: [:])
        let line = try Self.parse(NativeRecord.event(id: "id", millis: 0, chain: chain, facts: DeviceFacts(), environment: text,
                                                     keys: [(text, text)], dropped: 3))
        #expect(line["message"] as? String == text)
        #expect(line["environment"] as? String == text)
        #expect(line["keys"] as? [String: String] == [text: text, "reports_dropped": "3"])
        #expect(line["codes"] as? String == "XEn1")
        #expect((line["chain"] as? [[String: Any]])?.first?["name"] as? String == "a\nb")
        let complaint = try Self.parse(NativeRecord.complaint(id: "c", millis: 0, text: text, category: nil, userID: nil, codes: ["XEn1"]))
        #expect(complaint["text"] as? String == text)
    }

    @Test func longTextIsCutBeforeACharactersFirstByte() throws {
        let message = String(repeating: "é", count: NativeRecord.Limit.message)  // two bytes each
        let chain = ErrorChain(links: [.init(domain: "XError", shortName: "XE", code: 1, codeName: "x", systemMessage: message)],
                               additionalInfo: [:])
        let bytes = NativeRecord.event(id: "id", millis: 0, chain: chain, facts: DeviceFacts(), environment: nil, keys: [], dropped: 0)
        let line = try Self.parse(bytes)
        let kept = try #require(line["message"] as? String)
        #expect(kept.utf8.count == NativeRecord.Limit.message)
        #expect(kept.allSatisfy { $0 == "é" })
    }

    @Test(arguments: [Int64(0), 1_790_000_123_456, 951_782_400_999, -1, -86_400_001, 4_102_444_800_000, 1_709_164_800_500])
    func timestampsAreISO8601InUTCWithMilliseconds(_ millis: Int64) {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        #expect(ErrorChainKit.Timestamp.iso8601(millis: millis) == formatter.string(from: Date(timeIntervalSince1970: Double(millis) / 1000)))
    }
}
