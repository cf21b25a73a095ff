/// Where an error was raised, as its stack trace tells it, in the parts that stay the same from one
/// release and machine to the next: the app's own frames by module and function, and the source
/// text of the line that raised it. Never line numbers or absolute paths, which move with every
/// edit above the line and with every checkout.
///
/// The frames are the app's (`in_app`) where the trace marks any, else all of them, as Sentry's
/// grouping reads them. A frame is named by its module (else its file, relative as the SDK gives
/// it, or the last component of an absolute one) and its function; the raising line is the
/// innermost of those frames' `context_line`, white space trimmed.
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

    /// The site in one line: `module.function` per frame, outermost first, then the raising line.
    public let text: String

    /// Nil where no frame names a place (no module, file or function anywhere).
    public init?(frames: [Frame]) {
        let chosen = frames.contains { $0.inApp == true } ? frames.filter { $0.inApp == true } : frames
        var places: [String] = []
        var line: String?
        for frame in chosen {
            let place = RaiseSite.place(frame)
            guard !place.isEmpty else { continue }
            places.append(place)
            line = frame.contextLine.map { $0.trimmingASCIIWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
        }
        guard !places.isEmpty else { return nil }
        text = places.joined(separator: " > ") + (line.map { " | " + $0 } ?? "")
    }

    /// A code for a link of `domain` raised here: the same type raised at the same place gives the
    /// same code on every machine and in every release (`StableHash`), in `MessageTemplate.derivedRange`.
    public func code(domain: String) -> Int {
        let hash = StableHash.value(domain + "\u{1F}site\u{1F}" + text)
        let range = MessageTemplate.derivedRange
        return range.lowerBound + Int(hash % UInt64(range.count))
    }

    /// `module.function`, each part that is known.
    static func place(_ frame: Frame) -> String {
        let owner = frame.module.flatMap { $0.isEmpty ? nil : $0 } ?? frame.file.flatMap(relativeFile)
        let function = frame.function.flatMap { $0.isEmpty ? nil : $0 }
        switch (owner, function) {
        case let (o?, f?): return o + "." + f
        case let (o?, nil): return o
        case let (nil, f?): return f
        default: return ""
        }
    }

    /// A file as a place: as given where relative (`lib/shop/billing.rb`), else its last
    /// component, since an absolute path names the machine as much as the file.
    static func relativeFile(_ file: String) -> String? {
        guard !file.isEmpty else { return nil }
        let absolute = file.hasPrefix("/") || file.hasPrefix("\\") || file.hasPrefix("~")
            || (file.count > 2 && file.dropFirst().first == ":")
            || file.contains("://")
        guard absolute else { return file }
        let last = file.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init)
        return last.flatMap { $0.isEmpty ? nil : $0 }
    }
}
