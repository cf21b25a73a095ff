import CodeCheckout
import DashboardCore
import Foundation
import TriageModel

/// Runs the dashboard on a screen: input becomes actions, the reducer's effects are carried out
/// off the input loop, and their results come back as actions (bubbletea's loop). The screen and
/// the effects are parameters, so tests drive the loop with a fake screen.
public final class DashboardLoop<Screen: DashboardScreen> {
    /// How often the loop looks for writes by other processes (an ingest in another terminal).
    public static var pollMillis: Int32 { 500 }
    /// How soon the loop looks again while the store works on a load or a mark: one frame.
    public static var frameMillis: Int32 { 16 }

    /// The dashboard's state; after `run`, as the program left it.
    public private(set) var state: DashboardState
    let screen: Screen
    let effects: any EffectPerformer
    let worker: EffectWorker
    /// The checkout's lookups, beside the store's work (nil: every lookup answers that there is no checkout).
    let code: CodeWorker?
    /// Where `e` finds the editor ($VISUAL, $EDITOR).
    let environment: [String: String]
    /// Answers the loop made itself (the editor's end), reduced before the next input.
    var immediate: [DashboardAction] = []
    let fixedNow: Timestamp?
    /// What the store says while it waits for another process writing it, asked while it works.
    let waits: (@Sendable () -> String?)?
    /// Keys and clicks that came while the store worked, waiting in order for its answer.
    var typeahead: [DashboardAction] = []
    var revision: Int64
    var lastTick = Date()

    /// A loop on `screen` starting from `state`; `now` fixes the clock (`--now`, the demo), else it
    /// runs. `waits` gives what the store said of a wait for another process since it was last asked
    /// (`TriageStore.onWait`), shown on the status line.
    public init(screen: Screen, effects: any EffectPerformer, state: DashboardState, now: Timestamp? = nil,
                code: (any CodePerformer)? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
                waits: (@Sendable () -> String?)? = nil) {
        self.screen = screen
        self.effects = effects
        self.state = state
        self.waits = waits
        worker = EffectWorker(effects)
        self.code = code.map(CodeWorker.init)
        self.environment = environment
        fixedNow = now
        revision = effects.revision() ?? 0
    }

    /// The time effects are carried out at: the data's end when the state anchors windows to it,
    /// else `--now`, else the clock.
    func now() -> Timestamp { state.windowEnd ?? fixedNow ?? Timestamp(millis: Int64(Date().timeIntervalSince1970 * 1000)) }

    /// Runs until the user quits; marks still on their way land first (`drain`).
    public func run() {
        var pending = state.start(size: screen.size)
        while true {
            for effect in pending {
                switch effect {
                case .quit:
                    drain()
                    return
                case .redraw: screen.forceRedraw()
                case .copy(let text): screen.copyToClipboard(text)
                case .store(let request): worker.submit(request, now: now())
                case .code(let request): lookUp(request)
                case .openEditor(let file, let line): immediate.append(.editorClosed(edit(file, line: line)))
                }
            }
            var queue = immediate + takeResults()
            immediate = []
            if queue.isEmpty { queue = nextInput() }
            pending = []
            for action in queue {
                let prompting = state.prompt.map { $0.purpose != .filter } ?? false
                pending += reduce(&state, action)
                if prompting && state.prompt == nil { discardTypeahead() }
            }
        }
    }

    /// A prompt closed (submitted or cancelled): what was typed after it, waiting here or in the
    /// terminal, was meant for the prompt and must not run as keys (`2.3.2 maybe` typed past an
    /// Enter, whose `s` would change the ranking). The filter's prompt is the exception: its text
    /// applies as it is typed, and a key after its Enter (open the top match) is meant as a key.
    func discardTypeahead() {
        typeahead.removeAll { if case .key = $0 { true } else if case .mouse = $0 { true } else { false } }
        screen.discardTypeahead()
    }

    /// The results of finished effects, as actions: the store's, then the checkout's.
    func takeResults() -> [DashboardAction] {
        worker.take().map { result, revisionAfter in
            // Our own writes raise the revision too: they need no reload.
            if let revisionAfter { revision = revisionAfter }
            return result
        } + (code?.take() ?? [])
    }

    /// A question for the checkout, to its own worker; without one, the answer that there is no checkout.
    func lookUp(_ request: CodeRequest) {
        if let code { return code.submit(request) }
        let none = CodeFacts.unavailable(CodeSettings.noCheckout)
        switch request {
        case .issue(let key, let raise, _): immediate.append(.codeLoaded(.issue(key: key, raise: raise, none)))
        case .event(let issueKey, let event): immediate.append(.codeLoaded(.event(issueKey: issueKey, eventID: event.eventID, none)))
        }
    }

    /// `e`: the user's editor on the file at the line, with the terminal (the screen suspends and
    /// redraws); nil when it ran, else why not.
    func edit(_ file: String, line: Int?) -> String? {
        guard let editor = EditorCommand.editor(environment: environment) else { return EditorCommand.noEditor }
        return screen.runWithTerminal(EditorCommand.arguments(editor: editor.command, file: file, line: line))
    }

    /// Draws the frame, then waits for what comes next: a key typed earlier once the store is
    /// idle, input, another process's write, or a second's tick.
    func nextInput() -> [DashboardAction] {
        var queue: [DashboardAction] = []
        screen.draw(render(state, size: screen.size))
        let busy = worker.isBusy
        if busy, let said = waits?() { queue.append(.waiting(said)) }
        if !busy, !typeahead.isEmpty {
            queue.append(typeahead.removeFirst())
        } else if let event = screen.nextEvent(timeoutMillis: busy || code?.isBusy == true ? Self.frameMillis : Self.pollMillis) {
            // Keys and clicks while the store works wait for its answer, in order, as if it
            // had been instant (`s` then Enter opens the new top issue); a resize is drawn at once.
            if case .resize = event {
                queue.append(event.action)
            } else if busy || !typeahead.isEmpty {
                typeahead.append(event.action)
            } else {
                queue.append(event.action)
            }
        } else if !busy {
            // A store that stops answering (a team store's server went away) leaves the last
            // screen up, marked offline; the next answer brings it back and reloads.
            let current = effects.revision()
            if (current == nil) != state.offline { queue.append(.connection(offline: current == nil)) }
            if let current, current != revision {
                revision = current
                if !state.offline { queue.append(.storeChanged) }
            }
        }
        if Date().timeIntervalSince(lastTick) >= 1 {
            lastTick = Date()
            queue.append(.tick)
        }
        return queue
    }

    /// At quit: waits for every effect in flight and reduces its result, carrying out the marks
    /// and undos those results set off (an undo typed before its mark was confirmed), so that no
    /// decision is lost; the loads they ask for are not needed any more.
    func drain() {
        while worker.isBusy {
            worker.finish()
            for (result, _) in worker.take() {
                for case .store(let request) in reduce(&state, result) where request.writes {
                    worker.submit(request, now: now())
                }
            }
        }
    }
}
