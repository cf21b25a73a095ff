/// The engine a store runs on (opened by its `StoreLocation`): how it opens, reads and writes in transactions, and the few things
/// only one engine does. One implementation each (`SQLite/SQLiteEngine.swift`,
/// `Postgres/PostgresEngine.swift`); the store asks these and never which engine it has.
protocol StoreEngine: AnyObject, Sendable {
    /// How messages name the store: a file's path, or `host:port/dbname`.
    var target: String { get }
    /// Whether this connection may write (a read-only open, or a role that may not).
    var canWrite: Bool { get }

    /// Runs `body` on one consistent snapshot.
    func read<T>(_ body: (SQLDatabase) throws -> T) throws -> T
    /// Runs `body` in one write transaction that raises the revision and tells other processes.
    func write<T>(_ body: (SQLDatabase) throws -> T) throws -> T
    /// The revision counter, read again only when it may have moved.
    func revision() throws -> Int64
    /// The engine's own integrity check of its pages: `["ok"]`, or what it found.
    func integrityCheck() -> [String]
    /// What `check` says of that check (SQLite's runs on the file; a server checks its own pages).
    var integrityNote: String { get }
    /// A consistent copy of `store` into a new SQLite file.
    func backup(_ store: TriageStore, to path: String) throws(StoreError)
    /// The planner's statistics after a bulk write, where the engine keeps them.
    func refreshStatistics(tables: [String]) throws
    /// Where `ingest` copies rejected lines.
    var rejectsPath: String { get }
    /// The bytes the store takes.
    func bytes() throws -> Int64
    /// The refusal of a write on a store that may not be written.
    var readOnlyError: StoreError { get }

    /// Deletes the raw events before `cut` (the start of a month) in short write transactions
    /// of about `chunk` events each, so that an ingest and a dashboard keep working; returns how
    /// many went. SQLite deletes by issue and time range; PostgreSQL drops whole month partitions.
    func deleteEvents(before cut: Int64, chunk: Int) throws -> Int
    /// Gives the space of deleted rows back to the file system where the engine can, in short
    /// steps; says what it did.
    func reclaimSpace() throws -> String
    /// Rewrites the store once to give every free page back (SQLite's VACUUM, switching a file
    /// made before retention to incremental auto-vacuum); says what it did.
    func compact() throws -> String
    /// The bytes each table takes with its indexes (a partitioned table with its partitions).
    func tableBytes() throws -> [(table: String, bytes: Int64)]
    /// The bytes free on the disk that holds the store; nil where the store is a server's, whose
    /// disk this process cannot see.
    func freeBytes() -> Int64?
}
