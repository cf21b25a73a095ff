/// Raw reads for the bench's baseline (`TriageStoreNaive`): what a store without rollups would
/// run. Behind an SPI, so that no command of the app reaches SQL through it.
@_spi(Baseline) public struct BaselineReader {
    let db: SQLDatabase

    /// The rows `sql` returns, counted; `arguments` bound to its `?` placeholders in order.
    public func rowCount(_ sql: String, _ arguments: [Int64]) throws -> Int {
        try SQLRow.fetchAll(db, sql: sql, arguments: SQLArguments(arguments)).count
    }

    /// The first column of the first row as an integer, `text` bound to its one placeholder; nil where there is none.
    public func integer(_ sql: String, _ text: String) throws -> Int64? {
        try Int64.fetchOne(db, sql: sql, arguments: [text])
    }

    /// The first column of the first row as an integer; nil where there is none.
    public func integer(_ sql: String) throws -> Int64? {
        try Int64.fetchOne(db, sql: sql)
    }
}

extension TriageStore {
    /// Runs `body` on one consistent snapshot, with raw reads (the bench's baseline only).
    @_spi(Baseline) public func baselineRead<T>(_ body: (BaselineReader) throws -> T) throws(StoreError) -> T {
        try read { db in try body(BaselineReader(db: db)) }
    }
}
