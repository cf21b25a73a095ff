/// Input from the terminal, decoded for the dashboard.
public enum TerminalEvent: Hashable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    case resize(Size)

    /// The action the event becomes.
    public var action: DashboardAction {
        switch self {
        case .key(let key): .key(key)
        case .mouse(let mouse): .mouse(mouse)
        case .resize(let size): .resize(size)
        }
    }
}
