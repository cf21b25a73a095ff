import Foundation
import GRDB
import TestSupport
import Testing
@testable import TriageStore

/// One schema, described once (`TriageStore.currentSchema`) and reached again by each engine's
/// steps: on each engine a new store and one brought up from the oldest schema the tests can make
/// hold the same schema (columns in order with their types, keys and defaults, indexes with their
/// conditions, foreign keys, views), both engines' new stores hold the same tables with the same
/// columns, and every list of tables the store keeps (`copyTables`, `analyzedTables`,
/// `PGSchema.identityTables`) names tables that exist. A table, column or index added to the
/// description and not to a step, or to one engine and not the other, fails here.
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

    /// SQLite's schema as lines to compare, sorted: each table's kind, each column (in its place,
    /// by its type's affinity: `BIGINT` and `INTEGER` are one), foreign key and index (with its
    /// columns and condition), each view's SQL. Bookkeeping (GRDB's table) left out.
    static func sqliteSchema(_ db: SQLDatabase) throws -> [String] {
        func affinity(_ type: String) -> String {
            let t = type.uppercased()
            if t.contains("INT") { return "integer" }
            if t.contains("CHAR") || t.contains("CLOB") || t.contains("TEXT") { return "text" }
            if t.isEmpty || t.contains("BLOB") { return "blob" }
            return "numeric"
        }
        func collapsed(_ sql: String) -> String { sql.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        var lines: [String] = []
        for object in try SQLRow.fetchAll(db, sql: """
            SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'view')
            AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%'
            """) {
            let (type, name, sql): (String, String, String) = (try object.decode(0), try object.decode(1), try object.decode(2))
            if type == "view" { lines.append("view \(name): \(collapsed(sql))"); continue }
            lines.append("table \(name)\(collapsed(sql).uppercased().hasSuffix("WITHOUT ROWID") ? " without rowid" : "")")
            for c in try SQLRow.fetchAll(db, sql: #"SELECT cid, name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)"#, arguments: [name]) {
                let (cid, column, ctype, notNull): (Int64, String, String, Int64) = (try c.decode(0), try c.decode(1), try c.decode(2), try c.decode(3))
                let value: String? = try c.decode(4)
                let pk: Int64 = try c.decode(5)
                lines.append("column \(name) #\(cid) \(column) \(affinity(ctype))\(notNull == 1 ? " not null" : "")\(value.map { " default \($0)" } ?? "")\(pk > 0 ? " pk\(pk)" : "")")
            }
            for k in try SQLRow.fetchAll(db, sql: #"SELECT "from", "table", "to" FROM pragma_foreign_key_list(?)"#, arguments: [name]) {
                let to: String? = try k.decode(2)
                lines.append("reference \(name).\(try k.decode(0) as String) -> \(try k.decode(1) as String)(\(to ?? ""))")
            }
            for i in try SQLRow.fetchAll(db, sql: #"SELECT name, "unique", origin FROM pragma_index_list(?)"#, arguments: [name]) {
                let (index, unique, origin): (String, Int64, String) = (try i.decode(0), try i.decode(1), try i.decode(2))
                let columns = try SQLRow.fetchAll(db, sql: #"SELECT name, "desc", coll FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno"#,
                                                  arguments: [index]).map { row in
                    "\((try row.decode(0) as String?) ?? "<expression>")\((try row.decode(1) as Int64) == 1 ? " desc" : "") \(try row.decode(2) as String)"
                }
                let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?", arguments: [index])
                let condition = sql.flatMap { $0.range(of: " WHERE ", options: .caseInsensitive).map { collapsed(String(sql![$0.upperBound...])) } }
                lines.append("index \(index) on \(name)\(unique == 1 ? " unique" : "") \(origin) (\(columns.joined(separator: ", ")))\(condition.map { " where \($0)" } ?? "")")
            }
        }
        return lines.sorted()
    }

    /// PostgreSQL's schema as lines to compare, sorted: each table's kind (partitioned or not) and
    /// each view's definition, each column in its order (not its number, which a dropped column
    /// leaves a gap in) with its type, collation, nullability, default and identity, each
    /// constraint and each index by its definition. Partitions are left out (the writer makes them).
    static func postgresSchema(_ db: SQLDatabase) throws -> [String] {
        var lines: [String] = []
        let schema = try String.fetchOne(db, sql: "SELECT current_schema()")!
        for object in try SQLRow.fetchAll(db, sql: """
            SELECT c.relname, c.relkind::text, CASE WHEN c.relkind = 'v' THEN pg_get_viewdef(c.oid) ELSE '' END
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v') AND NOT c.relispartition
            """) {
            let (name, kind, view): (String, String, String) = (try object.decode(0), try object.decode(1), try object.decode(2))
            lines.append("relation \(name) \(kind)\(view.isEmpty ? "" : ": " + view.split(whereSeparator: \.isWhitespace).joined(separator: " "))")
            let columns = try SQLRow.fetchAll(db, sql: """
                SELECT column_name, data_type, COALESCE(collation_name, ''), is_nullable, COALESCE(column_default, ''), is_identity,
                    COALESCE(identity_generation, '')
                FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position
                """, arguments: [name])
            for (place, c) in columns.enumerated() {
                let values = try (0..<7).map { try c.decode($0) as String }
                lines.append("column \(name) #\(place) \(values.joined(separator: " "))")
            }
            for k in try SQLRow.fetchAll(db, sql: """
                SELECT contype::text, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = ?::regclass
                """, arguments: [name]) {
                lines.append("constraint \(name) \(try k.decode(0) as String) \(try k.decode(1) as String)")
            }
        }
        for i in try SQLRow.fetchAll(db, sql: """
            SELECT i.indexname, i.indexdef FROM pg_indexes i JOIN pg_class c ON c.relname = i.tablename AND c.relnamespace = current_schema()::regnamespace
            WHERE i.schemaname = current_schema() AND NOT c.relispartition
            """) {
            lines.append("index \(try i.decode(0) as String): \((try i.decode(1) as String).replacingOccurrences(of: " \(schema).", with: " "))")
        }
        return lines.sorted()
    }

    /// The lines only one side has, to read in a failure.
    static func difference(_ a: [String], _ b: [String]) -> String {
        "only in the first: \(a.filter { !b.contains($0) }), only in the second: \(b.filter { !a.contains($0) })"
    }

    @Test func aNewSQLiteStoreHasTheSchemaOfOneBroughtUpFromTheFirst() throws {
        let fresh = try TemporaryStore(sqlite: ())
        let made = try fresh.store.read(Self.sqliteSchema)
        let path = fresh.path + "-v1.sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let queue = try DatabaseQueue(path: path)
        try TriageStore.migrator.migrate(queue, upTo: "v1")
        // The steps as an older errtriage's open would run them, one after another.
        try TriageStore.migrator.migrate(queue)
        let upgraded = try queue.read { db in try Self.sqliteSchema(SQLDatabase(GRDBConnection(db), writes: RowByRowWrites())) }
        try queue.close()
        #expect(made.contains { $0.hasPrefix("table event_row") } && made.contains { $0.hasPrefix("view event:") })
        #expect(made == upgraded, "\(Self.difference(made, upgraded))")
        // Stamped at the current version, every step recorded as run: the migrator has nothing to do.
        #expect(try fresh.store.read { db in try TriageStore.storedSchemaVersion(db) } == TriageStore.schemaVersion)
        let recorded = try fresh.store.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(Set(recorded) == Set(TriageStore.schemaSteps.map(\.name)))
    }

    /// The oldest PostgreSQL store the tests make from a creation is schema 21's, as released by
    /// hand (`PGSchema.creation21`); `StoreTests` upgrades one of schema 6 and compares it too.
    @Test func aNewPostgreSQLStoreHasTheSchemaOfOneBroughtUpFromTheReleasedCreation() throws {
        let made = try TriageStore(path: try PostgresCluster.database()).read(Self.postgresSchema)
        let uri = try PostgresCluster.database()
        try PGConnection(uri).executeScript(PGSchema.creation21)
        let upgraded = try TriageStore(path: uri).read(Self.postgresSchema)
        #expect(made.contains { $0.hasPrefix("relation event_row p") } && made.contains { $0.hasPrefix("relation event v") })
        #expect(made == upgraded, "\(Self.difference(made, upgraded))")
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
