import TriageModel

/// Applies one action to the state and returns the effects the program must perform: the only way state changes.
/// Input goes to the screen on top; each store answer lands where the load that asked for it says (`StoreAnswer.land`).
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
    case .answered(let answer):
        return answer.land(&state)
    case .codeLoaded(let answer):
        CodeKeys.loaded(answer, &state)
        return []
    case .editorClosed(let problem):
        state.message = problem.map { StatusMessage($0, isError: true, ticksLeft: 15) }
        return []
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
