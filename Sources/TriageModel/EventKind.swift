/// What an event was to the user: the app crashed, it handled the error (a non-fatal), or it
/// stopped answering (an ANR). Crash reporters list these apart first of all, and so does triage.
public enum EventKind: String, CaseIterable, Sendable, Codable, Comparable {
    /// `unhandled`: an error nothing caught that did not end the program — Python's uncaught
    /// exception in a worker thread of a server that keeps serving (Sentry's mechanism
    /// `threading` or `excepthook` on a server platform).
    case crash, nonFatal = "non-fatal", anr, unhandled

    /// Most severe first: a crash, then an ANR, then an unhandled error, then a non-fatal.
    public var severity: Int {
        switch self {
        case .crash: 4
        case .anr: 3
        case .unhandled: 2
        case .nonFatal: 1
        }
    }

    /// Orders by severity, the least severe first.
    public static func < (a: EventKind, b: EventKind) -> Bool { a.severity < b.severity }

    /// A badge for the list: `CRASH`, `ANR`, `UNHANDLED`, nothing for a non-fatal (the usual case).
    public var badge: String? {
        switch self {
        case .crash: "CRASH"
        case .anr: "ANR"
        case .unhandled: "UNHANDLED"
        case .nonFatal: nil
        }
    }

    /// Reads the names sources use: `crash`, `fatal`, `non-fatal`, `NON_FATAL`, `nonfatal`,
    /// `handled`, `anr`, `unhandled`; case, dashes and underscores ignored.
    public init?(source text: String) {
        let folded = String(text.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " })
        switch folded {
        case "crash", "fatal", "crashed": self = .crash
        case "unhandled": self = .unhandled
        case "nonfatal", "handled", "error": self = .nonFatal
        case "anr", "apphang", "hang": self = .anr
        default: return nil
        }
    }

    /// The more severe of two kinds, either of which may be missing.
    public static func worst(_ a: EventKind?, _ b: EventKind?) -> EventKind? {
        guard let a else { return b }
        guard let b else { return a }
        return max(a, b)
    }
}
