import Presentation
import Testing
import TriageImport
import TriageModel

/// JSON that commands print: what a terminal would act on is escaped, the value kept exactly.
@Suite struct InertJSONTests {
    /// JSON for a terminal escapes what would act there and keeps the value exactly.
    @Test func inertJSONEscapesBidiAndFormatCharactersAndKeepsTheValue() throws {
        let value = JSONValue.object([("v", .string("a\u{202E}b\u{200B}c\u{9B}d\u{E0001}e界"))])
        let json = value.inertSerialized
        #expect(json == #"{"v":"a\u202eb\u200bc\u009bd\udb40\udc01e界"}"#)
        #expect(try JSONParser.parse(Array(json.utf8)) == value)
        #expect(TextSanitizer.inert(json) == json)
        // Ids hashed from `serialized` stay what they were.
        #expect(value.serialized == "{\"v\":\"a\u{202E}b\u{200B}c\\u009bd\u{E0001}e界\"}")
    }
}
