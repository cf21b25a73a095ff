import TriageModel

extension DashboardState {
    /// Edits the open prompt; Enter submits it, Esc cancels it (a filter goes back to what it was when the prompt opened).
    mutating func promptKey(_ key: Key) -> [DashboardEffect] {
        guard var edit = prompt else { return [] }
        var chars = Array(edit.text)
        var cursor = max(0, min(edit.cursor, chars.count))
        switch key {
        case .enter:
            // A filter that is not a query stays open, its error showing, until fixed or cancelled.
            if edit.error != nil, edit.purpose == .filter { return [] }
            prompt = nil
            return submit(edit)
        case .escape:
            prompt = nil
            if edit.purpose == .filter, query.text != edit.original { return changeQuery { $0.text = edit.original } }
            if edit.purpose != .filter, edit.purpose != .pivotDomain { message = StatusMessage("Cancelled.") }
            return []
        case .char(let c):
            chars.insert(c, at: cursor)
            cursor += 1
        case .backspace:
            if cursor > 0 {
                chars.remove(at: cursor - 1)
                cursor -= 1
            }
        case .delete, .ctrl("d"):
            if cursor < chars.count { chars.remove(at: cursor) }
        case .left, .ctrl("b"): cursor = max(0, cursor - 1)
        case .right, .ctrl("f"): cursor = min(chars.count, cursor + 1)
        case .home, .ctrl("a"): cursor = 0
        case .end, .ctrl("e"): cursor = chars.count
        case .ctrl("u"):
            chars.removeSubrange(0..<cursor)
            cursor = 0
        case .ctrl("k"):
            chars.removeSubrange(cursor...)
        default:
            return []
        }
        let changed = String(chars) != edit.text
        edit.text = String(chars)
        edit.cursor = cursor
        prompt = edit
        guard edit.purpose == .filter, changed else { return [] }
        do {
            _ = try SearchQuery.parse(edit.text)
            prompt?.error = nil
            return changeQuery { $0.text = edit.text }
        } catch {
            // Not a query (yet): the list shows what it showed before the prompt, not a half-typed word's matches.
            prompt?.error = error.description
            return query.text == edit.original ? [] : changeQuery { $0.text = edit.original }
        }
    }

    /// Acts on a submitted prompt.
    mutating func submit(_ prompt: Prompt) -> [DashboardEffect] {
        let text = prompt.text.trimmedSpaces
        switch prompt.purpose {
        case .filter:
            return []
        case .resolve(let key):
            if !text.isEmpty, !Self.looksLikeVersion(text) {
                return reopen(prompt, because: "\"\(text)\" is not a version (like 1.14 or 1.14.2 (412)); empty: no version, Esc cancels")
            }
            return mark(key, .status(.resolved, version: text.isEmpty ? nil : text))
        case .note(let key):
            guard !text.isEmpty else {
                message = StatusMessage("Empty note: nothing added.")
                return []
            }
            return mark(key, .note(text))
        case .tracker(let key):
            if !text.isEmpty, !Self.looksLikeLink(text) {
                return reopen(prompt, because: "\"\(text)\" is not a link (like https://tracker.example.com/MOB-1); empty clears, Esc cancels")
            }
            return mark(key, .tracker(text.isEmpty ? nil : text))
        case .assign(let key):
            return mark(key, .assignee(text.isEmpty ? nil : text))
        case .pivotDomain:
            return changeLayer(text.isEmpty ? .root : .domain(text))
        }
    }
}

extension DashboardState {
    /// Opens a submitted prompt again, its text kept, with why it was not taken above it.
    mutating func reopen(_ refused: Prompt, because why: String) -> [DashboardEffect] {
        var again = refused
        again.error = why
        prompt = again
        return []
    }

    /// A fix version: a version errtriage can order (`1.14`, `v2.0`, `1.7 (2)`), no free text.
    static func looksLikeVersion(_ text: String) -> Bool {
        AppVersion(text) != nil && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || ".-+() ".contains($0)) }
            && (text.first?.isNumber == true || text.first == "v" || text.first == "V")
    }

    /// A tracker link: `scheme://host…` without spaces.
    static func looksLikeLink(_ text: String) -> Bool {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !text.contains(" "), parts[1].hasPrefix("//"), parts[1].count > 2 else { return false }
        return !parts[0].isEmpty && parts[0].allSatisfy { $0.isASCII && $0.isLetter }
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
