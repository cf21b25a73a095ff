import TriageModel

/// The one gate every string passes on its way out: the screen buffer, and the text and markdown of `report`,
/// `show` and the minutes.
///
/// Text from the store is untrusted: control characters and escape sequences become inert and
/// visible (`^[` for ESC, `^?` for DEL, `<U+202E>` for C1 controls, bidi overrides, zero-width
/// and other format characters), wide characters count two cells, and work stops as soon as the
/// visible width is used up, so a megabyte-long message costs no more than a short one.
public enum TextSanitizer {
    /// One cell-sized piece of sanitised text.
    public struct Glyph: Hashable, Sendable {
        public var character: Character
        /// 1 or 2 cells.
        public var width: Int

        /// A glyph of a width.
        public init(character: Character, width: Int) {
            self.character = character
            self.width = width
        }
    }

    /// The sanitised glyphs of `text` filling at most `maxWidth` cells; `truncated` when text was left over.
    public static func glyphs<S: StringProtocol>(_ text: S, unicode: Bool = true, maxWidth: Int = .max)
        -> (glyphs: [Glyph], width: Int, truncated: Bool)
    {
        var out: [Glyph] = []
        var width = 0
        guard maxWidth > 0 else { return ([], 0, !text.isEmpty) }
        for character in text {
            var pieces: [Glyph] = []
            if let ascii = character.asciiValue, ascii >= 0x20, ascii != 0x7F {
                pieces.append(Glyph(character: character, width: 1))
            } else {
                appendSanitized(character, unicode: unicode, to: &pieces)
            }
            for piece in pieces {
                if width + piece.width > maxWidth { return (out, width, true) }
                out.append(piece)
                width += piece.width
            }
        }
        return (out, width, false)
    }

    /// The sanitised text, cut to `maxWidth` cells.
    public static func sanitize(_ text: String, unicode: Bool = true, maxWidth: Int = .max) -> String {
        var result = ""
        for glyph in glyphs(text, unicode: unicode, maxWidth: maxWidth).glyphs { result.append(glyph.character) }
        return result
    }

    /// A whole output made inert for a terminal, its own line breaks and tabs kept: every other
    /// unsafe scalar shown as its code, as `sanitize` shows it; no width counted, nothing cut.
    /// The last gate of the command line's standard output and error (what a renderer missed).
    public static func inert(_ text: String) -> String {
        let scalars = text.unicodeScalars
        func unsafe(_ s: Unicode.Scalar) -> Bool { s != "\n" && s != "\t" && (s.value >= 0x7F || s.value < 0x20) && isUnsafe(s) }
        // Most output is clean: leave it as it is.
        guard scalars.contains(where: unsafe) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in scalars {
            if unsafe(scalar) { out.append(contentsOf: visibleCode(scalar).unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }

    /// The cells the sanitised text takes, counting no further than `limit`.
    public static func width(_ text: String, unicode: Bool = true, limit: Int = .max) -> Int {
        let result = glyphs(text, unicode: unicode, maxWidth: limit)
        return result.truncated ? limit : result.width
    }

    /// Whether a scalar must be shown as a code instead of itself.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        JSONString.isInertUnsafe(scalar)
    }

    /// Inert, visible text for an unsafe scalar: caret notation for C0 and DEL, `<U+XXXX>` otherwise.
    public static func visibleCode(_ scalar: Unicode.Scalar) -> String {
        let v = scalar.value
        if v < 0x20 { return "^" + String(Character(Unicode.Scalar(UInt8(v + 0x40)))) }
        if v == 0x7F { return "^?" }
        return "<U+" + hex(v) + ">"
    }

    static func hex(_ v: UInt32) -> String {
        let digits = String(v, radix: 16, uppercase: true)
        return digits.count >= 4 ? digits : String(repeating: "0", count: 4 - digits.count) + digits
    }

    private static func appendSanitized(_ character: Character, unicode: Bool, to out: inout [Glyph]) {
        let scalars = character.unicodeScalars
        let clean = scalars.allSatisfy { !isUnsafe($0) }
        if clean, let first = scalars.first {
            if !unicode {
                // Without UTF-8 the terminal cannot show it; keep the grid with one placeholder.
                out.append(Glyph(character: "?", width: 1))
                return
            }
            // A combining mark with nothing to combine with would take no cell; show its code instead.
            if isCombining(first) {
                for c in visibleCode(first) { out.append(Glyph(character: c, width: 1)) }
                return
            }
            out.append(Glyph(character: character, width: CharacterWidth.cells(of: character)))
            return
        }
        // Some scalar is unsafe: take the cluster apart and treat each scalar alone.
        for scalar in scalars {
            if isUnsafe(scalar) || isCombining(scalar) {
                for c in visibleCode(scalar) { out.append(Glyph(character: c, width: 1)) }
            } else if !unicode && !scalar.isASCII {
                out.append(Glyph(character: "?", width: 1))
            } else {
                let c = Character(scalar)
                out.append(Glyph(character: c, width: CharacterWidth.cells(of: c)))
            }
        }
    }

    static func isCombining(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return false
        }
    }
}
