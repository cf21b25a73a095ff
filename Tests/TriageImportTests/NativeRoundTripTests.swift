import PropertyBased
import TestSupport
import Testing
import TriageImport
import TriageModel

/// The native format's writer and reader agree: every event `NativeEncoder` writes,
/// `NativeDecoder` reads back as the same event, whatever its text holds.
@Suite struct NativeRoundTripTests {
    /// Any character: Latin-1 (controls, quotes, backslashes) half the time, else any scalar.
    static let character = Gen<Character>.oneOf(
        Gen.latin1,
        Gen<UInt32>.value(in: 0x100...0x10FFFF).compactMap { Unicode.Scalar($0).map(Character.init) }
    )
    static let text = character.string(of: 0...12)
    /// Optional fields: absent, or text that is not empty (the reader reads an empty text as absent).
    static let field = character.string(of: 1...12).optional
    static let number = Gen<Int64>.value(in: Int64.min...Int64.max).optional
    /// A kind, or none (an event whose source did not say).
    static let kind = Gen<Int>.value(in: 0...EventKind.allCases.count).map { $0 < EventKind.allCases.count ? EventKind.allCases[$0] : nil }

    static let event = zip(
        character.string(of: 1...40),
        Gen<Int64>.value(in: 0...4_102_444_800_000),
        zip(ChainGen.chain, Gen.bool),
        field.array(of: 15),
        zip(number, number, Gen.bool.optional, kind),
        zip(text, text).array(of: 0...4)
    ).map { id, millis, chainAndNames, fields, device, keys in
        let (chain, dropNames) = chainAndNames
        var links = chain.links
        // Links the data gives by short name only: no domain, no name.
        if dropNames, !links.isEmpty { links[0].domain = nil; links[0].name = nil }
        var seen: Set<String> = []
        let uniqueKeys = keys.filter { seen.insert($0.0).inserted }.map { (key: $0.0, value: $0.1) }
        return ErrorEvent(
            eventID: id, timestamp: Timestamp(millis: millis), chain: ErrorChain(links: links),
            appVersion: fields[0], appBuild: fields[1], platform: fields[2], osName: fields[3], osVersion: fields[4],
            deviceModel: fields[5], network: fields[6], orientation: fields[7], appState: fields[8],
            freeRAM: device.0, freeDisk: device.1, jailbroken: device.2, userID: fields[9], sessionID: fields[10],
            environment: fields[11], message: fields[12], customKeys: uniqueKeys, source: "native", kind: device.3,
            project: fields[13], level: fields[14])
    }

    @Test func everyEventWrittenReadsBackAsTheSameEvent() async {
        await propertyCheck(count: 500, input: Self.event) { event in
            let line = NativeEncoder.line(event)
            #expect(!line.contains("\n"), "one event, one line")
            let read = recordingErrors { try NativeDecoder().decode(line: Array(line.utf8)) }
            guard case .event(let back)? = read else {
                Issue.record("not read back as an event: \(line)")
                return
            }
            #expect(back == event, "\(line)")
        }
    }

    @Test func anExportedSampleLineReadsBackUnchanged() throws {
        let line = #"{"event_id":"7f3a","timestamp":"2026-10-04T22:33:00Z","codes":"US14-LO43-AP7-NE8","chain":"UserError.connectionIssue - LogicError.loginFailed - APIError.getTokenFailed - NetworkError.timeout","keys":{"screen":"map"}}"#
        guard case .event(let event) = try NativeDecoder().decode(line: Array(line.utf8)) else {
            Issue.record("not an event")
            return
        }
        guard case .event(let again) = try NativeDecoder().decode(line: Array(NativeEncoder.line(event).utf8)) else {
            Issue.record("the written line is not an event")
            return
        }
        #expect(again == event)
        #expect(again.chain.fullForm == "UserError.connectionIssue - LogicError.loginFailed - APIError.getTokenFailed - NetworkError.timeout")
    }
}
