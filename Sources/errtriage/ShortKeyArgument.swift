import ArgumentParser
import TriageModel

/// A short key given on the command line, read into its canonical form when the command line is
/// parsed; anything else is refused there, with the exit code of every usage error.
struct ShortKeyArgument: ExpressibleByArgument {
    /// The key in canonical form, e.g. `US14-LO43-AP7-NE8`.
    let canonical: String

    /// The key (as a user may type it, `us14-lo43-ap7-ne8`: `ShortKey.quoted(_:)`), or nil
    /// when the text is not a short key.
    init?(argument: String) {
        guard let key = ShortKey.quoted(argument) else { return nil }
        canonical = key
    }

    /// The key; a text that is not one is refused with the sentence saying so.
    static func parse(_ text: String) throws -> ShortKeyArgument {
        guard let key = ShortKeyArgument(argument: text) else {
            throw ValidationError("not a short key (e.g. US14-LO43-AP7-NE8)")
        }
        return key
    }
}

extension TimeWindow: ExpressibleByArgument {
    /// The `--window` option's help, the same for every command that counts over a window (the parser lists the values).
    static let help = ArgumentHelp("The period counted, ending at --now.")
}
