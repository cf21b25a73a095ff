import Testing
import TriageModel

/// Secrets never reach the store: the scrubber filters what Sentry's default data scrubber does,
/// and keeps every other byte of the payload as it came.
@Suite struct PayloadScrubberTests {
    static func scrub(_ text: String) -> String? {
        PayloadScrubber.scrub(Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func headersAsAnObjectLoseAuthorizationAndCookiesInAnyCase() {
        let json = #"{"request":{"headers":{"Authorization":"Bearer s3cr3t","cookie":"sid=abc","Set-Cookie":"x=1","Accept":"*/*"}}}"#
        #expect(Self.scrub(json) == #"{"request":{"headers":{"Authorization":"[Filtered]","cookie":"[Filtered]","Set-Cookie":"[Filtered]","Accept":"*/*"}}}"#)
    }

    @Test func headersAsPairsLoseTheirSecretValues() {
        let json = #"{"headers":[["AUTHORIZATION","Basic Zm9v"],["Host","api"]]}"#
        #expect(Self.scrub(json) == #"{"headers":[["AUTHORIZATION","[Filtered]"],["Host","api"]]}"#)
    }

    @Test func valuesUnderSecretNamesAreFilteredWhateverTheyHold() {
        let json = #"{"extra":{"db_password":{"a":[1,2]},"API_KEY":42,"user_token":null,"my_secret":"x","name":"kept"}}"#
        #expect(Self.scrub(json) == #"{"extra":{"db_password":"[Filtered]","API_KEY":"[Filtered]","user_token":"[Filtered]","my_secret":"[Filtered]","name":"kept"}}"#)
    }

    @Test func queryStringsAndURLQueriesLoseTheValuesOfSecretNames() {
        let json = #"{"request":{"url":"https://a.example/pay?id=7&access_token=abc","query_string":"page=2&apikey=k1&q=x"}}"#
        #expect(Self.scrub(json) == #"{"request":{"url":"https://a.example/pay?id=7&access_token=[Filtered]","query_string":"page=2&apikey=[Filtered]&q=x"}}"#)
    }

    @Test func everyOtherByteIsKeptAsItCame() {
        let json = "{ \"a\" : [ 1 , 2.5e3 , true , null , \"\\\"quoted\\\" \\u00e9\" ] ,\n \"b\":{}, \"c\":[] }"
        #expect(Self.scrub(json) == json)
    }

    @Test func textThatIsNotOneJSONValueIsNotKept() {
        #expect(Self.scrub("{\"password\": \"x\"") == nil)
        #expect(Self.scrub("not json") == nil)
        #expect(Self.scrub("{} {}") == nil)
        #expect(Self.scrub(String(repeating: "[", count: 600) + String(repeating: "]", count: 600)) == nil)
    }
}
