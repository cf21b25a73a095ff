/// What a cell means, not how it looks: the terminal maps each style to colours or, without colour, to attributes.
public enum Style: Hashable, Sendable, CaseIterable {
    case normal
    /// The top line of a screen.
    case header
    /// A warning in the top line (the data ended long before the window does).
    case headerAlert
    /// Column headings and section titles.
    case heading
    /// The column the list is ranked by.
    case ranked
    /// The selected row.
    case selected
    /// Secondary text: hints, units, scales.
    case dim
    /// A key name in hints and help.
    case key
    case badgeNew, badgeRegressed, badgeSpike
    /// A figure that got worse (a release's rate): bold and underlined without colour, never reverse like the selection.
    case flagged
    case statusOpen, statusRegressed, statusResolved, statusMuted
    /// The active tab of the detail tab bar.
    case tabActive
    case tab
    /// The prompt line and its cursor.
    case prompt, cursor
    /// Transient information and errors in the status line.
    case message, error
    case sparkline, bar
    /// The root cause in a chain ladder.
    case rootCause
    /// Links (tracker URLs).
    case link
}
