import Presentation
import TriageModel

extension DashboardState {
    static let readOnlyMessage = "Read-only store: marks are off."

    /// Handles the mark keys (r e o m n t u); nil when the key is not one.
    mutating func markKey(_ key: Key) -> [DashboardEffect]? {
        guard case .char(let c) = key, "reomntua".contains(c) else { return nil }
        if readOnly {
            message = StatusMessage(Self.readOnlyMessage, isError: true)
            return []
        }
        if c == "u" { return undoLast() }
        guard let issue = markTarget else {
            message = StatusMessage("No issue selected.", isError: true)
            return []
        }
        switch c {
        case "r":
            let next = issue.lastVersion.flatMap { AppVersion($0) }?.next.display ?? ""
            prompt = Prompt(purpose: .resolve(key: issue.key), text: next)
            return []
        case "e": return mark(issue.key, .status(.regressed, version: nil))
        case "o": return mark(issue.key, .status(.open, version: nil))
        case "m": return mark(issue.key, .status(.muted, version: nil))
        case "n":
            prompt = Prompt(purpose: .note(key: issue.key))
            return []
        case "a":
            prompt = Prompt(purpose: .assign(key: issue.key), text: issue.assignee ?? "")
            return []
        default:
            prompt = Prompt(purpose: .tracker(key: issue.key), text: issue.trackerURL ?? "")
            return []
        }
    }

    /// Shows a mark at once and asks the store to keep it; `fail` puts it back if the store refuses.
    mutating func mark(_ key: String, _ mark: IssueMark) -> [DashboardEffect] {
        guard !readOnly else {
            message = StatusMessage(Self.readOnlyMessage, isError: true)
            return []
        }
        pending.append(snapshot(key, kind: .mark(mark)))
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
        guard let receipt = undoStack.popLast() else {
            message = StatusMessage(undoSkips.isEmpty ? "Nothing to undo." : skippedText(then: "nothing else of yours to undo."),
                                    isError: !undoSkips.isEmpty, ticksLeft: undoSkips.isEmpty ? 8 : 15)
            undoSkips = []
            return []
        }
        pending.append(snapshot(receipt.key, kind: .undo(receipt)))
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
        if let i = pending.firstIndex(where: { $0.kind == .undo(receipt) }) { restore(pending.remove(at: i)) }
        undoSkips.append("\(receipt.key) \(Format.describe(receipt.mark)) (\(TextSanitizer.sanitize(why, unicode: unicode)))")
        // The next change down the stack, or, when none is left, the store's view of the issue.
        let next = undoLast()
        return next.isEmpty ? reloadEffects() : next
    }

    /// `Skipped KEY muted (ben marked it resolved since); ` and what happened next.
    func skippedText(then next: String) -> String {
        "Skipped \(undoSkips.joined(separator: ", ")); " + next
    }

    mutating func confirmMark(_ receipt: MarkReceipt) -> [DashboardEffect] {
        var seen: IssueStatus?
        if let i = pending.firstIndex(where: { $0.key == receipt.key && $0.isMark }) { seen = pending.remove(at: i).status }
        undoStack.append(receipt)
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
        if let i = pending.firstIndex(where: { $0.kind == .undo(receipt) }) { pending.remove(at: i) }
        let undid = "Undid: \(receipt.key) \(Format.describe(receipt.mark))" + undoneResult(receipt)
        message = undoSkips.isEmpty ? StatusMessage(undid) : StatusMessage(skippedText(then: undid), ticksLeft: 15)
        undoSkips = []
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
        guard !pending.isEmpty else {
            message = StatusMessage(text, isError: true, ticksLeft: 15)
            return
        }
        let change = pending.removeFirst()
        restore(change)
        let what: String
        switch change.kind {
        case .mark(let mark): what = "Could not mark \(change.key) \(Format.describe(mark))"
        case .undo(let receipt):
            undoStack.append(receipt)
            undoSkips = []
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
        let row = list?.issues.first { $0.key == key }
        let open = detail?.summary.key == key ? detail : nil
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

    /// Changes an issue's list row and, when it is open, its detail.
    mutating func updateIssue(_ key: String, _ change: (inout IssueSummary, inout IssueDetail?) -> Void) {
        var none: IssueDetail? = nil
        if let i = list?.issues.firstIndex(where: { $0.key == key }) { change(&list!.issues[i], &none) }
        if var open = detail, open.summary.key == key {
            var wrapped: IssueDetail? = open
            change(&open.summary, &wrapped)
            wrapped?.summary = open.summary
            detail = wrapped
        }
    }
}

extension PendingChange {
    var isMark: Bool {
        if case .mark = kind { return true }
        return false
    }
}
