/// A key press, decoded by the terminal.
public enum Key: Hashable, Sendable {
    case char(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, escape, backspace, tab, backTab, delete
    /// Control plus a lowercase letter, e.g. `.ctrl("l")`.
    case ctrl(Character)
    case function(Int)
}

extension Key {
    /// How a sentence names a key a screen does not take; nil for keys it passes over silently.
    var name: String? {
        switch self {
        case .char(let c): c == " " ? "Space" : String(c)
        case .enter: "Enter"
        case .tab: "Tab"
        default: nil
        }
    }
}

/// A mouse report at a screen cell (zero-based).
public struct MouseEvent: Hashable, Sendable {
    /// What the mouse did.
    public enum Kind: Hashable, Sendable {
        case click, doubleClick, wheelUp, wheelDown
    }

    public var row: Int
    public var col: Int
    public var kind: Kind

    /// A mouse report at a zero-based row and column.
    public init(row: Int, col: Int, kind: Kind) {
        self.row = row
        self.col = col
        self.kind = kind
    }
}
