import Foundation
import CNcursesw
import DashboardCore

/// The curses backend: reads keys, mouse and resizes, and draws screen buffers, writing only changed cells.
public final class TerminalScreen: DashboardScreen {
    /// Whether the locale is UTF-8, so block characters and wide text can be shown.
    public let unicode: Bool
    /// Whether colours are used (the terminal has them and `NO_COLOR` is not set).
    public let color: Bool

    private let palette: StylePalette
    private var last: ScreenBuffer?
    private var closed = false

    /// Why the terminal cannot show the dashboard.
    public struct Unusable: Error, CustomStringConvertible {
        public var description: String
    }

    /// Enters curses mode: raw keys, no echo, keypad, mouse, short ESC delay, hidden cursor, colours.
    /// Throws, having changed nothing on the screen, when TERM is unset, unknown, or names a
    /// terminal that cannot move the cursor.
    public init() throws(Unusable) {
        setlocale(LC_ALL, "")
        unicode = errtriage_locale_is_utf8() != 0
        let term = getenv("TERM").map { String(cString: $0) } ?? ""
        switch errtriage_start_screen() {
        case 0: break
        case 1: throw Unusable(description: "TERM is not set, so the dashboard cannot tell what the terminal can do")
        case 2: throw Unusable(description: "the terminal type TERM=\(term) is unknown to this system's terminfo")
        default: throw Unusable(description: "the terminal TERM=\(term) cannot move the cursor, which the dashboard needs")
        }
        errtriage_unblock_terminal_signals()
        errtriage_set_screen_active(1)
        errtriage_install_restore_handlers()
        raw()
        noecho()
        nonl()
        keypad(errtriage_stdscr(), true)
        set_escdelay(25)
        curs_set(0)
        let mask = errtriage_mouse_click() | errtriage_mouse_double_click() | errtriage_mouse_wheel_up()
            | errtriage_mouse_wheel_down()
        mousemask(mask, nil)
        mouseinterval(200)
        let noColor = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
        var useColor = false
        if !noColor, has_colors() {
            start_color()
            use_default_colors()
            useColor = true
        }
        color = useColor
        palette = StylePalette(color: useColor)
    }

    deinit { close() }

    /// The terminal's size now.
    public var size: Size { Size(rows: Int(errtriage_rows()), cols: Int(errtriage_cols())) }

    /// How often a wait looks at the terminal's size. Curses learns of a resize from SIGWINCH; the
    /// size is also read from the kernel so that a missed signal never leaves a stale layout.
    static let resizeCheckMillis: Int32 = 40

    /// Waits up to `timeoutMillis` (negative: forever) for input; nil on timeout or for ignored input.
    public func nextEvent(timeoutMillis: Int32) -> TerminalEvent? {
        var waited: Int32 = 0
        while true {
            if let resized = resizeIfChanged() { return resized }
            let slice = timeoutMillis < 0 ? TerminalScreen.resizeCheckMillis
                : min(TerminalScreen.resizeCheckMillis, max(0, timeoutMillis - waited))
            wtimeout(errtriage_stdscr(), slice)
            var code: wint_t = 0
            let result = wget_wch(errtriage_stdscr(), &code)
            if result != ERR { return event(result: result, code: code) }
            waited += slice
            if timeoutMillis >= 0, waited >= timeoutMillis { return resizeIfChanged() }
        }
    }

    /// A resize event when the kernel's size differs from curses', after telling curses.
    private func resizeIfChanged() -> TerminalEvent? {
        var rows: Int32 = 0, cols: Int32 = 0
        guard errtriage_winsize(&rows, &cols) != 0, rows != errtriage_rows() || cols != errtriage_cols() else { return nil }
        resizeterm(rows, cols)
        return .resize(size)
    }

    private func event(result: Int32, code: wint_t) -> TerminalEvent? {
        if result == KEY_CODE_YES {
            let key = Int32(bitPattern: code)
            if key == KEY_RESIZE { return .resize(size) }
            if key == KEY_MOUSE { return mouseEvent() }
            return KeyDecoder.functionKey(key).map(TerminalEvent.key)
        }
        return KeyDecoder.character(UInt32(code)).map(TerminalEvent.key)
    }

    private func mouseEvent() -> TerminalEvent? {
        var event = MEVENT()
        guard getmouse(&event) == OK else { return nil }
        let kind: MouseEvent.Kind
        if event.bstate & errtriage_mouse_double_click() != 0 {
            kind = .doubleClick
        } else if event.bstate & errtriage_mouse_click() != 0 {
            kind = .click
        } else if event.bstate & errtriage_mouse_wheel_up() != 0 {
            kind = .wheelUp
        } else if errtriage_mouse_wheel_down() != 0, event.bstate & errtriage_mouse_wheel_down() != 0 {
            kind = .wheelDown
        } else {
            return nil
        }
        return .mouse(MouseEvent(row: Int(event.y), col: Int(event.x), kind: kind))
    }

    /// Draws the cells that changed since the last frame, then refreshes.
    public func draw(_ buffer: ScreenBuffer) {
        guard !closed else { return }
        if last?.size != buffer.size { werase(errtriage_stdscr()) }
        for run in buffer.changes(since: last) {
            var col = run.col
            for cell in run.cells {
                if !cell.isContinuation { put(cell, row: run.row, col: col) }
                col += 1
            }
        }
        wrefresh(errtriage_stdscr())
        last = buffer
    }

    /// Repaints everything from scratch (Ctrl-L): clears the terminal and draws the last frame again.
    /// Sends the text to the terminal's clipboard with OSC 52; terminals that do not take it ignore the sequence.
    public func copyToClipboard(_ text: String) {
        guard !closed else { return }
        let sequence = "\u{1B}]52;c;" + Data(text.utf8).base64EncodedString() + "\u{07}"
        FileHandle.standardOutput.write(Data(sequence.utf8))
    }

    public func discardTypeahead() {
        flushinp()
    }

    public func forceRedraw() {
        guard !closed else { return }
        wclear(errtriage_stdscr())
        if let frame = last {
            last = nil
            draw(frame)
        } else {
            wrefresh(errtriage_stdscr())
        }
    }

    /// Leaves curses (`endwin`), runs the program with the terminal, and comes back: curses' modes
    /// again, the whole frame redrawn, as lazygit and tig do around an editor.
    public func runWithTerminal(_ arguments: [String]) -> String? {
        guard !closed, let program = arguments.first else { return "The terminal is closed." }
        def_prog_mode()
        endwin()
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let status = argv.withUnsafeBufferPointer { errtriage_run_program($0.baseAddress!) }
        reset_prog_mode()
        keypad(errtriage_stdscr(), true)
        curs_set(0)
        let mask = errtriage_mouse_click() | errtriage_mouse_double_click() | errtriage_mouse_wheel_up() | errtriage_mouse_wheel_down()
        mousemask(mask, nil)
        forceRedraw()
        if status < 0 { return "Cannot run \(program): \(String(cString: strerror(-status)))." }
        if status & 0x7F != 0 { return "\(program) ended by signal \(status & 0x7F)." }
        let code = (status >> 8) & 0xFF
        if code == 127 { return "Cannot run \(program): not found (check $VISUAL / $EDITOR)." }
        return code == 0 ? nil : "\(program) exited with status \(code)."
    }

    /// Leaves curses mode and gives the terminal back; safe to call more than once.
    public func close() {
        guard !closed else { return }
        closed = true
        errtriage_restore_terminal()
    }

    private func put(_ cell: Cell, row: Int, col: Int) {
        // A cell holds one spacing character and at most three combining ones, as curses allows.
        var text = cell.character.unicodeScalars.prefix(4).map { wchar_t(bitPattern: $0.value) }
        text.append(0)
        let look = palette.look(cell.style)
        text.withUnsafeBufferPointer { pointer in
            _ = errtriage_put_cell(Int32(row), Int32(col), pointer.baseAddress, look.attrs, look.pair)
        }
    }
}
