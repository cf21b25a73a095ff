/// How an assignment is recorded in an issue's history.
public enum Assignment {
    /// The history row's text: `assigned to ana (was bob)`, `unassigned (was ana)`.
    public static func historyText(to assignee: String?, from previous: String?) -> String {
        let was = previous.map { " (was \($0))" } ?? ""
        return assignee.map { "assigned to \($0)" + was } ?? "unassigned" + was
    }
}
