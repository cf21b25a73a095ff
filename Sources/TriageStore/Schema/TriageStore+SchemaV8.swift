import GRDB
import TriageModel

extension TriageStore {
    /// The event's texts that repeat endlessly (a device model, an OS, a message), stored once in
    /// `term` and named in `event_row` by the term's id, in a column named `<name>_term`.
    /// The app version stays text (it is short, and `event_by_version` reads it), and so do the
    /// event id, user and session (nearly one per event or per few events: interning them would
    /// store each twice).
    /// Since schema 10 also the project, since 14 the level, since 17 the context facets (`termColumnsV8` are those the v8 migrations name).
    static let termColumns = termColumnsV8 + ["project", "level", "facets"]

    /// The term columns of schema 8, which its migrations made (they stay as they were released).
    static let termColumnsV8 = [
        "app_build", "platform", "os_name", "os_version", "device_model", "network", "orientation", "app_state",
        "environment", "message", "custom_keys", "source", "kind",
    ]

    /// The columns of `event_row` in order: as `event`'s, with each term column's id in place of its text.
    /// Schema 10 adds `project_term` at the end (`migrateToV10`), 14 `level_term` (`migrateToV14`),
    /// 17 `facets_term` (`migrateToV17`).
    static let eventRowColumns = eventRowColumnsV14 + ["facets_term"]

    /// The columns of `event_row` as schema 8 made it.
    static let eventRowColumnsV8 = [
        "id", "event_id", "issue_id", "ts", "app_version", "app_build_term", "platform_term", "os_name_term",
        "os_version_term", "device_model_term", "network_term", "orientation_term", "app_state_term", "free_ram",
        "free_disk", "jailbroken", "user_id", "session_id", "environment_term", "message_term", "custom_keys_term",
        "source_term", "kind_term",
    ]

    /// The columns ingest writes, in the order it binds them: the event's own values, then the ids
    /// of its texts in `termColumns`' order (`IngestWriter.termIDs`). The id comes from the table.
    static let eventInsertColumns = ["event_id", "issue_id", "ts", "app_version", "free_ram", "free_disk", "jailbroken",
                                     "user_id", "session_id"] + termColumns.map { "\($0)_term" }

    /// `SELECT`'s columns and `FROM` of a read over `source` (aliased `e`) that gives each term
    /// column of `names` its text again, under its own name; other columns are read from `e` as
    /// they are. Each text is a subquery of its own, not a join: a column that a query does not
    /// read is then never looked up, on both engines, also in an aggregate (SQLite drops unused
    /// LEFT JOINs from plain selects only: counting the events through joins looked up all
    /// thirteen texts of each). A read of every row's texts asks for `joined`: LEFT JOINs, which
    /// PostgreSQL answers with one hash of `term` per column rather than a look-up per row.
    static func withTerms(_ names: [String], from source: String, joined: Bool = false) -> (columns: String, from: String) {
        var columns: [String] = [], joins: [String] = []
        for name in names {
            if !termColumns.contains(name) {
                columns.append("e.\(name)")
            } else if joined {
                columns.append("t_\(name).value AS \(name)")
                joins.append("LEFT JOIN term t_\(name) ON t_\(name).id = e.\(name)_term")
            } else {
                columns.append("(SELECT value FROM term WHERE id = e.\(name)_term) AS \(name)")
            }
        }
        return (columns.joined(separator: ", "), ([source + " e"] + joins).joined(separator: " "))
    }

    /// `SELECT`'s columns (those of `event_row`, in order) and `FROM` of a read of events as text
    /// from `source` (aliased `e`, with `event`'s columns), each term column's text looked up as
    /// its id in `term`: the text must be there already. `rowColumns`: the columns of `event_row` written.
    static func withTermIDs(from source: String, rowColumns: [String] = eventRowColumns) -> (columns: String, from: String) {
        var columns: [String] = [], joins: [String] = []
        for column in rowColumns {
            guard column.hasSuffix("_term") else { columns.append("e.\(column)"); continue }
            let name = column.dropLast(5)
            columns.append("t_\(name).id")
            joins.append("LEFT JOIN term t_\(name) ON t_\(name).value = e.\(name)")
        }
        return (columns.joined(separator: ", "), ([source + " e"] + joins).joined(separator: " "))
    }

    /// The `event` view: the event rows with their texts, in the columns and order of the table
    /// it replaced, so that every read of events stays as it was (`project` at the end since schema 10, then `level` since 14).
    static var eventView: String { eventView(of: eventRowColumns) }

    /// The `event` view over the given columns of `event_row` (`eventRowColumnsV8` in the v8 migrations).
    static func eventView(of rowColumns: [String]) -> String {
        let read = withTerms(rowColumns.map { $0.hasSuffix("_term") ? String($0.dropLast(5)) : $0 }, from: "event_row")
        return "CREATE VIEW event AS SELECT \(read.columns) FROM \(read.from)"
    }

    /// A complaint's time beside each issue it cites, in order: an issue's newest complaints are
    /// the start of a range, not a sort of all of them (the busiest issue has 78k at 10M events).
    static let complaintCodeByTime = "CREATE INDEX complaint_code_by_time ON complaint_code(key, ts, complaint_id)"

    /// Schema 8, the narrow event row: the repeated texts of each event (`termColumns`) move into
    /// `term`, one row per distinct text, and `event_row` names them by id. The `event` view reads
    /// as the table did. And `complaint_code` keeps each complaint's time (`complaintCodeByTime`).
    static func migrateToV8(_ db: GRDB.Database) throws {
        let distinct = termColumnsV8.map { "SELECT \($0) FROM event WHERE \($0) IS NOT NULL" }.joined(separator: " UNION ")
        let ids = withTermIDs(from: "event", rowColumns: eventRowColumnsV8)
        try db.execute(sql: """
            CREATE TABLE term (id INTEGER PRIMARY KEY, value TEXT NOT NULL UNIQUE);
            INSERT INTO term (value) \(distinct);
            CREATE TABLE event_row (
                id INTEGER PRIMARY KEY,
                event_id TEXT NOT NULL,
                issue_id INTEGER NOT NULL REFERENCES issue(id),
                ts INTEGER NOT NULL,
                app_version TEXT,
                app_build_term INTEGER, platform_term INTEGER, os_name_term INTEGER, os_version_term INTEGER,
                device_model_term INTEGER, network_term INTEGER, orientation_term INTEGER, app_state_term INTEGER,
                free_ram INTEGER, free_disk INTEGER, jailbroken INTEGER,
                user_id TEXT, session_id TEXT,
                environment_term INTEGER, message_term INTEGER, custom_keys_term INTEGER,
                source_term INTEGER NOT NULL, kind_term INTEGER
            );
            INSERT INTO event_row SELECT \(ids.columns) FROM \(ids.from) ORDER BY e.id;
            DROP TABLE event;
            \(eventView(of: eventRowColumnsV8));
            CREATE UNIQUE INDEX event_by_issue_time ON event_row(issue_id, ts, event_id);
            CREATE INDEX event_by_version ON event_row(app_version, ts, issue_id, user_id);
            ALTER TABLE complaint_code ADD COLUMN ts INTEGER NOT NULL DEFAULT 0;
            UPDATE complaint_code SET ts = (SELECT c.ts FROM complaint c WHERE c.id = complaint_code.complaint_id);
            \(complaintCodeByTime);
            PRAGMA user_version = 8;
            """)
    }
}

extension TriageStore {
    /// The event columns the breakdowns read (`expression` of each dimension).
    static let breakdownColumns = Dimension.allCases.flatMap(\.declaration.fields)

    /// Events counted per combination of their breakdown values: grouped by the columns as stored
    /// (ids, which compare as integers), each combination's texts then read once. Selects `keys`
    /// (SQL over `event_row`, with a name each), each dimension's value as `v0…` in the order of
    /// `Dimension.allCases` (`unknown` where the event has none), and the count as `n`; a value
    /// may come in more than one row (two OS ids that read as one text), so callers sum.
    static func dimensionCombinations(keys: [(sql: String, name: String)], where condition: String) -> String {
        let stored = breakdownColumns.map { termColumns.contains($0) ? "\($0)_term" : $0 }
        let grouped = keys.map { "\($0.sql) AS \($0.name)" } + stored
        let inner = """
            SELECT \(grouped.joined(separator: ", ")), COUNT(*) AS n FROM event_row WHERE \(condition)
            GROUP BY \((1...grouped.count).map(String.init).joined(separator: ", "))
            """
        let read = withTerms(keys.map(\.name) + breakdownColumns + ["n"], from: "(\(inner))", joined: true)
        let values = Dimension.allCases.enumerated().map { "COALESCE(\(expression($1)), 'unknown') AS v\($0)" }
        return "SELECT \((keys.map(\.name) + values + ["n"]).joined(separator: ", ")) FROM (SELECT \(read.columns) FROM \(read.from)) AS combination"
    }
}
