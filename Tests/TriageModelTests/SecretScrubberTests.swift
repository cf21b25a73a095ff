import Testing
import TriageModel

/// Secrets are filtered on values as they read once decoded, by Sentry's default rules: every
/// secret form below, in every field it may arrive in, is gone; what Sentry keeps is kept.
@Suite struct SecretScrubberTests {
    /// A secret in a text, as it may arrive in any field (free text): the secret part must go.
    static let textForms: [(form: String, secret: String)] = [
        ("password=Zk01a", "Zk01a"),
        ("login failed: password: Zk01b", "Zk01b"),
        ("token=Zk02a&next=/home", "Zk02a"),
        ("Authorization: Bearer Zk03a", "Zk03a"),
        ("Authorization: Basic Zk03b", "Zk03b"),
        ("sent with bearer Zk04a.Zk04b", "Zk04a"),
        ("could not connect to postgres://app:Zk05a@db.internal:5432/shop", "Zk05a"),
        ("GET https://shop.example/cb?kind=8&password=Zk06a", "Zk06a"),
        ("https://shop.example/cb#access_token=Zk07a&state=1", "Zk07a"),
        ("https://shop.example/cb?p%61ssword=Zk08a", "Zk08a"),
        ("https://shop.example/login?next=%2Fpay%3Ftoken%3DZk08b", "Zk08b"),
        (#"payload {"password": "Zk09a", "user": "bob"}"#, "Zk09a"),
        (#"{\"api_key\":\"Zk09b\"}"#, "Zk09b"),
        ("{'api_key': 'Zk10a'}", "Zk10a"),
        ("X-Api-Key: Zk11a", "Zk11a"),
        ("sessionid=Zk12a; theme=dark", "Zk12a"),
        ("X-Session: Zk12b", "Zk12b"),
        ("mysql_pwd=Zk13a", "Zk13a"),
        ("privatekey=Zk14a private_key=Zk14b", "Zk14"),
        ("csrf=Zk15a", "Zk15a"),
        ("credentials=Zk16a", "Zk16a"),
        ("secret: {\"a\": \"Zk17a\"}", "Zk17a"),
        ("apiKey=Zk18a", "Zk18a"),
        ("user=bob&passwd=Zk19a&remember=1", "Zk19a"),
        ("card 4111 1111 1111 1111 declined", "4111 1111 1111 1111"),
        ("card 5500-0000-0000-0004", "5500-0000-0000-0004"),
        ("pan=378282246310005", "378282246310005"),
        ("card4111111111111111x is no card but 4012888888881881 is", "4012888888881881"),
        ("ssn 078-05-1120 on file", "078-05-1120"),
        ("-----BEGIN RSA PRIVATE KEY-----\nMIIZk20a\n-----END RSA PRIVATE KEY-----", "MIIZk20a"),
    ]

    /// What stays as it came: Sentry keeps IP addresses and e-mails; times, ids, versions and
    /// words about authentication are no secret.
    static let kept = [
        "user bob@example.com from 10.0.0.1 and 2001:db8::1",
        "at 2026-11-27T10:00:00Z after 1764283443123 ms (epoch 1764283443)",
        "request 550e8400-e29b-41d4-a716-446655440000 of release shop@2.1.0+412",
        // A UUID whose first digits would pass Luhn as 16 digits, and digits in eights.
        "event 51820005-1921-4422-a3f0-0c9e2b7d1e55 and build 5182-00051921-4422",
        "FATAL:  password authentication failed for user \"bob\"",
        "AuthError: authentication required",
        "KeyError: 'amount'",
        "https://shop.example/api/auth/login?page=2",
        "order 1234567890123 costs 12.50",
        "already [Filtered] and password=[Filtered]",
    ]

    @Test func everySecretFormLeavesAText() {
        for (form, secret) in Self.textForms {
            let clean = SecretScrubber.scrubText(form)
            #expect(!clean.contains(secret), "\(form) → \(clean)")
            #expect(clean.contains(SecretScrubber.filtered), "\(form) → \(clean)")
        }
    }

    @Test func onlyTheSecretPartOfATextGoes() {
        #expect(SecretScrubber.scrubText("token=abc&next=/home") == "token=[Filtered]&next=/home")
        #expect(SecretScrubber.scrubText("Authorization: Bearer abc.def") == "Authorization: [Filtered]")
        #expect(SecretScrubber.scrubText("retry with Bearer abc") == "retry with Bearer [Filtered]")
        #expect(SecretScrubber.scrubText("postgres://app:pw@db/shop") == "postgres://app:[Filtered]@db/shop")
        #expect(SecretScrubber.scrubText("https://ghp_abc@github.com/x") == "https://[Filtered]@github.com/x")
        #expect(SecretScrubber.scrubText(#"{"password": "x", "user": "bob"}"#) == #"{"password": "[Filtered]", "user": "bob"}"#)
        #expect(SecretScrubber.scrubText("card 4111 1111 1111 1111 declined") == "card [Filtered] declined")
        #expect(SecretScrubber.scrubText("ssn 078-05-1120") == "ssn [Filtered]")
    }

    @Test func whatSentryKeepsIsKept() {
        for text in Self.kept { #expect(SecretScrubber.scrubText(text) == text) }
    }

    /// Tags and custom keys: a sensitive name filters the value whatever it holds, after the
    /// name's spelling is normalised; a value with a sensitive word goes whole.
    @Test func tagsGoByTheirNameAndTheirWords() {
        let names = ["api_key", "X-Api-Key", "apiKey", "API KEY", "session", "sessionid", "X-Session", "PHPSESSID", "mysql_pwd",
                     "privatekey", "private_key", "csrf", "csrftoken", "XSRF-TOKEN", "credentials", "passwd", "password_confirm",
                     "auth", "Authorization", "token", "access_token", "secret", "client_secret", "p%61ssword", "connect.sid",
                     "sentry_dsn", "dsn", "otp", "two-factor", "cookie", "Set-Cookie", "jwt"]
        for name in names {
            #expect(SecretScrubber.isSensitiveKey(name), "\(name)")
            #expect(SecretScrubber.scrubValue("Zk30", name: name, structured: true) == SecretScrubber.filtered, "\(name)")
        }
        for name in ["user_id", "release", "environment", "shard", "browser", "url", "transaction", "level", "server_name", "pwd"] {
            #expect(!SecretScrubber.isSensitiveKey(name), "\(name)")
        }
        #expect(SecretScrubber.scrubValue("my password is hunter2", name: "note", structured: true) == SecretScrubber.filtered)
        #expect(SecretScrubber.scrubValue("oauth", name: "provider", structured: true) == SecretScrubber.filtered)
        #expect(SecretScrubber.scrubValue("token_v2=abc", name: "x", structured: true) == SecretScrubber.filtered)
        #expect(SecretScrubber.scrubValue("eu-west-1", name: "region", structured: true) == "eu-west-1")
        // Free text keeps its words: only the secret part goes.
        #expect(SecretScrubber.scrubValue("my password is hunter2", name: nil, structured: false) == "my password is hunter2")
    }

    /// The event's every stored text: tags, message, the chain's names, facets, user.
    @Test func anEventLosesItsSecretsEverywhereTheStoreKeepsThem() {
        var event = ErrorEvent(eventID: "e1", timestamp: Timestamp(seconds: 1_764_000_000),
                               chain: ErrorChain(links: [ChainLink(domain: "APIError", short: "AP", code: 7, name: "bad token=Zk40a"),
                                                         ChainLink(domain: "NetworkError", short: "NE", code: 8, name: "timeout")]),
                               userID: "u1", environment: "production", message: "GET /pay?password=Zk40b failed",
                               customKeys: [("api_key", "Zk40c"), ("X-Session", "Zk40d"), ("shard", "eu-1"), ("note", "card 4111111111111111"),
                                            ("exception_chain", "AuthError.authFailed - NetworkError.timeout")],
                               facets: [("transaction", "/pay?token=Zk40e"), ("server", "api-1")])
        SecretScrubber.scrub(&event)
        let texts = [event.message ?? ""] + event.chain.links.compactMap(\.name) + event.customKeys.map(\.value) + event.facets.map(\.value)
        for secret in ["Zk40a", "Zk40b", "Zk40c", "Zk40d", "Zk40e", "4111111111111111"] {
            #expect(!texts.contains { $0.contains(secret) }, "\(secret) in \(texts)")
        }
        #expect(event.chain.links[0].name == "bad token=[Filtered]")
        #expect(event.customKeys.map(\.key) == ["api_key", "X-Session", "shard", "note", "exception_chain"])
        #expect(event.customKeys[2].value == "eu-1")
        #expect(event.customKeys[4].value == "AuthError.authFailed - NetworkError.timeout", "errtriage's own keys are text")
        #expect(event.facets[1].value == "api-1")
        #expect(event.userID == "u1")
    }

    @Test func aComplaintLosesTheSecretsInItsWords() {
        var complaint = Complaint(complaintID: "c1", timestamp: Timestamp(seconds: 0), subject: "card 4111 1111 1111 1111",
                                  text: "I typed password=Zk41 and it failed with US14-LO43-AP7-NE8", codes: ["US14-LO43-AP7-NE8"])
        SecretScrubber.scrub(&complaint)
        #expect(complaint.text == "I typed password=[Filtered] and it failed with US14-LO43-AP7-NE8")
        #expect(complaint.subject == "card [Filtered]")
    }

    /// A parsed event: names at any depth, pairs, `{key, value}` objects, words where values are
    /// structured, text everywhere; what holds no secret is the same value.
    @Test func aParsedEventIsScrubbedByWhereEachValueSits() {
        let event: JSONValue = .object([
            ("event_id", .string("abc")),
            ("message", .string("login as bob with password=Zk50a")),
            ("tags", .object([("api_key", .string("Zk50b")), ("provider", .string("oauth")), ("shard", .string("eu"))])),
            ("extra", .object([("note", .string("the secret is Zk50c")), ("card", .number("4111111111111111"))])),
            ("request", .object([
                ("url", .string("https://shop.example/api/auth/login?token=Zk50d")),
                ("headers", .array([.array([.string("X-Api-Key"), .string("Zk50e")]), .array([.string("Referer"), .string("https://a.example/?sessionid=Zk50f")])])),
                ("data", .string("user=bob&password=Zk50g")),
            ])),
            ("breadcrumbs", .object([("values", .array([.object([
                ("category", .string("navigation")), ("message", .string("auth screen")),
                ("data", .object([("from", .string("/reset?token=Zk50h")), ("to", .string("/home"))])),
            ])]))])),
            ("custom_keys", .array([.object([("key", .string("session_token")), ("value", .string("Zk50i"))])])),
            ("user", .object([("id", .string("auth0|123")), ("email", .string("bob@example.com")), ("ip_address", .string("10.0.0.1"))])),
            ("session_id", .string("app-session-1")),
        ])
        let clean = SecretScrubber.scrub(event)
        let text = clean.serialized
        for n in "abcdefghi" { #expect(!text.contains("Zk50\(n)"), "Zk50\(n) in \(text)") }
        #expect(!text.contains("4111111111111111"))
        #expect(clean.at("request.url")?.text == "https://shop.example/api/auth/login?token=[Filtered]")
        #expect(clean.at("breadcrumbs")?["values"]?.elements.first?["message"]?.text == "auth screen", "free text keeps its words")
        #expect(clean.at("tags.shard")?.text == "eu")
        #expect(clean.at("tags.provider")?.text == "[Filtered]", "a structured value with a sensitive word goes whole")
        #expect(clean.at("user.id")?.text == "auth0|123")
        #expect(clean.at("user.email")?.text == "bob@example.com")
        #expect(clean.at("user.ip_address")?.text == "10.0.0.1")
        #expect(clean["session_id"]?.text == "app-session-1", "the app's own session id at the top")
        #expect(SecretScrubber.scrub(clean) == clean, "scrubbing twice changes nothing more")
        let plain: JSONValue = .object([("a", .array([.number("1"), .string("x"), .null]))])
        #expect(SecretScrubber.scrub(plain) == plain)
    }

    /// The payload API: bytes in, bytes out; names and strings read decoded (escapes, Go's
    /// `\u0026`), everything else byte for byte.
    @Test func payloadsAreReadAsDecodedValues() {
        func scrub(_ text: String) -> String? { PayloadScrubber.scrub(Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) } }
        #expect(scrub(#"{"extra":{"p\u0061ssword":"Zk60a"}}"#) == #"{"extra":{"p\u0061ssword":"[Filtered]"}}"#)
        #expect(scrub(#"{"request":{"query_string":"kind=8\u0026password=Zk60b"}}"#) == #"{"request":{"query_string":"kind=8&password=[Filtered]"}}"#)
        #expect(scrub(#"{"message":"token\u003dZk60c"}"#) == #"{"message":"token=[Filtered]"}"#)
        #expect(scrub(#"{"custom_keys":[{"value":"Zk60d","key":"api_key"},{"key":"shard","value":"eu"}]}"#)
                == #"{"custom_keys":[{"value":"[Filtered]","key":"api_key"},{"key":"shard","value":"eu"}]}"#)
        #expect(scrub(#"{"extra":{"card":4111111111111111,"n":1764283443123}}"#) == #"{"extra":{"card":"[Filtered]","n":1764283443123}}"#)
        #expect(scrub(#"{"session_id":"s1","user":{"session_id":"Zk60e"}}"#) == #"{"session_id":"s1","user":{"session_id":"[Filtered]"}}"#)
        let untouched = #"{"a" : [1, "x\"y", {"b": "bob@example.com"}], "c": "10.0.0.1"}"#
        #expect(scrub(untouched) == untouched)
    }

    /// Texts made of what the rules look for, a mebibyte each: read in one pass (a rule that
    /// looked ahead or back again for each would not finish), never out of bounds, and a second
    /// scrub changes nothing more.
    @Test func hostileTextsAreReadOnce() {
        let units = ["-----BEGIN ", "-----BEGIN RSA PRIVATE KEY-----", "password=", "password=\"", "token: {", "a@", "//a:b@",
                     "Bearer ", "4111 ", "078-05-", "%70assword=", "x=", ":", "\\\"", "'"]
        for unit in units {
            let text = String(repeating: unit, count: (1 << 20) / unit.utf8.count)
            let once = SecretScrubber.scrubText(text)
            #expect(SecretScrubber.scrubText(once) == once, "\(unit)")
            #expect(PayloadScrubber.scrub(Array("{\"m\":\(JSONValue.string(text).serialized)}".utf8)) != nil)
        }
        var random = SplitMixForTests(seed: 44)
        let alphabet = Array("pastwordkenBbr=:@/%\"'{}[]-0123456789 &;#\\".utf8)
        for _ in 0..<2_000 {
            let bytes = (0..<Int(random.next() % 80)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            let text = String(decoding: bytes, as: UTF8.self)
            let once = SecretScrubber.scrubText(text)
            _ = SecretScrubber.scrubValue(text, name: text, structured: true)
            _ = SecretScrubber.scrub(JSONValue.object([(text, .string(text)), ("tags", .array([.string(text), .string(text)]))]))
            _ = PayloadScrubber.scrub(Array("{\"k\":\(JSONValue.string(text).serialized)}".utf8))
            #expect(!once.isEmpty || text.isEmpty)
        }
    }
}

/// A small deterministic generator for the tests above.
struct SplitMixForTests {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
