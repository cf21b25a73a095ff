import TriageModel

/// Applies one action to the state and returns the effects the program must perform: the only way state changes.
/// Input goes to the screen on top; each store answer goes to the screen (or the shell's part) that asked for it.
public func reduce(_ state: inout DashboardState, _ action: DashboardAction) -> [DashboardEffect] {
    let effects = reduceAction(&state, action)
    ListScreen.refit(&state)
    return effects
}

private func reduceAction(_ state: inout DashboardState, _ action: DashboardAction) -> [DashboardEffect] {
    switch action {
    case .key(let key):
        return state.press(key)
    case .mouse(let event):
        return state.mouse(event)
    case .resize(let size):
        state.size = size
        state.settleScrolling()
        return []
    case .listLoaded(let list):
        return ListScreen.loaded(list, &state)
    case .detailLoaded(let detail):
        return DetailScreen.loaded(detail, &state)
    case .pivotLoaded(let layer, let query, let groups, let unknownDomain):
        PivotScreen.loaded(layer: layer, query: query, groups: groups, unknownDomain: unknownDomain, &state)
        return []
    case .releaseLoaded(let comparison, let window):
        ReleaseScreen.loaded(comparison, window: window, &state)
        return []
    case .agendaLoaded(let agenda, let unlinked):
        return state.agendaLoaded(agenda, unlinked: unlinked)
    case .ticketWritten(_, let path, let text):
        state.message = StatusMessage("Ticket: \(path) (copied where the terminal allows)", ticksLeft: 15)
        return [.copy(text)]
    case .viewsLoaded(let views):
        ViewsScreen.loaded(views, &state)
        return []
    case .eventLoaded(let event):
        return EventScreen.loaded(event, &state)
    case .codeLoaded(let answer):
        CodeKeys.loaded(answer, &state)
        return []
    case .editorClosed(let problem):
        state.message = problem.map { StatusMessage($0, isError: true, ticksLeft: 15) }
        return []
    case .marked(let receipt):
        return state.confirmMark(receipt)
    case .undone(let receipt):
        return state.confirmUndo(receipt)
    case .undoSkipped(let receipt, let why):
        return state.skipUndo(receipt, because: why)
    case .merged(let head, let keys, let receipt):
        if let receipt { state.marks.undoable.append(.merge(receipt)) }
        return ListScreen.merged(head: head, keys: keys, &state)
    case .mergeUndone(let receipt, let restored):
        return state.confirmUndoMerge(receipt, restored: restored)
    case .ruleAdded(let preview):
        return ListScreen.ruleAdded(preview, &state)
    case .failed(let text):
        state.fail(text)
        return []
    case .waiting(let text):
        state.message = StatusMessage(text, ticksLeft: 4)
        return []
    case .storeChanged:
        return state.reloadEffects()
    case .connection(let offline):
        guard offline != state.offline else { return [] }
        state.offline = offline
        return offline ? [] : state.reloadEffects()
    case .tick:
        if var message = state.message {
            message.ticksLeft -= 1
            state.message = message.ticksLeft > 0 ? message : nil
        }
        return []
    }
}
