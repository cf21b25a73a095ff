/// One value in or out of either engine: SQLite's storage classes, to which PostgreSQL's text
/// results are read back by their column type.
enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    /// The value as PostgreSQL's text format writes it (nil for NULL).
    var postgresText: String? {
        switch self {
        case .null: nil
        case .integer(let i): String(i)
        case .real(let d): String(d)
        case .text(let s): s
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
        case .null: nil
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
        case .null: nil
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
        case .null: nil
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
        case .null: nil
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

    subscript<T: SQLConvertible>(_ index: Int) -> T {
        let value = values[index]
        guard let converted = T.from(value) else {
            fatalError("column \(index) (\(columns.names[index])) holds \(value), not \(T.self)")
        }
        return converted
    }

    subscript<T: SQLConvertible>(_ name: String) -> T {
        guard let index = columns.index(of: name) else { fatalError("no column named \(name) in \(columns.names)") }
        return self[index]
    }
}

/// `?, ?, ?` for `count` placeholders.
func databaseQuestionMarks(count: Int) -> String {
    Array(repeating: "?", count: count).joined(separator: ", ")
}
