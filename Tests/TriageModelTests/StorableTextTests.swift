import Testing
import TriageModel

/// What a store cannot hold is made storable before it is written: U+0000 becomes ␀ (U+2400).
@Suite struct StorableTextTests {
    @Test func nulBecomesTheVisibleSymbolAndOtherTextIsLeftAlone() {
        #expect(StorableText.clean("a\u{0}b\u{0}") == "a\u{2400}b\u{2400}")
        #expect(StorableText.clean("plain 界 \u{1B}[31m") == "plain 界 \u{1B}[31m")
        #expect(StorableText.clean(nil as String?) == nil)
        #expect(!StorableText.holdsNul("no nul here"))
        #expect(StorableText.holdsNul("\u{0}"))
    }

    /// Every text of an event, a complaint and an adoption row, each holding U+0000: none holds it after.
    @Test func everyTextOfEveryRecordIsMadeStorable() {
        let n = "x\u{0}y"
        var event = ErrorEvent(
            eventID: n, timestamp: Timestamp(millis: 0),
            chain: ErrorChain(links: [ChainLink(domain: n, short: "XY", code: 1, name: n)]),
            appVersion: n, appBuild: n, platform: n, osName: n, osVersion: n, deviceModel: n, network: n, orientation: n,
            appState: n, userID: n, sessionID: n, environment: n, message: n, customKeys: [(n, n)], source: n, project: n,
            level: n, formerChain: FormerChain(links: [.read(ChainLink(domain: n, short: "XY", code: 2, name: n)),
                                                       .fromMessage(domain: n, message: n, codeName: n)]),
            payload: Array("{\"m\":\"x".utf8) + [0] + Array("y\"}".utf8))
        event.makeStorable()
        #expect(!Self.holdsNul(event))
        #expect(event.payload.map { !$0.contains(0) } == true, "the payload kept whole holds no zero byte either")
        #expect(event.deviceModel == "x\u{2400}y")
        var complaint = Complaint(complaintID: n, timestamp: Timestamp(millis: 0), channel: n, category: n, subject: n, text: n,
                                  userID: n, codes: [n], eventID: n)
        complaint.makeStorable()
        #expect(!Self.holdsNul(complaint))
        #expect(!Self.holdsNul(AdoptionRecord.session(id: n, at: Timestamp(millis: 0), version: n, installation: n).storable()))
        #expect(!Self.holdsNul(AdoptionRecord.daily(day: 0, version: n, users: 1, sessions: nil).storable()))
    }

    /// Whether any string anywhere in a value holds U+0000 (every stored property, walked).
    static func holdsNul(_ value: Any) -> Bool {
        if let text = value as? String { return StorableText.holdsNul(text) }
        return Mirror(reflecting: value).children.contains { holdsNul($0.value) }
    }
}
