import TriageModel

/// What one input line becomes.
public enum ImportedRecord: Sendable {
    case event(ErrorEvent)
    case complaint(Complaint)
    /// Active users of a version on a day, or one app session.
    case adoption(AdoptionRecord)
}

/// Why one line was rejected; the file and line are added by the caller.
public struct LineRejection: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// Turns one parsed line of a source into a record.
public protocol RecordDecoder: Sendable {
    /// The source's name as `ingest --source` takes it.
    var source: String { get }
    func decode(_ value: JSONValue) throws(LineRejection) -> ImportedRecord
}

extension RecordDecoder {
    /// Parses and decodes one line of bytes.
    public func decode(line: [UInt8]) throws(LineRejection) -> ImportedRecord {
        try decode(parseObject(line: line))
    }
}

/// Parses one line that must hold a JSON object.
func parseObject(line: [UInt8]) throws(LineRejection) -> JSONValue {
    let value: JSONValue
    do {
        value = try JSONParser.parse(line)
    } catch {
        throw LineRejection("not valid JSON: \(error)")
    }
    guard case .object = value else {
        throw LineRejection("expected a JSON object, found \(value.kindName)")
    }
    return value
}

extension JSONValue {
    /// How error messages name the value's kind.
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// Reads a timestamp given as text in any accepted form or as epoch seconds.
func timestamp(_ value: JSONValue?, field: String) throws(LineRejection) -> Timestamp {
    guard let value, value != .null else { throw LineRejection("missing \(field)") }
    switch value {
    case .number(let n):
        guard let seconds = Double(n), let t = Timestamp(epochSeconds: seconds) else {
            throw LineRejection("\(field) \(n) is not a time in epoch seconds")
        }
        return t
    case .string(let s):
        guard let t = Timestamp.parse(s) else { throw LineRejection("\(field) '\(s.prefix(60))' is not a time") }
        return t
    default:
        throw LineRejection("\(field) must be a string or a number, found \(value.kindName)")
    }
}

/// A string field that must be text if present.
func optionalText(_ value: JSONValue?, field: String) throws(LineRejection) -> String? {
    guard let value, value != .null else { return nil }
    switch value {
    case .string(let s): return s.isEmpty ? nil : s
    case .number(let n): return n
    case .bool(let b): return b ? "true" : "false"
    default: throw LineRejection("\(field) must be text, found \(value.kindName)")
    }
}

/// An integer field given as a number or a numeric string.
func optionalInt(_ value: JSONValue?, field: String) throws(LineRejection) -> Int64? {
    guard let value, value != .null else { return nil }
    if case .string(let s) = value, s.isEmpty { return nil }
    guard let v = value.int64 else { throw LineRejection("\(field) must be an integer, found \(value.kindName)") }
    return v
}
