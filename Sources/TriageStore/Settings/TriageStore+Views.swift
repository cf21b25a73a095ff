import TriageModel

extension TriageStore {
    /// Saves a view under its name, replacing one of the same name; the query must parse.
    public func saveView(_ view: SavedView, at now: Timestamp) throws(StoreError) {
        try TriageStore.requireQuery(view.query)
        try write { db in
            try db.execute(sql: """
                INSERT INTO saved_view (name, query, rank_by, time_window, created_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (name) DO UPDATE SET query = excluded.query, rank_by = excluded.rank_by,
                    time_window = excluded.time_window, created_at = excluded.created_at
                """, arguments: [view.name, view.query, view.mode?.rawValue, view.window?.rawValue, now.millis])
        }
    }

    /// Every saved view, by name.
    public func savedViews() throws(StoreError) -> [SavedView] {
        try read { db in
            try SQLRow.fetchAll(db, sql: "SELECT name, query, rank_by, time_window FROM saved_view ORDER BY name").map { row in
                SavedView(name: (try row.decode(0)), query: (try row.decode(1)), mode: ((try row.decode(2)) as String?).flatMap(RankMode.init(rawValue:)),
                          window: ((try row.decode(3)) as String?).flatMap(TimeWindow.init(rawValue:)))
            }
        }
    }

    /// One saved view by name; an unknown name is an error naming the views there are.
    public func savedView(named name: String) throws(StoreError) -> SavedView {
        let views = try savedViews()
        guard let view = views.first(where: { $0.name == name }) else {
            throw StoreError.unknownName("view", name, known: views.map(\.name))
        }
        return view
    }

    /// Removes a saved view; an unknown name is an error.
    public func removeView(named name: String) throws(StoreError) {
        _ = try savedView(named: name)
        try write { db in try db.execute(sql: "DELETE FROM saved_view WHERE name = ?", arguments: [name]) }
    }
}

extension TriageStore {
    /// Refuses a query that does not parse (with `parse`: the language, or an owner rule's part of it) as a usage error.
    static func requireQuery(_ text: String,
                             _ parse: (String) throws(SearchQueryError) -> SearchQuery = SearchQuery.parse) throws(StoreError) {
        do {
            _ = try parse(text)
        } catch {
            throw StoreError(error.description, isUsageError: true)
        }
    }
}

extension StoreError {
    /// A name (of a view, an alert) the store does not hold: a usage error, naming those it does.
    static func unknownName(_ what: String, _ name: String, known: [String]) -> StoreError {
        let list = known.isEmpty ? "there are none yet" : "there are " + known.joined(separator: ", ")
        return StoreError("no \(what) is named \(name) (\(list))", isUsageError: true)
    }
}
