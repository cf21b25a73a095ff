import Presentation
import Testing

/// Untrusted text becomes inert and visible, and keeps the grid.
@Suite struct TextSanitizerTests {
    @Test func escapeBecomesCaretNotation() {
        #expect(TextSanitizer.sanitize("a\u{1B}b") == "a^[b")
    }

    @Test func csiSequencesAreInert() {
        #expect(TextSanitizer.sanitize("\u{1B}[2J\u{1B}[31mred") == "^[[2J^[[31mred")
    }

    @Test func oscSequencesAreInert() {
        #expect(TextSanitizer.sanitize("\u{1B}]0;pwned\u{07}x") == "^[]0;pwned^Gx")
        #expect(TextSanitizer.sanitize("\u{1B}]8;;http://evil\u{1B}\\link") == "^[]8;;http://evil^[\\link")
    }

    @Test func c0ControlsAndDelAreShown() {
        #expect(TextSanitizer.sanitize("\u{00}\u{07}\u{08}\t\n\r\u{7F}") == "^@^G^H^I^J^M^?")
    }

    @Test func crlfIsTwoControls() {
        #expect(TextSanitizer.sanitize("a\r\nb") == "a^M^Jb")
    }

    @Test func c1ControlsAreShownAsCodes() {
        #expect(TextSanitizer.sanitize("\u{9B}31m\u{85}") == "<U+009B>31m<U+0085>")
    }

    @Test func bidiOverridesAndIsolatesAreShown() {
        #expect(TextSanitizer.sanitize("abc\u{202E}fed\u{202C}") == "abc<U+202E>fed<U+202C>")
        #expect(TextSanitizer.sanitize("\u{2066}x\u{2069}") == "<U+2066>x<U+2069>")
    }

    @Test func zeroWidthCharactersAreShown() {
        #expect(TextSanitizer.sanitize("a\u{200B}b\u{FEFF}c\u{2060}") == "a<U+200B>b<U+FEFF>c<U+2060>")
    }

    @Test func aLoneCombiningMarkIsShown() {
        #expect(TextSanitizer.sanitize("\u{301}x") == "<U+0301>x")
    }

    @Test func accentedLettersStayAndTakeOneCell() {
        #expect(TextSanitizer.sanitize("cafe\u{301}") == "cafe\u{301}")
        #expect(TextSanitizer.width("cafe\u{301}") == 4)
    }

    @Test func cjkTakesTwoCells() {
        #expect(TextSanitizer.width("日本語") == 6)
        #expect(TextSanitizer.width("ｶﾀｶﾅ") == 4)
    }

    @Test func emojiTakeTwoCells() {
        #expect(TextSanitizer.width("🔥") == 2)
        #expect(TextSanitizer.width("👍🏽") == 2)
        #expect(TextSanitizer.width("❤️") == 2)
    }

    @Test func asciiModeReplacesNonASCII() {
        #expect(TextSanitizer.sanitize("naïve 日本", unicode: false) == "na?ve ??")
    }

    @Test func widthStopsAtTheLimit() {
        let result = TextSanitizer.glyphs("日本語テキスト", maxWidth: 5)
        #expect(result.width == 4)
        #expect(result.truncated)
    }

    @Test func aMegabyteStringIsCutEarly() {
        let huge = String(repeating: "\u{1B}[31m日本x", count: 150_000)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            #expect(Format.fit(huge, 200).hasSuffix("…"))
        }
        #expect(elapsed < .milliseconds(50))
    }
}

/// The command line's last gate: a whole output made inert, its line breaks and tabs kept.
@Suite struct InertOutputTests {
    @Test func controlsAndFormatCharactersShowAsCodesAndLineBreaksStay() {
        let out = TextSanitizer.inert("3\u{1B}]0;PWNED\u{07}\tnext\nline\u{9B}31m\u{202E}evil\u{200B}\r")
        #expect(out == "3^[]0;PWNED^G\tnext\nline<U+009B>31m<U+202E>evil<U+200B>^M")
        #expect(TextSanitizer.inert("clean — ≈ ▁▂▃ 界") == "clean — ≈ ▁▂▃ 界")
    }
}
