import Presentation
import TriageModel

/// A one-line text prompt in the status line: what the text is for, the text being edited, and
/// why it was not taken. While open it takes every key; Enter submits it to the screen that opened
/// it, Esc cancels it.
public struct Prompt: Hashable, Sendable {
    /// What the entered text is for.
    public enum Purpose: Hashable, Sendable {
        /// Live filter text of the list.
        case filter
        /// The version an issue's fix ships in.
        case resolve(key: String)
        case note(key: String)
        case tracker(key: String)
        /// Who works on an issue.
        case assign(key: String)
        /// The domain the pivot groups by.
        case pivotDomain
        /// A grouping rule of issues just merged under `head`: its name, then its query.
        case rule(head: String)
    }

    public var purpose: Purpose
    /// The text being edited and its cursor.
    public var field: TextField
    /// Why the text was not taken (a filter that is not a query, a version that is not one).
    public var error: String?
    /// The text it opened with: Esc, or a filter that is not a query, puts the list back to it.
    public var original: String
    /// A suggestion shown selected, the field empty (the next version to resolve in, the link or
    /// assignee as they are): typing replaces it, Tab or → takes it to edit, Enter submits it,
    /// Backspace clears it.
    public var suggestion: String?

    /// A prompt with its text pre-filled and the cursor at the end.
    public init(purpose: Purpose, text: String = "") {
        self.purpose = purpose
        field = TextField(text)
        original = text
    }

    /// A prompt offering `suggestion` selected (none when it is empty).
    public init(purpose: Purpose, suggesting suggestion: String) {
        self.purpose = purpose
        field = TextField("")
        original = ""
        self.suggestion = suggestion.isEmpty ? nil : suggestion
    }

    /// The text entered so far (the suggestion, while it stands).
    public var text: String { suggestion ?? field.text }

    /// Edits the field for a key; a standing suggestion is replaced by what is typed, taken by Tab
    /// or →, and cleared by Backspace, Delete or Ctrl-U. False for a key that does not edit.
    mutating func edit(_ key: Key) -> Bool {
        guard let standing = suggestion else { return field.edit(key) }
        switch key {
        case .char:
            suggestion = nil
            return field.edit(key)
        case .tab, .right, .end, .ctrl("e"), .ctrl("f"):
            suggestion = nil
            field = TextField(standing)
            return true
        case .backspace, .delete, .ctrl("u"), .ctrl("d"), .ctrl("k"):
            suggestion = nil
            return true
        default:
            return false
        }
    }

    /// The label before the text.
    var label: String {
        switch purpose {
        case .filter: "/"
        case .resolve(let key): "Resolve \(key) in version: "
        case .note(let key): "Note on \(key): "
        case .tracker(let key): "Tracker link for \(key) (empty clears): "
        case .assign(let key): "Assign \(key) to (empty clears): "
        case .pivotDomain: "Pivot by domain (e.g. TolokaBackendError; empty: root cause): "
        case .rule: "Rule (NAME QUERY; Esc: none): "
        }
    }

    /// Draws the label and the text, scrolled so that the cursor stays in view.
    func render(row: Int, into buffer: inout ScreenBuffer) {
        let width = buffer.size.cols
        let labelWidth = buffer.write(label, row: row, col: 0, width: max(1, width - 12), style: .prompt)
        let available = width - labelWidth - 1
        guard available > 0 else { return }
        if let suggestion {
            // Selected whole, as a text field shows text that typing replaces.
            buffer.write(suggestion, row: row, col: labelWidth, width: available, style: .selected)
            return
        }
        let characters = Array(field.text)
        let cursor = min(field.cursor, characters.count)
        var start = 0
        while start < cursor,
              TextSanitizer.width(String(characters[start..<cursor]), unicode: buffer.unicode, limit: available + 1) > available {
            start += 1
        }
        let before = String(characters[start..<cursor])
        let used = buffer.write(before, row: row, col: labelWidth, width: available, style: .prompt, ellipsis: false)
        buffer.write(String(characters[cursor...]), row: row, col: labelWidth + used, width: available - used, style: .prompt)
        let cursorCol = labelWidth + used
        if cursorCol < width { buffer.paint(row: row, col: cursorCol, width: 1, style: .cursor) }
    }
}

/// One line of text being edited, with the keys of a shell's line editor.
public struct TextField: Hashable, Sendable {
    public private(set) var text: String
    /// The cursor, in characters from the start of `text`.
    public private(set) var cursor: Int

    /// A field holding `text`, the cursor at its end.
    public init(_ text: String = "") {
        self.text = text
        cursor = text.count
    }

    /// Edits the text for a key: characters go in at the cursor, Backspace and Delete take one out,
    /// the arrows, Home, End and Ctrl-B/F/A/E move, Ctrl-U and Ctrl-K cut to either end. False for
    /// a key that does not edit.
    mutating func edit(_ key: Key) -> Bool {
        var chars = Array(text)
        var at = max(0, min(cursor, chars.count))
        switch key {
        case .char(let c):
            chars.insert(c, at: at)
            at += 1
        case .backspace:
            if at > 0 {
                chars.remove(at: at - 1)
                at -= 1
            }
        case .delete, .ctrl("d"):
            if at < chars.count { chars.remove(at: at) }
        case .left, .ctrl("b"): at = max(0, at - 1)
        case .right, .ctrl("f"): at = min(chars.count, at + 1)
        case .home, .ctrl("a"): at = 0
        case .end, .ctrl("e"): at = chars.count
        case .ctrl("u"):
            chars.removeSubrange(0..<at)
            at = 0
        case .ctrl("k"):
            chars.removeSubrange(at...)
        default:
            return false
        }
        text = String(chars)
        cursor = at
        return true
    }
}

extension DashboardState {
    /// Edits the open prompt; Enter submits it, Esc cancels it. What the text means is the
    /// purpose's: the list's filter, a mark, the pivot's domain.
    mutating func promptKey(_ key: Key) -> [DashboardEffect] {
        guard var edit = prompt else { return [] }
        switch key {
        case .enter:
            // A filter that is not a query stays open, its error showing, until fixed or cancelled.
            if edit.error != nil, edit.purpose == .filter { return [] }
            prompt = nil
            return submit(edit)
        case .escape:
            prompt = nil
            if edit.purpose == .filter { return ListScreen.filterCancelled(edit, &self) }
            if case .rule = edit.purpose {
                message = StatusMessage("No rule: later issues like these stay apart.")
            } else if edit.purpose != .pivotDomain {
                message = StatusMessage("Cancelled.")
            }
            return []
        default:
            let before = edit.text
            guard edit.edit(key) else { return [] }
            prompt = edit
            guard edit.purpose == .filter, edit.text != before else { return [] }
            return ListScreen.filterEdited(edit, &self)
        }
    }

    /// Acts on a submitted prompt.
    mutating func submit(_ prompt: Prompt) -> [DashboardEffect] {
        let text = prompt.text.trimmedSpaces
        switch prompt.purpose {
        case .filter: return []
        case .pivotDomain: return PivotScreen.changeLayer(text.isEmpty ? .root : .domain(text), &self)
        case .resolve, .note, .tracker, .assign: return submitMark(prompt, text: text)
        case .rule: return ListScreen.submitRule(prompt, text: text, &self)
        }
    }

    /// Opens a submitted prompt again, its text kept, with why it was not taken above it.
    mutating func reopen(_ refused: Prompt, because why: String) -> [DashboardEffect] {
        var again = refused
        again.error = why
        prompt = again
        return []
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    var trimmedSpaces: String {
        let isSpace = { (c: Character) in c == " " || c == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start...end])
    }
}
