/// A named query with its ranking and window, kept in the store so that a team shares it.
public struct SavedView: Hashable, Sendable {
    public var name: String
    /// The query as typed (it parses: the store keeps only queries that do).
    public var query: String
    /// The ranking it opens with; nil keeps the current one.
    public var mode: RankMode?
    /// The window it opens with; nil keeps the current one.
    public var window: TimeWindow?

    public init(name: String, query: String, mode: RankMode? = nil, window: TimeWindow? = nil) {
        self.name = name
        self.query = query
        self.mode = mode
        self.window = window
    }

    /// A list query opened on this view: its query, ranking and window over `base`.
    public func applied(to base: IssueQuery) -> IssueQuery {
        var query = base
        query.text = self.query
        query.scope = nil
        if let mode { query.mode = mode }
        if let window { query.window = window }
        return query
    }
}
