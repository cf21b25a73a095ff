/// Where an error was raised, as its stack trace tells it, in the parts that stay the same from one
/// release, machine and caller to the next: the innermost of the app's frames, by module and
/// function, and the source text of its line. Never line numbers or absolute paths, which move with
/// every edit above the line and with every checkout, and never the frames that led there: one
/// failure reached from a request handler and from a worker is raised at one place.
///
/// The frames are the app's (`in_app`) where the trace marks any, else all of them, as Sentry's
/// grouping reads them. A frame is named by its module (else its file, relative as the SDK gives
/// it, or the last component of an absolute one) and its function; the raising line is that
/// frame's `context_line`, white space trimmed. Stores made before schema 21 read the whole path
/// of the app's frames instead (`init(pathOf:)`), which their keys' former chains are worked out by.
public struct RaiseSite: Hashable, Sendable {
    /// One frame of a stack trace, as far as a raise site reads it.
    public struct Frame: Hashable, Sendable {
        public var module: String?
        public var function: String?
        public var file: String?
        public var contextLine: String?
        public var inApp: Bool?

        public init(module: String? = nil, function: String? = nil, file: String? = nil, contextLine: String? = nil, inApp: Bool? = nil) {
            self.module = module
            self.function = function
            self.file = file
            self.contextLine = contextLine
            self.inApp = inApp
        }
    }

    /// The site in one line: the raising frame's `module.function`, then the raising line.
    public let text: String

    /// Nil where no frame names a place (no module, file or function anywhere).
    public init?<Frames: Collection>(frames: Frames) where Frames.Element == Frame {
        let appOnly = frames.contains { $0.inApp == true }
        self.init(chosen: frames.lazy.filter { !appOnly || $0.inApp == true })
    }

    /// The site of frames already chosen (the app's, or all of them where none is marked), oldest first:
    /// the innermost that names a place.
    public init?<Frames: Sequence>(chosen frames: Frames) where Frames.Element == Frame {
        var innermost: Frame?
        for frame in frames where RaiseSite.names(frame) { innermost = frame }
        guard let innermost else { return nil }
        var text = ""
        _ = RaiseSite.place(innermost, into: &text)
        self.init(text: text, line: innermost.contextLine)
    }

    /// The site as grouping read it before schema 21: every chosen frame that names a place,
    /// outermost first (`module.function > module.function`), then the innermost one's line.
    public init?<Frames: Sequence>(pathOf frames: Frames) where Frames.Element == Frame {
        var text = ""
        var line: String?
        for frame in frames {
            guard RaiseSite.place(frame, into: &text) else { continue }
            line = frame.contextLine
        }
        self.init(text: text, line: line)
    }

    private init?(text: String, line: String?) {
        var text = text
        guard !text.isEmpty else { return nil }
        if let line = line?.trimmingASCIIWhitespace(), !line.isEmpty {
            text += " | "
            text += line
        }
        self.text = text
    }

    /// A code for a link of `domain` raised here: the same type raised at the same place gives the
    /// same code on every machine and in every release (`StableHash`), in `MessageTemplate.derivedRange`.
    public func code(domain: String) -> Int {
        let hash = StableHash.value(domain + "\u{1F}site\u{1F}" + text)
        let range = MessageTemplate.derivedRange
        return range.lowerBound + Int(hash % UInt64(range.count))
    }

    /// Whether the frame names a place: a module, a file or a function.
    static func names(_ frame: Frame) -> Bool {
        frame.module?.isEmpty == false || frame.function?.isEmpty == false || frame.file.flatMap(relativeFile) != nil
    }

    /// Appends `module.function`, each part that is known, after ` > ` where the text has a place
    /// already; false where the frame names none.
    static func place(_ frame: Frame, into text: inout String) -> Bool {
        let owner = frame.module.flatMap { $0.isEmpty ? nil : $0 } ?? frame.file.flatMap(relativeFile)
        let function = frame.function.flatMap { $0.isEmpty ? nil : $0 }
        guard owner != nil || function != nil else { return false }
        if !text.isEmpty { text += " > " }
        if let owner { text += owner }
        if owner != nil, function != nil { text += "." }
        if let function { text += function }
        return true
    }

    /// A file as a place: as given where relative (`lib/shop/billing.rb`), else its last
    /// component, since an absolute path names the machine as much as the file.
    static func relativeFile(_ file: String) -> String? {
        let b = file.utf8
        guard let first = b.first else { return nil }
        let slash = UInt8(ascii: "/"), backslash = UInt8(ascii: "\\")
        var absolute = first == slash || first == backslash || first == UInt8(ascii: "~")
        if !absolute, b.count > 2, b[b.index(after: b.startIndex)] == UInt8(ascii: ":") { absolute = true }
        if !absolute, b.contains(UInt8(ascii: ":")) { absolute = file.contains("://") }
        guard absolute else { return file }
        guard let cut = b.lastIndex(where: { $0 == slash || $0 == backslash }) else { return file }
        let last = Substring(b[b.index(after: cut)...])
        return last.isEmpty ? nil : String(last)
    }
}
