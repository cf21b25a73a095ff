/// One value in or out of either engine: SQLite's storage classes, to which PostgreSQL's text
/// results are read back by their column type.
enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    /// Bytes (a kept event's compressed payload): SQLite's BLOB, PostgreSQL's bytea.
    case blob([UInt8])

    /// The value as PostgreSQL's text format writes it (nil for NULL); bytes in bytea's hex form.
    var postgresText: String? {
        switch self {
        case .null: nil
        case .integer(let i): String(i)
        case .real(let d): String(d)
        case .text(let s): s
        case .blob(let b): SQLValue.byteaHex(b)
        }
    }

    /// `\x` and two hex digits a byte: how PostgreSQL writes and reads bytea as text.
    static func byteaHex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = [0x5C, 0x78]
        out.reserveCapacity(2 + bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of bytea's hex form (`\x…`); nil when the text is not that form.
    static func bytes(byteaHex text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count >= 2, utf8[0] == 0x5C, utf8[1] == 0x78, utf8.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: c - 0x30
            case 0x61...0x66: c - 0x61 + 10
            case 0x41...0x46: c - 0x41 + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity((utf8.count - 2) / 2)
        var i = 2
        while i < utf8.count {
            guard let hi = nibble(utf8[i]), let lo = nibble(utf8[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }
}

extension Array: SQLConvertible where Element == UInt8 {
    var sqlValue: SQLValue { .blob(self) }
    static func from(_ value: SQLValue) -> [UInt8]? {
        switch value {
        case .blob(let b): b
        case .text(let s): Array(s.utf8)
        default: nil
        }
    }
}

/// A Swift type the store binds and reads: integers, reals, text, booleans (stored as 0 and 1 on
/// both engines) and optionals of them.
protocol SQLConvertible {
    var sqlValue: SQLValue { get }
    /// Nil when the value does not convert (a NULL into a non-optional, text into a number).
    static func from(_ value: SQLValue) -> Self?
}

extension Int64: SQLConvertible {
    var sqlValue: SQLValue { .integer(self) }
    static func from(_ value: SQLValue) -> Int64? {
        switch value {
        case .integer(let i): i
        case .real(let d): Int64(exactly: d.rounded(.towardZero))
        case .text(let s): Int64(s)
        case .null, .blob: nil
        }
    }
}

extension Int: SQLConvertible {
    var sqlValue: SQLValue { .integer(Int64(self)) }
    static func from(_ value: SQLValue) -> Int? { Int64.from(value).map { Int($0) } }
}

extension Int32: SQLConvertible {
    var sqlValue: SQLValue { .integer(Int64(self)) }
    static func from(_ value: SQLValue) -> Int32? { Int64.from(value).flatMap { Int32(exactly: $0) } }
}

extension Double: SQLConvertible {
    var sqlValue: SQLValue { .real(self) }
    static func from(_ value: SQLValue) -> Double? {
        switch value {
        case .integer(let i): Double(i)
        case .real(let d): d
        case .text(let s): Double(s)
        case .null, .blob: nil
        }
    }
}

extension Bool: SQLConvertible {
    var sqlValue: SQLValue { .integer(self ? 1 : 0) }
    static func from(_ value: SQLValue) -> Bool? {
        switch value {
        case .integer(let i): i != 0
        case .real(let d): d != 0
        case .text(let s): s == "t" || s == "true" || (Int64(s).map { $0 != 0 } ?? false)
        case .null, .blob: nil
        }
    }
}

extension String: SQLConvertible {
    var sqlValue: SQLValue { .text(self) }
    static func from(_ value: SQLValue) -> String? {
        switch value {
        case .text(let s): s
        case .integer(let i): String(i)
        case .real(let d): String(d)
        case .null, .blob: nil
        }
    }
}

extension Optional: SQLConvertible where Wrapped: SQLConvertible {
    var sqlValue: SQLValue { self?.sqlValue ?? .null }
    static func from(_ value: SQLValue) -> Wrapped?? {
        if case .null = value { return .some(nil) }
        return Wrapped.from(value).map { .some($0) }
    }
}

/// The values bound to a statement's `?` placeholders, in order.
struct SQLArguments: ExpressibleByArrayLiteral, Sendable {
    var values: [SQLValue]

    init() { values = [] }

    init(arrayLiteral elements: (any SQLConvertible)?...) {
        values = elements.map { $0?.sqlValue ?? .null }
    }

    init<S: Sequence>(_ sequence: S) where S.Element: SQLConvertible {
        values = sequence.map(\.sqlValue)
    }

    static func + (a: SQLArguments, b: SQLArguments) -> SQLArguments {
        var sum = a
        sum.values += b.values
        return sum
    }

    static func += (a: inout SQLArguments, b: SQLArguments) { a.values += b.values }

    var isEmpty: Bool { values.isEmpty }
}

/// One result row: values by position or by column name, converted on read.
struct SQLRow {
    let columns: ColumnNames
    let values: [SQLValue]

    /// The column names of a result, shared by its rows.
    final class ColumnNames {
        let names: [String]
        init(_ names: [String]) { self.names = names }
        func index(of name: String) -> Int? { names.firstIndex(of: name) }
    }

    var count: Int { values.count }

    /// The value of column `index` as `T`; a `StoreError` naming the column and the kind of value
    /// it met where it is not one (a store not as errtriage wrote it), never a crash.
    func decode<T: SQLConvertible>(_ index: Int, as type: T.Type = T.self) throws(StoreError) -> T {
        let value = values[index]
        guard let converted = T.from(value) else { throw StoreError.unreadable(column: columns.names[index], met: value, as: T.self) }
        return converted
    }

    /// The value of the column `name` as `T`, as `decode(_:as:)` by position.
    func decode<T: SQLConvertible>(_ name: String, as type: T.Type = T.self) throws(StoreError) -> T {
        guard let index = columns.index(of: name) else { throw StoreError("the store's result has no column named \(name)") }
        return try decode(index)
    }
}

/// A result shape read from one row, each column by `SQLRow.decode`: a value of another type is a
/// `StoreError` naming the column, not a crash.
protocol RowDecodable {
    init(row: SQLRow) throws(StoreError)
}

extension RowDecodable {
    static func fetchAll(_ db: SQLDatabase, sql: String, arguments: SQLArguments = []) throws -> [Self] {
        try db.rows(sql: sql, arguments: arguments).map { row throws(StoreError) in try Self(row: row) }
    }

    static func fetchOne(_ db: SQLDatabase, sql: String, arguments: SQLArguments = []) throws -> Self? {
        try db.rows(sql: sql, arguments: arguments).first.map { row throws(StoreError) in try Self(row: row) }
    }
}

extension SQLValue {
    /// The kind of value, as an error names it (never the value: it may be anyone's text).
    var kind: String {
        switch self {
        case .null: "NULL"
        case .integer: "an integer"
        case .real: "a real"
        case .text: "text"
        case .blob: "bytes"
        }
    }
}

extension StoreError {
    /// A column holds a value its reader cannot take: the store is not as errtriage wrote it.
    static func unreadable(column: String, met value: SQLValue, as type: Any.Type) -> StoreError {
        StoreError("the store's column \(column) holds \(value.kind) where \(type) was expected; the store is not as errtriage wrote it (errtriage check tells more)")
    }
}

/// `?, ?, ?` for `count` placeholders.
func databaseQuestionMarks(count: Int) -> String {
    Array(repeating: "?", count: count).joined(separator: ", ")
}
