import TriageModel

/// A Sentry event's exception values as a chain, and what they say about a crash.
///
/// Values run root cause first. Where they carry `mechanism.exception_id` they form a tree
/// (exception groups, `AggregateError`, .NET's `InnerExceptions`): the chain is the path from the
/// outermost error down its cause, else its first member, to the root cause, and the other
/// branches are kept beside it (`ExceptionTree`). Each value's `type` is the domain (else the
/// NSError domain, the mach exception's or the signal's name). Its code is the first of: a code the
/// event states (the mechanism's `ns_error`, `mach_exception`, `signal`, `errno`, or a numeric
/// `code` in the mechanism's or the value's data), a code the link's own text states
/// (`MessageTemplate.statedCode`), a code derived from the type and where it was raised
/// (`RaiseSite`), else from the type and the name (`MessageTemplate.derivedCode`). The name is
/// the own text's case name or masked template, never one event's data; else the mach code
/// (`code 1`), the signal's or errno's name (`SentryLink`).
enum SentryException {
    /// The exception values of `exception`: `{"values":[…]}`, a bare array, or one value (older
    /// SDKs); null values are skipped.
    static func values(_ exception: JSONValue?) throws(LineRejection) -> [JSONValue] {
        guard let exception, exception != .null else { return [] }
        let list: [JSONValue]
        switch exception {
        case .array(let items): list = items
        case .object:
            if let values = exception["values"] {
                guard values == .null || !values.elements.isEmpty || values == .array([]) else {
                    throw LineRejection("exception.values must be an array, found \(values.kindName)")
                }
                list = values.elements
            } else if exception["type"] != nil || exception["value"] != nil {
                list = [exception]
            } else {
                list = []
            }
        default: throw LineRejection("exception must be an object or an array, found \(exception.kindName)")
        }
        return list.filter { $0 != .null }
    }

    /// What an event's exception values give: the chain, outermost first, the outermost value, the
    /// other branches of a tree as chains, and the chain as grouping made it before schema 14
    /// where that differs (`ErrorEvent.formerChain`).
    struct Reading {
        var chain: ErrorChain
        var outermost: JSONValue?
        var others: [ErrorChain]
        var former: FormerChain?
        /// The chain as grouping made it before schema 21, where that may differ (`ErrorEvent.priorChain`).
        var prior: FormerChain? = nil
        /// The words of the links named by a template (`LinkWords`).
        var words: [LinkWords] = []
    }

    /// The chain of the values (`SentryLink` reads each link); `stacks` says whose stack traces tell where they were raised.
    static func chain(_ values: [JSONValue], stacks: SentryStacks) throws(LineRejection) -> Reading {
        for (n, value) in values.enumerated() {
            guard case .object = value else { throw LineRejection("exception value \(n + 1) must be an object, found \(value.kindName)") }
        }
        let tree = ExceptionTree(values)
        let path = SentryLink.withoutPhantoms(tree.path, values)
        var links: [ChainLink] = []
        var formerLinks: [FormerChain.Link] = []
        var priorLinks: [FormerChain.Link] = []
        var words: [LinkWords] = []
        var differs = path.count != tree.path.count
        var priorDiffers = false
        for (i, n) in path.enumerated() {
            let cause = i + 1 < path.count ? values[path[i + 1]] : nil
            let read = try SentryLink.read(values[n], number: n + 1, cause: cause, stacks: stacks, outermost: i == 0, index: i)
            links.append(read.link)
            formerLinks.append(read.former)
            priorLinks.append(read.prior)
            if let w = read.words { words.append(w) }
            if read.former != .read(read.link) { differs = true }
            if read.prior != .read(read.link) { priorDiffers = true }
        }
        if path.count != tree.path.count {
            formerLinks = []
            for n in tree.path { formerLinks.append(try SentryLink.formerLink(values[n], number: n + 1)) }
        }
        var others: [ErrorChain] = []
        for branch in tree.others {
            var branchLinks: [ChainLink] = []
            for (i, n) in branch.enumerated() {
                let cause = i + 1 < branch.count ? values[branch[i + 1]] : nil
                branchLinks.append(try SentryLink.read(values[n], number: n + 1, cause: cause, stacks: stacks, outermost: false).link)
            }
            others.append(ErrorChain(links: branchLinks))
        }
        return Reading(chain: ErrorChain(links: links), outermost: tree.path.first.map { values[$0] }, others: others,
                       former: differs ? FormerChain(links: formerLinks) : nil, prior: priorDiffers ? FormerChain(links: priorLinks) : nil,
                       words: words)
    }

    /// The code the mechanism's meta (or a numeric `code` in its data) gives, and a name for it
    /// when the value has no message.
    static func code(_ meta: JSONValue?, data: [JSONValue?] = []) -> (Int?, String?) {
        func int(_ path: String) -> Int? { meta?.at(path)?.int64.flatMap { Int(exactly: $0) } }
        if let code = int("ns_error.code") { return (code, nil) }
        if let code = int("mach_exception.exception") {
            return (code, int("mach_exception.code").map { "code \($0)" } ?? meta?.at("mach_exception.name")?.nonEmptyText)
        }
        if let code = int("signal.number") {
            return (code, meta?.at("signal.name")?.nonEmptyText ?? meta?.at("signal.code_name")?.nonEmptyText)
        }
        if let code = int("errno.number") { return (code, meta?.at("errno.name")?.nonEmptyText) }
        for source in [meta] + data {
            for key in ["code", "error_code", "errorCode"] {
                if let code = source?[key]?.int64.flatMap({ Int(exactly: $0) }) { return (code, nil) }
            }
        }
        return (nil, nil)
    }

    /// Mechanisms of an error nothing caught that leaves the program running on a server: Python's
    /// uncaught exception in a thread (`threading`) and at the top (`excepthook`, the same hook
    /// a server's worker threads report through).
    static let survivedMechanisms: Set<String> = ["threading", "excepthook"]

    /// Platforms of apps on a device, where any `handled: false` ends the app.
    static let devicePlatforms: Set<String> = ["cocoa", "objc", "swift", "android", "native", "dart", "flutter", "react-native"]

    /// An ANR (mechanism `ANR`/`AppHang`, or type `ApplicationNotResponding`/`AppHang`); a crash
    /// (level `fatal`, or a mechanism with `handled: false`), except that on a server platform an
    /// unhandled error whose mechanisms are all `threading`/`excepthook` is `unhandled`; else a
    /// non-fatal, as Sentry counts an error unhandled only when it says so.
    static func kind(level: String?, values: [JSONValue], platform: String? = nil) -> EventKind {
        let hangs: Set<String> = ["anr", "apphang", "applicationnotresponding"]
        // Each of those starts with an a: other types and mechanisms are not folded at all.
        let isHang = { (text: String?) -> Bool in
            guard let text, let first = text.utf8.first, first | 0x20 == UInt8(ascii: "a") else { return false }
            return hangs.contains(String(text.lowercased().filter { $0 != "_" && $0 != " " }))
        }
        if values.contains(where: { isHang($0["mechanism"]?["type"]?.text) || isHang($0["type"]?.text) }) {
            return .anr
        }
        if level?.lowercased() == "fatal" { return .crash }
        let unhandled = values.filter { $0["mechanism"]?["handled"]?.bool == false }
        guard !unhandled.isEmpty else { return .nonFatal }
        let onServer = !devicePlatforms.contains(platform?.lowercased() ?? "")
        let survived = unhandled.allSatisfy { value in
            value["mechanism"]?["type"]?.text.map { survivedMechanisms.contains($0.lowercased()) } ?? false
        }
        return onServer && survived ? .unhandled : .crash
    }
}

/// The shape of an event's exception values: a list (root cause first) or, where every value has
/// `mechanism.exception_id` and the outermost (id 0) comes last as in every list, a tree.
///
/// SDKs number a tree's values depth first from the outermost: a value, then its children. A
/// member of a group names its place in `source` (`exceptions[0]`, `errors[1]`,
/// `InnerExceptions[0]`); Java's suppressed exceptions have mechanism type `suppressed`; any other
/// child is the value's cause. `parent_id` names the parent, except that the Python SDK gives
/// every `__cause__` and `__context__` `parent_id: 0`, also a group member's cause: since a cause
/// comes right after the value it is the cause of, such a value belongs to the one before it.
/// Going down, a value's next link is its cause; a group's is its member 0 where it has one (the
/// branch the group names first), else its cause (Python sends member 0 as the group's
/// `__context__` when the group was raised while handling it), else its first member. Sentry
/// Go's 0.27–0.35 numbered its list from the root cause (id 0 first): that reads as a list.
struct ExceptionTree {
    /// Indexes into the values, outermost first: the chain.
    var path: [Int]
    /// Every other branch, each outermost first.
    var others: [[Int]] = []

    init(_ values: [JSONValue]) {
        let ids = values.map { $0.at("mechanism.exception_id")?.int64 }
        guard values.count > 1, ids.allSatisfy({ $0 != nil }), Set(ids).count == ids.count, ids.last == 0 else {
            path = Array(values.indices.reversed())
            return
        }
        let order = values.indices.sorted { ids[$0]! < ids[$1]! }
        let index = Dictionary(uniqueKeysWithValues: values.indices.map { (ids[$0]!, $0) })
        var children: [Int: [Int]] = [:]
        /// A member's place in its group (`exceptions[2]` is 2); nil for a cause.
        var place: [Int: Int] = [:]
        for (position, n) in order.enumerated() where position > 0 {
            let source = values[n].at("mechanism.source")?.text ?? ""
            let given = values[n].at("mechanism.parent_id")?.int64.flatMap { index[$0] }
            let previous = order[position - 1]
            if let open = source.firstIndex(of: "["), let close = source.lastIndex(of: "]"), open < close {
                place[n] = Int(source[source.index(after: open)..<close]) ?? Int.max
            } else if values[n].at("mechanism.type")?.text == "suppressed" {
                place[n] = Int.max
            }
            let pythonCause = source == "__cause__" || source == "__context__"
            children[pythonCause ? previous : given ?? previous, default: []].append(n)
        }
        var others: [[Int]] = []
        /// The path down from `start`.
        func walk(_ start: Int) -> [Int] {
            var path = [start]
            var at = start
            while let kids = children[at], !kids.isEmpty {
                let cause = kids.first { place[$0] == nil }
                let first = kids.filter { place[$0] != nil }.min { place[$0]! < place[$1]! }
                let next = kids.first { place[$0] == 0 } ?? cause ?? first ?? kids[0]
                for kid in kids where kid != next { others.append(walk(kid)) }
                path.append(next)
                at = next
            }
            return path
        }
        path = walk(order[0])
        self.others = others
    }
}
