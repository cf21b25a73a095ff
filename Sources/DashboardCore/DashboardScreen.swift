/// What the dashboard loop reads input from and draws on: the terminal, or a fake in tests
/// (bubbletea's `WithInput`/`WithOutput`).
public protocol DashboardScreen: AnyObject {
    /// The screen's size now.
    var size: Size { get }
    /// Whether block characters and wide text can be shown.
    var unicode: Bool { get }
    /// Whether colours are used.
    var color: Bool { get }
    /// Waits up to `timeoutMillis` (negative: forever) for input; nil on timeout or for ignored input.
    func nextEvent(timeoutMillis: Int32) -> TerminalEvent?
    /// Draws a frame.
    func draw(_ buffer: ScreenBuffer)
    /// Repaints everything from scratch (Ctrl-L).
    func forceRedraw()
    /// Puts text on the system clipboard where the terminal allows it.
    func copyToClipboard(_ text: String)
    /// Drops input typed but not yet read (curses' `flushinp`): what was typed into a prompt
    /// after it closed must not run as the dashboard's keys.
    func discardTypeahead()
    /// Gives the terminal to a program (the user's editor) until it ends, then takes it back and
    /// redraws: nil when it ran, else a sentence why it could not (or how it ended badly).
    func runWithTerminal(_ arguments: [String]) -> String?
}

extension DashboardScreen {
    /// Puts text on the system clipboard where the terminal allows it (OSC 52); a screen that cannot ignores it.
    public func copyToClipboard(_ text: String) {}

    /// Drops input typed but not yet read; a screen without a buffer of its own has none.
    public func discardTypeahead() {}

    /// A screen that is no terminal cannot lend one.
    public func runWithTerminal(_ arguments: [String]) -> String? { "This screen cannot run \(arguments.first ?? "a program")." }
}
