import TriageModel

/// Which frames of a Sentry stack trace are the app's, as the SDK meant them, and which frames tell
/// where an error was raised.
///
/// - An SDK that marks the app's frames `in_app: true` and leaves the key out on the others
///   (sentry-go omits `false`) means the others are a library's: where any frame of a trace is
///   marked, an unmarked one is a library's.
/// - Go: the standard library's frames (a package of Go's own: `net/http`, `encoding/json`), the
///   module cache's (`/pkg/mod/`, Debian's `/usr/share/gocode`), vendored ones and sentry-go's are
///   a library's whatever `in_app` says (sentry-go marks every frame outside GOROOT `in_app`);
///   the module's own are the app's.
/// - Where no frame of a trace says, the paths do: Python's `site-packages` and standard library,
///   Ruby's gems, `node_modules`, Java's `java.*`; the rest is unknown and counts as the app's.
///
/// A Go event's outermost value without a stack type of its own carries the stack where it was
/// reported (`hub.CaptureException`), not where it was made; for a recovered panic that stack
/// reaches the frame that panicked, then the deferred function that recovered: the frames before
/// the recovering one are where the panic was raised (`goPanicCut`).
enum SentryFrames {
    /// Go's standard library's top-level packages.
    static let goStandard: Set<String> = [
        "archive", "bufio", "builtin", "bytes", "cmp", "compress", "container", "context", "crypto", "database", "debug", "embed",
        "encoding", "errors", "expvar", "flag", "fmt", "go", "hash", "html", "image", "index", "internal", "io", "iter", "log",
        "maps", "math", "mime", "net", "os", "path", "plugin", "reflect", "regexp", "runtime", "slices", "sort", "strconv",
        "strings", "structs", "sync", "syscall", "testing", "text", "time", "unicode", "unique", "unsafe", "vendor", "weak",
    ]

    /// Paths of a library's code, in any language.
    static let libraryPaths = ["/site-packages/", "/dist-packages/", "/node_modules/", "/gems/", "/rubygems/", "/pkg/mod/",
                               "/gocode/src/", "/vendor/", "node:internal", "/lib/python", "/lib/ruby/", "/usr/lib/go", "/usr/local/go/src/"]

    /// Java's and Kotlin's own packages.
    static let jvmPackages = ["java.", "javax.", "jdk.", "sun.", "com.sun.", "kotlin.", "kotlinx.", "android.", "androidx.", "dalvik."]

    /// Whether a frame is a library's by its module and path alone.
    static func isLibrary(_ frame: JSONValue, isGo: Bool) -> Bool {
        let module = frame["module"]?.text ?? ""
        let path = frame["abs_path"]?.text ?? frame["filename"]?.text ?? ""
        if isGo {
            if module.hasPrefix("github.com/getsentry/sentry-go") { return true }
            let first = module.prefix { $0 != "/" && $0 != "." }
            if !module.isEmpty, !module.prefix(while: { $0 != "/" }).contains("."), goStandard.contains(String(first)) { return true }
        } else if !module.isEmpty, jvmPackages.contains(where: { module.hasPrefix($0) }) {
            return true
        }
        return !path.isEmpty && libraryPaths.contains { path.contains($0) }
    }

    /// Each frame's `in_app` as the SDK meant it: true, false, or nil where nothing tells.
    static func inApp(_ frames: [JSONValue], isGo: Bool) -> [Bool?] {
        let marked = frames.contains { $0["in_app"]?.bool == true }
        return frames.map { f in
            if isGo, isLibrary(f, isGo: true) { return false }
            if let given = f["in_app"]?.bool { return given }
            if marked { return false }
            return isLibrary(f, isGo: isGo) ? false : (isGo ? true : nil)
        }
    }

    /// The frames (oldest first) that tell where an error was raised, as `RaiseSite` reads them:
    /// the app's, else those not known to be a library's, else all.
    static func chosen(_ frames: [JSONValue], isGo: Bool) -> [RaiseSite.Frame] {
        let owner = inApp(frames, isGo: isGo)
        let app = frames.indices.filter { owner[$0] == true }
        let unknown = app.isEmpty ? frames.indices.filter { owner[$0] != false } : app
        return (unknown.isEmpty ? Array(frames.indices) : unknown).map { frame(frames[$0]) }
    }

    static func frame(_ f: JSONValue) -> RaiseSite.Frame {
        RaiseSite.Frame(module: f["module"]?.nonEmptyText, function: f["function"]?.nonEmptyText,
                        file: f["filename"]?.nonEmptyText, contextLine: f["context_line"]?.text)
    }

    /// Where a Go panic's recovery starts in a stack (oldest first): the index of `runtime.gopanic`
    /// where the SDK kept it, else of the innermost frame when it is a closure deferred by a frame
    /// further out than its caller (`report.func1` under `report → handler → report.func1`), as
    /// sentry-go's `Recover` reports from there; nil where the stack shows no panic (a capture site).
    static func goPanicCut(_ frames: [JSONValue]) -> Int? {
        if let gopanic = frames.firstIndex(where: { $0["function"]?.text == "gopanic" && ($0["module"]?.text ?? "runtime") == "runtime" }) {
            return gopanic
        }
        var last = frames.count - 1
        // The SDK's own frames and the runtime's, where it kept them, come after the deferred function.
        while last >= 0, isLibrary(frames[last], isGo: true) { last -= 1 }
        guard last >= 2, let function = frames[last]["function"]?.text, let base = closureBase(function) else { return nil }
        let module = frames[last]["module"]?.text
        guard frames[..<(last - 1)].contains(where: { $0["function"]?.text == base && $0["module"]?.text == module }) else { return nil }
        return last
    }

    /// `report` of a closure `report.func1` (`report.func1.2`, `(*server).respond.func3`); nil for a named function.
    static func closureBase(_ function: String) -> String? {
        var rest = Substring(function)
        var cut = false
        while let dot = rest.lastIndex(of: ".") {
            let tail = rest[rest.index(after: dot)...]
            if tail.hasPrefix("func"), tail.dropFirst(4).allSatisfy(\.isNumber), tail.count > 4 {
                rest = rest[..<dot]; cut = true
            } else if !tail.isEmpty, tail.allSatisfy(\.isNumber) {
                rest = rest[..<dot]
            } else {
                break
            }
        }
        return cut && !rest.isEmpty ? String(rest) : nil
    }
}
