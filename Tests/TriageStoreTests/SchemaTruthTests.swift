import Foundation
import TestSupport
import Testing
@testable import TriageStore

/// One schema, written twice (SQLite's migrations, PostgreSQL's `PGSchema`): both engines' stores,
/// made new, hold the same tables with the same columns, and every list of tables the store
/// keeps (`copyTables`, `analyzedTables`, `PGSchema.identityTables`) names tables that exist. A
/// table or column added to one engine and not the other fails here.
@Suite struct SchemaTruthTests {
    /// Table → its columns, for the tables and views a store holds (not its bookkeeping).
    typealias Shape = [String: Set<String>]

    static func sqliteShape() throws -> Shape {
        let f = try TemporaryStore(sqlite: ())
        return try f.store.read { db in
            var shape: Shape = [:]
            let names = try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type IN ('table', 'view')
                AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%'
                """)
            for name in names {
                shape[name] = Set(try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [name]))
            }
            return shape
        }
    }

    static func postgresShape() throws -> (shape: Shape, identities: Set<String>) {
        let store = try TriageStore(path: try PostgresCluster.database())
        return try store.read { db in
            var shape: Shape = [:]
            // Tables (a partitioned one, not its partitions) and views of the store's schema.
            let names = try String.fetchAll(db, sql: """
                SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v') AND NOT c.relispartition
                """)
            for name in names {
                shape[name] = Set(try String.fetchAll(db, sql: """
                    SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?
                    """, arguments: [name]))
            }
            let identities = Set(try String.fetchAll(db, sql: """
                SELECT table_name FROM information_schema.columns
                WHERE table_schema = current_schema() AND column_name = 'id' AND is_identity = 'YES'
                """))
            return (shape, identities)
        }
    }

    @Test func bothEnginesHoldTheSameTablesWithTheSameColumns() throws {
        let sqlite = try Self.sqliteShape()
        let postgres = try Self.postgresShape().shape
        #expect(Set(sqlite.keys).subtracting(postgres.keys).sorted() == [], "tables only SQLite has")
        #expect(Set(postgres.keys).subtracting(sqlite.keys).sorted() == [], "tables only PostgreSQL has")
        for table in Set(sqlite.keys).intersection(postgres.keys).sorted() {
            #expect(sqlite[table] == postgres[table], "\(table): only SQLite \(sqlite[table]!.subtracting(postgres[table]!).sorted()), only PostgreSQL \(postgres[table]!.subtracting(sqlite[table]!).sorted())")
        }
    }

    /// The tables whose rows the store deletes while other tables reference them: a prune's complaints.
    static let parentsDeleted: Set<String> = ["complaint"]

    /// Each deleted parent row makes the engine look for children that still name it; without an
    /// index that leads with the child's column, every such look reads the whole child table (the
    /// first prune of a year at 30,000 events a day spent most of its time there).
    @Test func everyForeignKeyToATableWhoseRowsAreDeletedLeadsAnIndexOnBothEngines() throws {
        let f = try TemporaryStore(sqlite: ())
        let sqlite = try f.store.read { db in
            try SQLRow.fetchAll(db, sql: """
                SELECT m.name, k."from", k."table",
                    EXISTS (SELECT 1 FROM pragma_index_list(m.name) l
                            WHERE (SELECT name FROM pragma_index_info(l.name) WHERE seqno = 0) = k."from")
                FROM sqlite_master m, pragma_foreign_key_list(m.name) k WHERE m.type = 'table'
                """).map { (child: "\((try $0.decode(0)) as String).\((try $0.decode(1)) as String)", parent: (try $0.decode(2)) as String, indexed: ((try $0.decode(3)) as Int64) == 1) }
        }
        let store = try TriageStore(path: try PostgresCluster.database())
        let postgres = try store.read { db in
            try SQLRow.fetchAll(db, sql: """
                SELECT c.conrelid::regclass::text || '.' || a.attname, c.confrelid::regclass::text,
                    CASE WHEN EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.conrelid AND i.indkey[0] = c.conkey[1])
                        THEN 1 ELSE 0 END::bigint
                FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
                WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace
                """).map { (child: (try $0.decode(0)) as String, parent: (try $0.decode(1)) as String, indexed: ((try $0.decode(2)) as Int64) == 1) }
        }
        for (engine, keys) in [("SQLite", sqlite), ("PostgreSQL", postgres)] {
            let deleted = keys.filter { Self.parentsDeleted.contains($0.parent) }
            #expect(!deleted.isEmpty, "\(engine): no foreign key to \(Self.parentsDeleted.sorted()) found")
            for key in deleted {
                #expect(key.indexed, "\(engine): \(key.child) references \(key.parent) and leads no index")
            }
        }
    }

    @Test func copyMovesEveryTableButTheStoresOwnBookkeeping() throws {
        let sqlite = try Self.sqliteShape()
        // `meta` is copied key by key (the revision and schema stay the target's); `event` is the view over `event_row`.
        let tables = Set(sqlite.keys).subtracting(["meta", "event"])
        #expect(Set(TriageStore.copyTables) == tables, "only in copyTables: \(Set(TriageStore.copyTables).subtracting(tables).sorted()); not copied: \(tables.subtracting(TriageStore.copyTables).sorted())")
        #expect(TriageStore.copyTables.count == Set(TriageStore.copyTables).count)
    }

    @Test func theAnalyzedAndIdentityListsNameTablesThatExist() throws {
        let (shape, identities) = try Self.postgresShape()
        #expect(Set(TriageStore.analyzedTables).isSubset(of: shape.keys), "\(Set(TriageStore.analyzedTables).subtracting(shape.keys).sorted())")
        // Every table whose id PostgreSQL generates has its sequence set after a copy, and no other.
        #expect(Set(PGSchema.identityTables) == identities)
    }
}
