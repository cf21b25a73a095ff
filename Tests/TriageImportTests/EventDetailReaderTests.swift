import Presentation
import Testing
import TriageImport
import TriageModel

/// A kept payload reads into one `EventDetail` whatever its source, and renders inert.
@Suite struct EventDetailReaderTests {
    static func read(_ json: String, _ source: String) -> EventDetail {
        EventDetailReader.read(Array(json.utf8), source: source, eventID: "e1", timestamp: nil)
    }

    @Test func aSentryEventsChainReadsOutermostFirstWithItsFramesInnermostFirst() {
        let d = Self.read("""
            {"exception":{"values":[{"type":"JSONDecodeError","value":"Expecting value","stacktrace":{"frames":[
              {"filename":"json/decoder.py","function":"decode","lineno":337,"in_app":false}]}},
             {"type":"ImportFailed","value":"import of feed failed","mechanism":{"type":"generic","handled":true},"stacktrace":{"frames":[
              {"filename":"app.py","function":"main","lineno":3,"in_app":true},
              {"filename":"pyshop/imports.py","function":"import_feed","lineno":18,"in_app":true,"context_line":"  raise X"}]}}]},
             "breadcrumbs":{"values":[{"category":"http","message":"GET /feed","level":"info","timestamp":1790000000.5}]},
             "tags":[["shard","7"]],"contexts":{"runtime":{"name":"CPython","version":"3.11.2"}},
             "request":{"method":"POST","url":"https://a/x","query_string":[["page","2"]],"headers":{"Authorization":"[Filtered]"}},
             "server_name":"api-1","transaction":"/feed","logger":"pyshop","sdk":{"name":"sentry.python","version":"2.0"}}
            """, "sentry")
        #expect(d.exceptions.map(\.type) == ["ImportFailed", "JSONDecodeError"])
        #expect(d.exceptions[0].raisedAt?.description == "pyshop/imports.py:18 in import_feed")
        #expect(d.exceptions[0].handled == true)
        #expect(d.exceptions[1].raisedAt?.description == "json/decoder.py:337 in decode")
        #expect(d.breadcrumbs.first?.message == "GET /feed")
        #expect(d.breadcrumbs.first?.timestamp?.millis == 1_790_000_000_500)
        #expect(d.tags == [EventField("shard", "7")])
        #expect(d.contexts == [EventContext(name: "runtime", fields: [EventField("name", "CPython"), EventField("version", "3.11.2")])])
        #expect(d.request?.query == "page=2")
        #expect(d.serverName == "api-1" && d.transaction == "/feed" && d.logger == "pyshop" && d.sdk == "sentry.python 2.0")
    }

    @Test func aCrashlyticsRowReadsItsFramesBreadcrumbsLogsAndKeys() {
        let d = Self.read("""
            {"event_id":"c1","event_timestamp":"2026-11-11T01:07:13Z","error_type":"FATAL","issue_title":"crash",
             "exceptions":[{"type":"NSInvalidArgumentException","exception_message":"bad arg","frames":[
               {"symbol":"-[Cart add:]","file":"Cart.m","line":41,"library":"Shop","owner":"DEVELOPER"},
               {"symbol":"objc_exception_throw","library":"libobjc","owner":"VENDOR"}]}],
             "breadcrumbs":[{"timestamp":"2026-11-11T01:07:10Z","name":"add_to_cart","params":[{"key":"sku","value":"A1"}]}],
             "logs":[{"timestamp":"2026-11-11T01:07:11Z","message":"cart opened"}],
             "custom_keys":[{"key":"screen","value":"cart"}],"application":{"display_version":"1.12","build_version":"401"}}
            """, "crashlytics")
        #expect(d.exceptions.first?.type == "NSInvalidArgumentException")
        #expect(d.exceptions.first?.frames.map(\.inApp) == [true, false])
        #expect(d.exceptions.first?.raisedAt?.description == "Cart.m:41 in -[Cart add:]")
        #expect(d.breadcrumbs.first?.category == "add_to_cart" && d.breadcrumbs.first?.data == [EventField("sku", "A1")])
        #expect(d.logs.first?.message == "cart opened")
        #expect(d.tags == [EventField("screen", "cart")])
        #expect(d.release == "1.12")
    }

    @Test func aNativeLineReadsItsKeysAsTagsAndItsObjectsAsContexts() {
        let d = Self.read(#"{"event_id":"n1","timestamp":"2026-10-30T19:19:12Z","codes":"US3","app":{"version":"1.11"},"os":{"name":"iOS"},"message":"m","keys":{"screen":"map"}}"#, "native")
        #expect(d.tags == [EventField("screen", "map")])
        #expect(d.contexts.map(\.name) == ["app", "os"])
        #expect(d.release == "1.11" && d.message == "m")
        #expect(d.extra == [EventField("codes", "US3")])
    }

    @Test func hostileTextInFramesBreadcrumbsAndTagsStaysInert() {
        let esc = "\\u001b]52;c;SGVsbG8=\\u0007\\u001b[2J"
        let d = Self.read("""
            {"exception":{"values":[{"type":"E\(esc)","value":"v\(esc)","stacktrace":{"frames":[{"filename":"f\(esc).py","function":"g\(esc)","in_app":true,"context_line":"x\(esc)"}]}}]},
             "breadcrumbs":[{"message":"b\(esc)","category":"c\(esc)"}],"tags":{"t\(esc)":"v\(esc)"},"request":{"headers":{"H\(esc)":"v\(esc)"}}}
            """, "sentry")
        let text = EventDetailText.render(d, issueKey: "K1", kept: ["latest"])
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 }, "\(text)")
        #expect(text.contains("f") && text.contains("Breadcrumbs"))
        let json = EventDetailText.json(d, issueKey: "K1", kept: []).inertSerialized
        #expect(!json.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }
}
