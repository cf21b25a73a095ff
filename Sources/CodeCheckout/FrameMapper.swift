import Foundation
import TriageModel

/// Which file of a checkout a frame names, from what its SDK wrote: a relative `filename` as it
/// stands, else (through the path map first) the longest ending of `abs_path`, of `filename` or of
/// the module's path that names a tracked file. An ending of one name only (`models.py`) counts
/// only where it is the tracked file's whole path, so that a library's `models.py` is not taken
/// for the app's `shop/models.py`; two files that fit as well are ambiguous, and say so.
public struct FrameMapper: Sendable {
    /// The checkout's tracked files, relative to its root.
    public let files: Set<String>
    public let pathMaps: [PathMapping]
    /// Tracked files by their last name.
    let byName: [Substring: [[Substring]]]

    public init<Files: Sequence>(files: Files, pathMaps: [PathMapping] = []) where Files.Element == String {
        self.files = Set(files)
        self.pathMaps = pathMaps
        var byName: [Substring: [[Substring]]] = [:]
        for file in self.files {
            let parts = file.split(separator: "/")
            if let last = parts.last { byName[last, default: []].append(parts) }
        }
        self.byName = byName
    }

    /// Where a frame maps to.
    public enum Mapping: Hashable, Sendable {
        /// A tracked file, and what named it (`filename`, `abs_path`, `module`, `--path-map`).
        case file(String, via: String)
        /// None: the sentence says why.
        case none(String)

        public var path: String? {
            if case .file(let path, _) = self { return path }
            return nil
        }
    }

    public func map(_ frame: EventFrame) -> Mapping {
        let filename = frame.file.flatMap { $0 == frame.absPath ? nil : $0 }
        // The project's own prefixes first: they say exactly where a deployed path lives.
        for candidate in [frame.absPath, filename].compactMap({ $0 }) {
            for map in pathMaps {
                guard let mapped = map.apply(candidate) else { continue }
                if files.contains(mapped) { return .file(mapped, via: "--path-map \(map)") }
            }
        }
        if let filename, !FrameMapper.isAbsolute(filename) {
            let plain = FrameMapper.normalized(filename)
            if files.contains(plain) { return .file(plain, via: "filename") }
        }
        var ambiguous: [String] = []
        for (candidate, via) in [(frame.absPath, "abs_path"), (filename, "filename")] {
            guard let candidate else { continue }
            switch bestEnding(of: candidate) {
            case .found(let path): return .file(path, via: via)
            case .ambiguous(let paths): ambiguous = paths
            case .none: break
            }
        }
        for candidate in modulePaths(frame) {
            switch bestEnding(of: candidate) {
            case .found(let path): return .file(path, via: "module")
            case .ambiguous(let paths): if ambiguous.isEmpty { ambiguous = paths }
            case .none: break
            }
        }
        let named = frame.absPath ?? frame.file ?? frame.module ?? "?"
        if !ambiguous.isEmpty {
            let shown = ambiguous.sorted().prefix(3).joined(separator: ", ")
            return .none("\(named) fits \(ambiguous.count) files of the checkout (\(shown)); --path-map FROM=TO says which")
        }
        if frame.file == nil, frame.absPath == nil, frame.module == nil {
            return .none("the frame names no file")
        }
        return .none("\(named) is no file of the checkout (git ls-files); --path-map FROM=TO maps a deployed path")
    }

    enum Ending {
        case found(String)
        case ambiguous([String])
        case none
    }

    /// The tracked file that shares the longest ending with `path`: at least two names, or the
    /// file's whole path.
    func bestEnding(of path: String) -> Ending {
        let parts = path.split(whereSeparator: { $0 == "/" || $0 == "\\" }).filter { $0 != "." }
        guard let last = parts.last, let candidates = byName[last] else { return .none }
        var best = 0
        var found: [[Substring]] = []
        for file in candidates {
            var shared = 0
            while shared < file.count, shared < parts.count, file[file.count - 1 - shared] == parts[parts.count - 1 - shared] { shared += 1 }
            guard shared >= 2 || shared == file.count else { continue }
            if shared > best {
                best = shared
                found = [file]
            } else if shared == best {
                found.append(file)
            }
        }
        switch found.count {
        case 0: return .none
        case 1: return .found(found[0].joined(separator: "/"))
        default: return .ambiguous(found.map { $0.joined(separator: "/") })
        }
    }

    /// The paths a frame's module suggests: a Python module (`shop.billing` → `shop/billing.py`,
    /// `shop/billing/__init__.py`), a package's folder with the frame's file name in it (Go's
    /// `example.com/shop/billing` + `amount.go`; Java's `com.shop.Billing` → `com/shop/Billing.java`).
    func modulePaths(_ frame: EventFrame) -> [String] {
        guard let module = frame.module, !module.isEmpty, module != "__main__", module != "main" else { return [] }
        let asPath = module.contains("/") ? module : module.replacingOccurrences(of: ".", with: "/")
        var paths: [String] = []
        if let name = (frame.absPath ?? frame.file)?.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last {
            paths.append(asPath + "/" + name)
            if let cut = asPath.lastIndex(of: "/") { paths.append(asPath[..<cut] + "/" + name) }
        }
        paths.append(asPath + ".py")
        paths.append(asPath + "/__init__.py")
        return paths
    }

    /// `/srv/x`, `C:\x`, `~/x`, `file:///x`: a path of the machine the SDK ran on.
    static func isAbsolute(_ path: String) -> Bool {
        if path.hasPrefix("/") || path.hasPrefix("\\") || path.hasPrefix("~") || path.contains("://") { return true }
        let b = Array(path.utf8.prefix(3))
        return b.count >= 2 && b[1] == UInt8(ascii: ":")
    }

    /// `./a//b` as `a/b`.
    static func normalized(_ path: String) -> String {
        path.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
    }
}
