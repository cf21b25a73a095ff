import Foundation

/// The columns of the terminal a command writes to, for the outputs cut to fit it.
enum TerminalWidth {
    /// The width of the terminal on `descriptor` (its window size), else `COLUMNS`, else nil.
    static func of(_ descriptor: Int32) -> Int? {
        var size = winsize()
        if isatty(descriptor) == 1, ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        return nil
    }
}
