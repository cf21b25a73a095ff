import Testing
@testable import TriageStore

/// The store's custom-key column reads back what it wrote, whatever the text holds.
@Suite struct CustomKeysTests {
    @Test func everyCharacterReadsBackInOrder() {
        let pairs: [(key: String, value: String)] = [
            ("quote\"and\\backslash", "line\nbreak\rcr\ttab"), ("\u{1B}[31m", "\u{0}\u{9B}\u{2028}\u{2029}"),
            ("漢字", "🙂 \u{FEFF}"), ("", ""),
        ]
        let back = CustomKeys.decode(CustomKeys.encode(pairs))
        #expect(back.map(\.key) == pairs.map(\.key))
        #expect(back.map(\.value) == pairs.map(\.value))
    }

    @Test func aDamagedColumnGivesThePairsBeforeTheDamage() {
        #expect(CustomKeys.decode(#"{"a":"1","b":"\q"}"#).map(\.key) == ["a"])
        #expect(CustomKeys.decode(#"{"a":"1","b":"unterminated"#).map(\.key) == ["a"])
        #expect(CustomKeys.decode("not json").isEmpty)
    }
}
