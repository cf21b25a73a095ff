import GRDB

/// One step of the store's schema, to `version` from the one before, in both dialects: the one
/// list (`TriageStore.schemaSteps`) a schema change adds to, beside its change to the description
/// of the current schema (`CurrentSchema.swift`). Each step is final once released.
struct SchemaStep: Sendable {
    /// The version the step brings a store to.
    let version: Int
    /// SQLite's migration's name in GRDB's table (as released: never renamed).
    let name: String
    /// SQLite's step; it sets `PRAGMA user_version` itself (after `after`, where there is one).
    let sqlite: @Sendable (GRDB.Database) throws -> Void
    /// PostgreSQL's step from `version - 1`; nil up to 6, the oldest PostgreSQL store. A new
    /// store on either engine is made at once from `TriageStore.currentSchema`, never by the steps;
    /// `SchemaTruthTests` holds the two the same.
    let postgres: String?
    /// What both engines do after the step's SQL, over rows SQL alone cannot read.
    let after: (@Sendable (SQLDatabase) throws -> Void)?

    init(_ version: Int, _ name: String, sqlite: @escaping @Sendable (GRDB.Database) throws -> Void, postgres: String? = nil,
         after: (@Sendable (SQLDatabase) throws -> Void)? = nil) {
        self.version = version
        self.name = name
        self.sqlite = sqlite
        self.postgres = postgres
        self.after = after
    }
}

extension TriageStore {
    /// Every step of the schema, oldest first: SQLite's migrator registers each, PostgreSQL's open
    /// runs the ones after its store's version. The last is `schemaVersion`.
    static let schemaSteps: [SchemaStep] = [
        SchemaStep(1, "v1", sqlite: migrateToV1),
        SchemaStep(2, "v2", sqlite: migrateToV2),
        SchemaStep(3, "v3", sqlite: migrateToV3),
        SchemaStep(4, "v4-views-owners", sqlite: migrateToV4),
        SchemaStep(5, "v5-releases", sqlite: migrateToV5),
        SchemaStep(6, "v6-merge-groups", sqlite: migrateToV6),
        SchemaStep(7, "v7-versions", sqlite: migrateToV7, postgres: """
            CREATE TABLE app_version (version TEXT COLLATE "C" PRIMARY KEY);
            INSERT INTO app_version SELECT DISTINCT app_version FROM event WHERE app_version IS NOT NULL;
            """),
        SchemaStep(8, "v8-narrow-events", sqlite: migrateToV8, postgres: PGSchema.narrowEvents),
        SchemaStep(9, "v9-code-origin", sqlite: migrateToV9, postgres: "ALTER TABLE chain_link ADD COLUMN origin TEXT COLLATE \"C\";"),
        SchemaStep(10, "v10-projects", sqlite: migrateToV10, postgres: PGSchema.projects),
        SchemaStep(11, "v11-retention", sqlite: migrateToV11, postgres: TriageStore.retentionTables(text: PGSchema.text)),
        SchemaStep(12, "v12-months", sqlite: migrateToV12,
                   postgres: longWindowRollups(text: PGSchema.text, rowless: "") + longWindowRollupsOfOldRows(month: PGSchema.month(ofDay:))),
        SchemaStep(13, "v13-citations-by-complaint", sqlite: migrateToV13, postgres: complaintCodeByComplaint + ";"),
        SchemaStep(14, "v14-levels-aliases", sqlite: migrateToV14, postgres: PGSchema.levelsAndAliases + formerGroupingMark + ";"),
        SchemaStep(15, "v15-key-urls", sqlite: migrateToV15, postgres: keyURLColumn(text: PGSchema.text) + ";"),
        SchemaStep(16, "v16-payloads", sqlite: migrateToV16, postgres: PGSchema.payloads),
        SchemaStep(17, "v17-facets", sqlite: migrateToV17, postgres: PGSchema.facets, after: countStoredTags),
        SchemaStep(18, "v18-kept-payloads", sqlite: migrateToV18, postgres: PGSchema.keptPayloads, after: hashMovedEventKeys),
        SchemaStep(19, "v19-project-code", sqlite: migrateToV19, postgres: projectCodeColumns(text: PGSchema.text)),
        SchemaStep(20, "v20-grouping-rules", sqlite: migrateToV20, postgres: PGSchema.groupingRules),
        SchemaStep(21, "v21-word-templates", sqlite: migrateToV21, postgres: PGSchema.wordTemplates),
        SchemaStep(22, "v22-project-tag-keys", sqlite: migrateToV22, postgres: PGSchema.projectTagKeys, after: fillProjectTagKeys),
        SchemaStep(23, "v23-environment-level", sqlite: { try migrateEnvironmentLevel($0, version: 23) }, postgres: environmentLevelBreakdowns),
        SchemaStep(24, "v24-platform", sqlite: migrateToV24, postgres: platformBreakdown),
    ]
}
