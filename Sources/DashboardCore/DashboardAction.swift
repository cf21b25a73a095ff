import TriageModel

/// Everything that can happen to the dashboard: input, and the results of effects.
public enum DashboardAction: Hashable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    case resize(Size)
    /// The store's answer to a screen's load (`StoreLoad`), which lands on the screen that asked.
    case answered(StoreAnswerBox)
    /// What the checkout says of the open issue's raise sites or of the event shown.
    case codeLoaded(CodeAnswer)
    /// The editor `e` ran has ended (nil), or could not run: why.
    case editorClosed(String?)
    /// An effect failed: shown, and an optimistic mark still pending is reverted.
    case failed(String)
    /// The store waits for another process writing it (a prune, an ingest): said on the status
    /// line while the mark or the load waits its turn.
    case waiting(String)
    /// Another process changed the store: reload, keeping the selection and the open detail.
    case storeChanged
    /// The store stopped (true) or started again (false) answering; coming back reloads.
    case connection(offline: Bool)
    /// Time passes (about once a second): transient messages expire.
    case tick
}

/// Work the reducer asks the program to do: a question or a change for the store, whose answer
/// comes back as an action, or something the loop does on the screen itself.
public enum DashboardEffect: Hashable, Sendable {
    case store(StoreRequest)
    /// Repaint the whole terminal (Ctrl-L).
    case redraw
    /// Leave the dashboard (after the changes on their way land).
    case quit
    /// Puts text on the clipboard where the terminal allows it.
    case copy(String)
    /// Reads the checkout of the code, off the input loop and beside the store's work (a slow git never holds a key).
    case code(CodeRequest)
    /// Suspends the dashboard, runs the user's editor on a file at a line with the terminal, and
    /// redraws when it ends; the answer is `.editorClosed`.
    case openEditor(file: String, line: Int?)
}

/// What the dashboard asks of the checkout; the answer comes back as `.codeLoaded`.
public enum CodeRequest: Hashable, Sendable {
    /// An issue's raise sites: each one's file, the line's last commit before `firstSeen`, its owners.
    case issue(key: String, raise: RaiseFrames, firstSeen: Timestamp)
    /// An event's frames: each one's file, and the lines around those the SDK sent no source for.
    case event(issueKey: String, EventDetail)
}

/// The checkout's answer, for the request it answers.
public enum CodeAnswer: Hashable, Sendable {
    case issue(key: String, raise: RaiseFrames, CodeFacts)
    case event(issueKey: String, eventID: String, CodeFacts)
}
