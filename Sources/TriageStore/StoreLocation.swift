/// Where a store lives, resolved once from the location a user gave (`TriageStore.locate`): what
/// opening asks before it opens (existence, writability, upgrades), and the engine it opens. One
/// kind per engine, in that engine's folder (`SQLite/SQLiteLocation.swift`,
/// `Postgres/PostgresLocation.swift`); opening asks these and never which engine it has.
protocol StoreLocation: Sendable {
    /// The location as given: a file's path, or a `postgres://` URI.
    var location: String { get }
    /// Whether a store may be there to open: a file that exists; a server is asked on opening.
    var exists: Bool { get }
    /// Whether this process may write it, as far as can be told before opening: a file's
    /// permissions; a server's role is asked on opening.
    var isWritable: Bool { get }
    /// Whether only opening tells what may be written (a server's role): a reader then opens one
    /// read-write connection, and writes nothing unless a mute has come due.
    var writabilityIsKnownOnOpening: Bool { get }
    /// Whether the store is of an older schema, or its creation was cut short: something only a
    /// writer's open completes (a reading command then opens it for writing once).
    var needsUpgrade: Bool { get }
    var isUnfinished: Bool { get }
    /// Whether the store is a team store on PostgreSQL rather than an SQLite file.
    var isTeamStore: Bool { get }
    /// Opens the engine, creating or upgrading the schema as the arguments allow.
    func openEngine(readOnly: Bool, maxPages: Int?, create: Bool) throws(StoreError) -> any StoreEngine
}

extension TriageStore {
    /// The kind of `location`: a team store on PostgreSQL (a `postgres://` or `postgresql://`
    /// URI) or an SQLite file. The one place the store picks its engine.
    static func locate(_ location: String) -> any StoreLocation {
        location.hasPrefix("postgres://") || location.hasPrefix("postgresql://")
            ? PostgresLocation(location: location) : SQLiteLocation(location: location)
    }
}
