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
            if edit.error != nil { return [] }
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
            return mark(key, .status(.resolved, version: text.isEmpty ? nil : text))
        case .note(let key):
            guard !text.isEmpty else {
                message = StatusMessage("Empty note: nothing added.")
                return []
            }
            return mark(key, .note(text))
        case .tracker(let key):
            return mark(key, .tracker(text.isEmpty ? nil : text))
        case .assign(let key):
            return mark(key, .assignee(text.isEmpty ? nil : text))
        case .pivotDomain:
            return changeLayer(text.isEmpty ? .root : .domain(text))
        }
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
