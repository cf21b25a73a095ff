import DashboardCore

/// Input from the terminal, decoded for the dashboard.
public enum TerminalEvent: Hashable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    case resize(Size)
}
