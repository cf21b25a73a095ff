import Foundation
import Presentation

/// Standard output, the one way a command prints: text from the store and from the network is
/// untrusted, so everything printed passes `TextSanitizer.inert` on its way out, whatever
/// renderer made it (renderers sanitise too; this is the last gate, and the one a new command
/// cannot forget). JSON is printed `inertSerialized`, which this gate leaves as it is.
enum Stdout {
    static func print(_ text: String, terminator: String = "\n") {
        Swift.print(TextSanitizer.inert(text), terminator: terminator)
    }

    /// Whether standard output is a terminal (exports sanitise their data only then).
    static var isTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
}

/// Every `print` of this module is `Stdout.print`.
func print(_ text: String, terminator: String = "\n") {
    Stdout.print(text, terminator: terminator)
}
