import GRDB
import TriageModel

extension TriageStore {
    /// Schema 22's table, the same on both engines but for their types:
    /// - `project_tag_key`: the tag keys each project's events are counted under (the project's
    ///   name; "" for events without one), at most `EventFacets.maxTagKeysPerProject` of them
    ///   kept since (`IngestWriter.foldTags`): an event's tags of other keys are folded.
    static func projectTagKeyTable(text: String) -> String {
        """
        CREATE TABLE project_tag_key (
            project \(text) NOT NULL,
            key \(text) NOT NULL,
            PRIMARY KEY (project, key)
        );
        """
    }

    /// v22: each project's tag keys (`projectTagKeyTable`), filled from the events already stored
    /// (`fillProjectTagKeys`, the step's `after`).
    static func migrateToV22(_ db: GRDB.Database) throws {
        try db.execute(sql: """
            \(projectTagKeyTable(text: "TEXT"))
            PRAGMA user_version = 22;
            """)
    }

    /// The tag keys of the events already stored, per project: those their issues' rollups
    /// count (`EventFacets.pairs`), read once per distinct project and set of keys (a term). All
    /// are kept, however many: a key counted stays counted; the bound holds for keys to come.
    static func fillProjectTagKeys(_ db: SQLDatabase) throws {
        var keys = Set<[String]>()
        for row in try SQLRow.fetchAll(db, sql: """
            SELECT DISTINCT COALESCE(p.value, ''), t.value
            FROM event_row e JOIN term t ON t.id = e.custom_keys_term LEFT JOIN term p ON p.id = e.project_term
            """) {
            let project: String = try row.decode(0)
            for pair in EventFacets.pairs(customKeys: CustomKeys.decode(try row.decode(1) as String), facets: [])
            where pair.facet.hasPrefix("tag:") {
                keys.insert([project, String(pair.facet.dropFirst(4))])
            }
        }
        for key in keys {
            try db.execute(sql: "INSERT INTO project_tag_key (project, key) VALUES (?, ?)", arguments: [key[0], key[1]])
        }
    }
}
