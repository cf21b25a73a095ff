/// A team store's location, a `postgres://` URI: the server says on opening whether a store is
/// there and what this role may write; its schema is upgraded as it is opened.
struct PostgresLocation: StoreLocation {
    let location: String

    var exists: Bool { true }
    var isWritable: Bool { true }
    var writabilityIsKnownOnOpening: Bool { true }
    var needsUpgrade: Bool { false }
    var isUnfinished: Bool { false }
    var isTeamStore: Bool { true }

    func openEngine(readOnly: Bool, maxPages: Int?, create: Bool) throws(StoreError) -> any StoreEngine {
        try PostgresEngine(uri: location, readOnly: readOnly, create: create)
    }
}
