import Testing
@testable import TriageStore

/// Kept payloads compressed with their source's preset dictionary, read back whole; what was
/// compressed without one still reads.
@Suite struct PayloadCodecTests {
    static let native = Array(#"{"event_id":"b713fbcbfff2d1066444a529c608d14e","timestamp":"2026-10-30T19:19:12.235Z","codes":"US3-IN500-TA120","chain":"UserError.sessionExpired - InteractorError.getMapPins - TolokaAPIError.skills","app":{"version":"1.11","build":"369"},"os":{"name":"iOS","version":"16.7.10"},"device":{"model":"iPhone16,1","orientation":"portrait","app_state":"background","free_ram":764717874,"free_disk":55433623903,"jailbroken":false},"network":"cellular","user_id":"u00008","session_id":"s-00008-756","environment":"production","kind":"non-fatal"}"#.utf8)
    static let sentry = Array(#"{"event_id":"9f0c","timestamp":"2026-11-26T15:34:01Z","platform":"python","level":"error","release":"shop@2.1.0","environment":"production","server_name":"api-1","exception":{"values":[{"type":"KeyError","value":"'plan'","mechanism":{"type":"generic","handled":true},"stacktrace":{"frames":[{"filename":"shop/billing.py","abs_path":"/srv/shop/billing.py","function":"charge","module":"shop.billing","lineno":41,"context_line":"    plan = order['plan']","in_app":true}]}}]},"contexts":{"runtime":{"name":"CPython","version":"3.11.7"}},"sdk":{"name":"sentry.python","version":"2.19.0"}}"#.utf8)

    @Test(arguments: ["native", "sentry", "crashlytics", "elk", "desk"])
    func aPayloadReadsBackWholeWithItsSourcesDictionary(source: String) {
        for payload in [Self.native, Self.sentry, [], Array("x".utf8)] {
            let packed = PayloadCodec.compress(payload, source: source)
            #expect(PayloadCodec.decompress(packed, size: payload.count) == payload)
            #expect(PayloadCodec.decompress(packed, size: payload.count + 1) == nil)
        }
    }

    @Test func theDictionaryMakesASmallPayloadSmallerAndWhatWasPackedWithoutOneStillReads() {
        let plain = PayloadCodec.compressPlain(Self.native)
        let packed = PayloadCodec.compress(Self.native, source: "native")
        #expect(packed.count * 10 < plain.count * 8, "\(packed.count) vs \(plain.count)")
        #expect(PayloadCodec.decompress(plain, size: Self.native.count) == Self.native)
        let sentry = PayloadCodec.compress(Self.sentry, source: "sentry")
        #expect(sentry.count < PayloadCodec.compressPlain(Self.sentry).count)
    }

    @Test func eachDictionaryHasItsOwnAdlerAndAnUnknownOneIsNotRead() {
        #expect(PayloadDictionary.all.count == 4)
        var packed = PayloadCodec.compress(Self.native, source: "native")
        // The stream's dictionary id (bytes 2...5 after the zlib header) changed: no such dictionary.
        packed[5] ^= 0xFF
        #expect(PayloadCodec.decompress(packed, size: Self.native.count) == nil)
        #expect(PayloadCodec.decompress([1, 2, 3], size: 3) == nil)
    }
}
