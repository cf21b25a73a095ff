import Presentation
import TriageModel

/// The keys that change an issue (status, note, tracker link, assignee, ticket, undo), bound on
/// the screens that show one issue or a list of them, and what they do: shown at once, kept in
/// `pending` until the store confirms, put back if it refuses; each confirmed change goes on the
/// undo stack.
public enum Marks {
    static let readOnlyMessage = "Read-only store: marks are off."

    /// The mark keys, acting on the issue `target` names (the selected row, the open issue).
    static func bindings(target: @escaping @Sendable (DashboardState) -> IssueSummary?) -> [KeyBinding] {
        /// A key that changes the target: refused on a read-only store or without an issue.
        func change(_ help: KeyHelp, _ act: @escaping @Sendable (inout DashboardState, IssueSummary, Character) -> [DashboardEffect]) -> KeyBinding {
            KeyBinding(help) { state, key in
                guard !state.readOnly else { return state.refuseReadOnly() }
                guard let issue = target(state), case .char(let c) = key else {
                    state.message = StatusMessage("No issue selected.", isError: true)
                    return []
                }
                return act(&state, issue, c)
            }
        }
        return [
            change(KeyHelp("r R o m", [.char("r"), .char("R"), .char("o"), .char("m")],
                           "mark resolved (asks the version), regressed, open, muted", hint: "mark", .marks)) { state, issue, c in
                switch c {
                case "r":
                    let next = issue.lastVersion.flatMap { AppVersion($0) }?.next.display ?? ""
                    state.prompt = Prompt(purpose: .resolve(key: issue.key), suggesting: next)
                    return []
                case "R": return state.mark(issue.key, .status(.regressed, version: nil))
                case "o": return state.mark(issue.key, .status(.open, version: nil))
                default: return state.mark(issue.key, .status(.muted, version: nil))
                }
            },
            change(KeyHelp("n", [.char("n")], "add a note (prompt)", hint: "note", .marks)) { state, issue, _ in
                state.prompt = Prompt(purpose: .note(key: issue.key))
                return []
            },
            change(KeyHelp("t", [.char("t")], "tracker link (prompt; empty clears)", hint: "link", .marks)) { state, issue, _ in
                state.prompt = Prompt(purpose: .tracker(key: issue.key), suggesting: issue.trackerURL ?? "")
                return []
            },
            change(KeyHelp("a", [.char("a")], "assign to a person (prompt; empty clears)", hint: "assign", .marks)) { state, issue, _ in
                state.prompt = Prompt(purpose: .assign(key: issue.key), suggesting: issue.assignee ?? "")
                return []
            },
            // A ticket draft changes nothing: a read-only store writes one too.
            KeyBinding("T", [.char("T")], "ticket draft: errtriage-ticket-KEY.md in the current folder, and the clipboard",
                       hint: "ticket", .marks) { state, _ in
                target(state).map { [.load(Ticket(key: $0.key, window: state.query.window, code: state.detail.key == $0.key ? state.detail.code : nil))] } ?? []
            },
            KeyBinding("u", [.char("u")], "undo your newest change still standing (marks, notes, links, assignees, merges); again: the one before",
                       hint: "undo", .marks) { state, _ in
                state.readOnly ? state.refuseReadOnly() : state.undoLast()
            },
        ]
    }


    /// A tracker link: `scheme://host…` without spaces.
    static func looksLikeLink(_ text: String) -> Bool {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !text.contains(" "), parts[1].hasPrefix("//"), parts[1].count > 2 else { return false }
        return !parts[0].isEmpty && parts[0].allSatisfy { $0.isASCII && $0.isLetter }
    }
}

/// A change of this run that `u` can take back, the newest last (`DashboardState.undoable`).
public enum UndoableChange: Hashable, Sendable {
    /// A status, note, tracker link or assignee.
    case mark(MarkReceipt)
    /// A merge made with `J`.
    case merge(MergeReceipt)
}

/// What an issue looked like before an optimistic change, to put back if the store refuses it.
public struct PendingChange: Hashable, Sendable {
    /// The change sent to the store.
    public enum Kind: Hashable, Sendable {
        case mark(IssueMark)
        case undo(MarkReceipt)
    }

    public var key: String
    public var kind: Kind
    public var status: IssueStatus
    public var trackerURL: String?
    public var assignee: String?
    public var resolvedVersion: String?
    public var notes: [IssueNote]?
}

extension DashboardState {
    /// Says marks are off and does nothing.
    mutating func refuseReadOnly() -> [DashboardEffect] {
        message = StatusMessage(Marks.readOnlyMessage, isError: true)
        return []
    }

    /// Acts on a submitted mark prompt: a version or a link is checked, an empty note adds nothing.
    mutating func submitMark(_ prompt: Prompt, text: String) -> [DashboardEffect] {
        switch prompt.purpose {
        case .resolve(let key):
            if !text.isEmpty, !FixVersion.accepts(text, seen: knownVersions(of: key).contains) {
                return reopen(prompt, because: "\"\(text)\" is not \(FixVersion.expected); empty: no version, Esc cancels")
            }
            return mark(key, .status(.resolved, version: text.isEmpty ? nil : text))
        case .note(let key):
            guard !text.isEmpty else {
                message = StatusMessage("Empty note: nothing added.")
                return []
            }
            return mark(key, .note(text))
        case .tracker(let key):
            if !text.isEmpty, !Marks.looksLikeLink(text) {
                return reopen(prompt, because: "\"\(text)\" is not a link (like https://tracker.example.com/MOB-1); empty clears, Esc cancels")
            }
            return mark(key, .tracker(text.isEmpty ? nil : text))
        case .assign(let key):
            return mark(key, .assignee(text.isEmpty ? nil : text))
        case .filter, .pivotDomain, .rule:
            return []
        }
    }

    /// Shows a mark at once and asks the store to keep it; `fail` puts it back if the store refuses.
    mutating func mark(_ key: String, _ mark: IssueMark) -> [DashboardEffect] {
        guard !readOnly else { return refuseReadOnly() }
        marks.pending.append(snapshot(key, kind: .mark(mark)))
        updateIssue(key) { summary, detail in
            switch mark {
            case .status(let status, let version):
                summary.status = status
                detail?.resolvedVersion = status == .resolved ? version : nil
            case .tracker(let url):
                summary.trackerURL = url
            case .note(let text):
                if let now = detail?.now { detail?.notes.insert(IssueNote(at: now, by: "you", text: text), at: 0) }
            case .assignee(let name):
                summary.assignee = name
            }
        }
        message = StatusMessage(markedText(key, mark))
        return [.mark(key: key, mark)]
    }

    /// Undoes the newest change of this run still standing: shown at once, confirmed or skipped by
    /// the store (`undoSkipped`, which goes on to the one before).
    mutating func undoLast() -> [DashboardEffect] {
        guard let change = marks.undoable.popLast() else {
            message = StatusMessage(marks.undoSkips.isEmpty ? "Nothing to undo." : skippedText(then: "nothing else of yours to undo."),
                                    isError: !marks.undoSkips.isEmpty, ticksLeft: marks.undoSkips.isEmpty ? 8 : 15)
            marks.undoSkips = []
            return []
        }
        let receipt: MarkReceipt
        switch change {
        case .mark(let mark): receipt = mark
        case .merge(let merge):
            // Not shown at once: the store says which issues it could take out, and the list is read again.
            message = StatusMessage("Undoing: the merge of \(merge.moved.count) into \(merge.head)" + (unicode ? "…" : "..."))
            return [.load(Marks.UndoMerge(receipt: merge))]
        }
        marks.pending.append(snapshot(receipt.key, kind: .undo(receipt)))
        updateIssue(receipt.key) { summary, detail in
            switch receipt.mark {
            case .status:
                summary.status = receipt.previousStatus
                detail?.resolvedVersion = receipt.previousVersion
            case .tracker:
                summary.trackerURL = receipt.previousTracker
            case .note(let text):
                if let i = detail?.notes.firstIndex(where: { $0.text == text }) { detail?.notes.remove(at: i) }
            case .assignee:
                summary.assignee = receipt.previousAssignee
            }
        }
        message = StatusMessage("Undoing: \(receipt.key) \(Format.describe(receipt.mark))" + (unicode ? "…" : "..."))
        return [.undo(receipt)]
    }

    /// The store left a change alone (someone changed the issue since): put it back as it is, say
    /// so, and undo the change before it instead.
    mutating func skipUndo(_ receipt: MarkReceipt, because why: String) -> [DashboardEffect] {
        if let i = marks.pending.firstIndex(where: { $0.kind == .undo(receipt) }) { restore(marks.pending.remove(at: i)) }
        marks.undoSkips.append("\(receipt.key) \(Format.describe(receipt.mark)) (\(TextSanitizer.sanitize(why, unicode: unicode)))")
        // The next change down the stack, or, when none is left, the store's view of the issue.
        let next = undoLast()
        return next.isEmpty ? reloadEffects() : next
    }

    /// `Skipped KEY muted (ben marked it resolved since); ` and what happened next.
    func skippedText(then next: String) -> String {
        "Skipped \(marks.undoSkips.joined(separator: ", ")); " + next
    }

    mutating func confirmMark(_ receipt: MarkReceipt) -> [DashboardEffect] {
        var seen: IssueStatus?
        if let i = marks.pending.firstIndex(where: { $0.key == receipt.key && $0.isMark }) { seen = marks.pending.remove(at: i).status }
        marks.undoable.append(.mark(receipt))
        message = StatusMessage(markedText(receipt.key, receipt.mark))
        // Someone else changed the status since this screen showed it: the mark is taken, and said so.
        if case .status = receipt.mark, let seen, seen != receipt.previousStatus {
            let who = receipt.previousBy.map { TextSanitizer.sanitize($0, unicode: unicode) } ?? "someone"
            message = StatusMessage("Marked \(receipt.key) \(Format.describe(receipt.mark)); \(who) had marked it "
                                    + "\(receipt.previousStatus.rawValue) since this screen loaded it \(unicode ? "—" : "-") u to undo")
        }
        return reloadEffects()
    }

    mutating func confirmUndo(_ receipt: MarkReceipt) -> [DashboardEffect] {
        if let i = marks.pending.firstIndex(where: { $0.kind == .undo(receipt) }) { marks.pending.remove(at: i) }
        let undid = "Undid: \(receipt.key) \(Format.describe(receipt.mark))" + undoneResult(receipt)
        message = marks.undoSkips.isEmpty ? StatusMessage(undid) : StatusMessage(skippedText(then: undid), ticksLeft: 15)
        marks.undoSkips = []
        return reloadEffects()
    }

    /// The store took a merge back: the issues it took out stand as before; one moved since was left.
    mutating func confirmUndoMerge(_ receipt: MergeReceipt, restored: [String]) -> [DashboardEffect] {
        guard !restored.isEmpty else {
            // Every issue it moved was moved again since: as a mark changed since, skipped, and the one before undone.
            marks.undoSkips.append("the merge into \(receipt.head) (its issues were moved since)")
            let next = undoLast()
            return next.isEmpty ? reloadEffects() : next
        }
        let left = receipt.moved.count - restored.count
        var text = "Undid: the merge into \(receipt.head)"
        if left > 0 {
            text += ", \(restored.count) taken out; \(left) moved since left where \(left == 1 ? "it is" : "they are")"
        } else {
            text += ", \(restored.joined(separator: ", ")) \(restored.count == 1 ? "stands" : "stand") as before"
        }
        message = marks.undoSkips.isEmpty ? StatusMessage(text, ticksLeft: 10) : StatusMessage(skippedText(then: text), ticksLeft: 15)
        marks.undoSkips = []
        return reloadEffects()
    }

    /// What the issue is back to: `, back to regressed`.
    func undoneResult(_ receipt: MarkReceipt) -> String {
        switch receipt.mark {
        case .status:
            let version = receipt.previousStatus == .resolved ? receipt.previousVersion.map { " in \($0)" } ?? "" : ""
            return ", back to \(receipt.previousStatus.rawValue)\(version)"
        case .note: return ", removed"
        case .tracker: return receipt.previousTracker.map { ", back to \(TextSanitizer.sanitize($0, unicode: unicode))" } ?? ", no link again"
        case .assignee:
            return receipt.previousAssignee.map { ", back to \(TextSanitizer.sanitize($0, unicode: unicode))" } ?? ", unassigned again"
        }
    }

    /// Shows an effect's failure; the oldest optimistic change still pending is put back.
    mutating func fail(_ text: String) {
        loading = false
        guard !marks.pending.isEmpty else {
            message = StatusMessage(text, isError: true, ticksLeft: 15)
            return
        }
        let change = marks.pending.removeFirst()
        restore(change)
        let what: String
        switch change.kind {
        case .mark(let mark): what = "Could not mark \(change.key) \(Format.describe(mark))"
        case .undo(let receipt):
            marks.undoable.append(.mark(receipt))
            marks.undoSkips = []
            what = "Could not undo \(change.key) \(Format.describe(receipt.mark))"
        }
        message = StatusMessage("\(what): \(text)", isError: true, ticksLeft: 15)
    }

    func markedText(_ key: String, _ mark: IssueMark) -> String {
        let dash = unicode ? "—" : "-"
        switch mark {
        case .status: return "Marked \(key) \(Format.describe(mark)) \(dash) u to undo"
        case .assignee(let name?): return "Assigned \(key) to \(TextSanitizer.sanitize(name, unicode: unicode)) \(dash) u to undo"
        case .assignee(nil): return "Unassigned \(key) \(dash) u to undo"
        case .note: return "Added a note to \(key) \(dash) u to undo"
        case .tracker(nil): return "Cleared the tracker link of \(key) \(dash) u to undo"
        case .tracker: return "Linked \(key) to its tracker \(dash) u to undo"
        }
    }

    /// What an issue looks like now, to restore if a change fails.
    func snapshot(_ key: String, kind: PendingChange.Kind) -> PendingChange {
        let row = list.row(key)
        let open = detail.loaded(key)
        let summary = row ?? open?.summary
        return PendingChange(key: key, kind: kind, status: summary?.status ?? .open, trackerURL: summary?.trackerURL,
                             assignee: summary?.assignee, resolvedVersion: open?.resolvedVersion, notes: open?.notes)
    }

    /// Puts an issue back as a snapshot saw it.
    mutating func restore(_ change: PendingChange) {
        updateIssue(change.key) { summary, detail in
            summary.status = change.status
            summary.trackerURL = change.trackerURL
            summary.assignee = change.assignee
            detail?.resolvedVersion = change.resolvedVersion
            if let notes = change.notes { detail?.notes = notes }
        }
    }

    /// The versions the dashboard knows an issue was seen in: its first and last, and, when it is
    /// open, every version of its breakdown (a fix version the store has seen is taken as seen).
    func knownVersions(of key: String) -> Set<String> {
        var versions = Set<String>()
        for summary in [list.row(key), detail.loaded(key)?.summary].compactMap({ $0 }) {
            versions.formUnion([summary.firstVersion, summary.lastVersion].compactMap { $0 })
        }
        if let open = detail.loaded(key) {
            versions.formUnion(open.breakdown(.appVersion).rows.map(\.value))
        }
        return versions
    }

    /// Changes an issue's list row and, when it is open, its detail.
    mutating func updateIssue(_ key: String, _ change: (inout IssueSummary, inout IssueDetail?) -> Void) {
        list.updateRow(key) { row in
            var none: IssueDetail? = nil
            change(&row, &none)
        }
        detail.updateLoaded(key) { open in
            var summary = open.summary
            var wrapped: IssueDetail? = open
            change(&summary, &wrapped)
            if let wrapped { open = wrapped }
            open.summary = summary
        }
    }
}

extension PendingChange {
    var isMark: Bool {
        if case .mark = kind { return true }
        return false
    }
}

/// This run's changes: what `u` can take back, the newest last, and what is shown before the store
/// confirmed it.
public struct MarkLedger: Hashable, Sendable {
    /// Receipts of this run's changes (marks, notes, links, assignees, merges), the newest last:
    /// `u` takes back the newest that still stands.
    public var undoable: [UndoableChange] = []
    /// The changes `u` skipped on its way down the stack (someone changed them since), said once it stops.
    var undoSkips: [String] = []
    /// Optimistic changes not yet confirmed by the store, oldest first.
    public var pending: [PendingChange] = []

    public init() {}

    /// The marks among the receipts.
    public var undoStack: [MarkReceipt] {
        undoable.compactMap { if case .mark(let receipt) = $0 { receipt } else { nil } }
    }
}

/// What the marks ask of the store, and how each answer lands: a change, its undo, a merge's undo, a ticket draft.
extension Marks {
    /// A change to an issue: a status, a note, a tracker link, an assignee.
    public struct Mark: StoreLoad {
        public var key: String
        public var mark: IssueMark
        public var writes: Bool { true }
        public init(key: String, mark: IssueMark) {
            self.key = key
            self.mark = mark
        }
        public func perform(_ context: StoreContext) throws -> Marked {
            Marked(receipt: try context.store.mark(key, mark, by: context.user, at: context.now, note: nil))
        }
    }

    public struct Marked: StoreAnswer {
        public var receipt: MarkReceipt
        public func land(_ state: inout DashboardState) -> [DashboardEffect] { state.confirmMark(receipt) }
    }

    /// Takes a change back if it still stands; else says who changed the issue since.
    public struct Undo: StoreLoad {
        public var receipt: MarkReceipt
        public var writes: Bool { true }
        public func perform(_ context: StoreContext) throws -> Undone {
            switch try context.store.undoIfStanding(receipt, by: context.user, at: context.now) {
            case .undone: Undone(receipt: receipt, skipped: nil)
            case .overwritten(let why): Undone(receipt: receipt, skipped: why)
            }
        }
    }

    /// The store undid the change, or left it alone because someone changed the issue since (`skipped` says who and what).
    public struct Undone: StoreAnswer {
        public var receipt: MarkReceipt
        public var skipped: String?
        public func land(_ state: inout DashboardState) -> [DashboardEffect] {
            skipped.map { state.skipUndo(receipt, because: $0) } ?? state.confirmUndo(receipt)
        }
    }

    /// Takes a merge back where its issues are still in the head's group (`u` after `J`).
    public struct UndoMerge: StoreLoad {
        public var receipt: MergeReceipt
        public var writes: Bool { true }
        public func perform(_ context: StoreContext) throws -> MergeUndone {
            MergeUndone(receipt: receipt, restored: try context.store.undoMerge(receipt, by: context.user, at: context.now))
        }
    }

    /// The keys the store took out of the head's group (none: all were moved since).
    public struct MergeUndone: StoreAnswer {
        public var receipt: MergeReceipt
        public var restored: [String]
        public func land(_ state: inout DashboardState) -> [DashboardEffect] { state.confirmUndoMerge(receipt, restored: restored) }
    }

    /// `T`: a ticket draft for an issue written to a file, with what the checkout said of its raise sites.
    public struct Ticket: StoreLoad {
        public var key: String
        public var window: TimeWindow
        public var code: CodeFacts?
        public func perform(_ context: StoreContext) throws -> TicketWritten {
            var detail = try context.store.issueDetail(key: key, window: window, now: context.now)
            if code != nil { detail.raisedAt = try context.store.raiseSites(issueKey: detail.summary.key) }
            let text = TicketText.render(detail, style: .markdown, code: code)
            let folder = context.ticketFolder.hasSuffix("/") ? context.ticketFolder : context.ticketFolder + "/"
            let path = folder + "errtriage-ticket-\(key).md"
            do {
                try context.write(text, path)
            } catch {
                throw TicketNotWritten(sentence: "cannot write \(path): \(error)")
            }
            return TicketWritten(key: key, path: path, text: text)
        }
    }

    /// Why a ticket draft could not be written, as the status line says it.
    struct TicketNotWritten: Error, CustomStringConvertible {
        var sentence: String
        var description: String { sentence }
    }

    public struct TicketWritten: StoreAnswer {
        public var key: String
        public var path: String
        public var text: String
        public func land(_ state: inout DashboardState) -> [DashboardEffect] {
            state.message = StatusMessage("Ticket: \(path) (copied where the terminal allows)", ticksLeft: 15)
            return [.copy(text)]
        }
    }
}

extension DashboardEffect {
    /// A mark's change.
    public static func mark(key: String, _ mark: IssueMark) -> Self { .load(Marks.Mark(key: key, mark: mark)) }
    /// A mark's undo.
    public static func undo(_ receipt: MarkReceipt) -> Self { .load(Marks.Undo(receipt: receipt)) }
    /// A ticket draft.
    public static func writeTicket(key: String, window: TimeWindow, code: CodeFacts? = nil) -> Self {
        .load(Marks.Ticket(key: key, window: window, code: code))
    }
}

extension DashboardAction {
    /// The store applied a mark.
    public static func marked(_ receipt: MarkReceipt) -> Self { .answer(Marks.Marked(receipt: receipt)) }
    /// The store undid a mark.
    public static func undone(_ receipt: MarkReceipt) -> Self { .answer(Marks.Undone(receipt: receipt, skipped: nil)) }
    /// The store left a change alone because someone changed the issue since.
    public static func undoSkipped(_ receipt: MarkReceipt, _ why: String) -> Self { .answer(Marks.Undone(receipt: receipt, skipped: why)) }
    /// The store took a merge back.
    public static func mergeUndone(_ receipt: MergeReceipt, restored: [String]) -> Self {
        .answer(Marks.MergeUndone(receipt: receipt, restored: restored))
    }
    /// A ticket draft was written.
    public static func ticketWritten(key: String, path: String, text: String) -> Self {
        .answer(Marks.TicketWritten(key: key, path: path, text: text))
    }
}
