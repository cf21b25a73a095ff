/// A statement the store prepares once and runs per event or per rollup row, its values bound
/// one by one from Swift values: on SQLite through its C API (`SQLiteStatementDriver`), on PostgreSQL
/// prepared once per connection with the values as text (`PGStatement`).
struct BoundStatement {
    private let driver: any StatementDriver

    init(_ db: SQLDatabase, sql: String) throws {
        driver = try db.connection.statement(sql: sql)
    }

    mutating func bind(_ value: Int64) { driver.bind(value) }

    mutating func bind(_ value: Int) { driver.bind(Int64(value)) }

    mutating func bind(_ value: Int64?) {
        guard let value else { return driver.bindNull() }
        driver.bind(value)
    }

    mutating func bind(_ value: Bool?) {
        guard let value else { return driver.bindNull() }
        driver.bind(Int64(value ? 1 : 0))
    }

    mutating func bind(_ value: String?) {
        guard let value else { return driver.bindNull() }
        driver.bind(value)
    }

    /// Runs a statement that returns no rows; the parameters are then bound afresh.
    mutating func execute() throws { try driver.execute() }

    /// Runs a query for the first column of its first row, as an integer (nil: no row, or NULL).
    mutating func fetchInt64() throws -> Int64? { try driver.fetchInt64() }
}
