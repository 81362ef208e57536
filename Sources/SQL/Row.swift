/// One result row, copied out of the engine so it can outlive its statement.
public struct Row: Sendable {
    private let columns: ColumnIndex
    private let values: [SQLValue]

    package init(columns: ColumnIndex, values: [SQLValue]) {
        self.columns = columns
        self.values = values
    }

    /// The value of a column by name, `.null` when the column is absent.
    public subscript(_ name: String) -> SQLValue {
        guard let index = columns.index[name] else { return .null }
        return values[index]
    }

    /// The value of a column by position.
    public subscript(_ index: Int) -> SQLValue { values[index] }

    /// Whether the result has a column of that name.
    public func has(_ name: String) -> Bool { columns.index[name] != nil }

    /// The column as `T`, or a `RowDecodingError` naming the table, the column and the value.
    public func decode<T: SQLDecodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        guard let index = columns.index[name] else {
            throw RowDecodingError(table: nil, column: name, value: nil, reason: "no such column in the result")
        }
        do {
            return try T(sqlValue: values[index])
        } catch let mismatch as SQLValueMismatch {
            throw RowDecodingError(table: columns.tables[index], column: name, value: values[index],
                                   reason: "expected \(mismatch.expected)")
        }
    }

    /// The column at `index` as `T` (for results without column names worth using).
    public func decode<T: SQLDecodable>(at index: Int, as type: T.Type = T.self) throws -> T {
        guard index < values.count else {
            throw RowDecodingError(table: nil, column: "#\(index)", value: nil, reason: "no such column in the result")
        }
        do {
            return try T(sqlValue: values[index])
        } catch let mismatch as SQLValueMismatch {
            throw RowDecodingError(table: columns.tables[index], column: columns.names[index], value: values[index],
                                   reason: "expected \(mismatch.expected)")
        }
    }

    public func int64(_ name: String) throws -> Int64 { try decode(name) }
    public func int(_ name: String) throws -> Int { try decode(name) }
    public func bool(_ name: String) throws -> Bool { try decode(name) }
    public func double(_ name: String) throws -> Double { try decode(name) }
    public func string(_ name: String) throws -> String { try decode(name) }
    public func blob(_ name: String) throws -> [UInt8] { try decode(name) }
    public func optionalInt64(_ name: String) throws -> Int64? { try decode(name) }
    public func optionalString(_ name: String) throws -> String? { try decode(name) }
}

/// Column names (and the table each comes from, when the engine knows) of one statement,
/// shared by all of its rows.
package final class ColumnIndex: Sendable {
    let names: [String]
    let tables: [String?]
    let index: [String: Int]

    package init(names: [String], tables: [String?]? = nil) {
        self.names = names
        self.tables = tables ?? Array(repeating: nil, count: names.count)
        var index: [String: Int] = [:]
        for (i, name) in names.enumerated() where index[name] == nil { index[name] = i }
        self.index = index
    }

    package var count: Int { names.count }
}

/// A row that does not hold what its reader expects: a missing column, or a value that is not
/// of the column's type (a corrupt row is reported, never turned into plausible data).
public struct RowDecodingError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The table the column comes from, when the engine knows (not for expressions).
    public let table: String?
    public let column: String
    public let value: SQLValue?
    public let reason: String

    public init(table: String?, column: String, value: SQLValue?, reason: String) {
        self.table = table
        self.column = column
        self.value = value
        self.reason = reason
    }

    public var description: String {
        let place = table.map { "\($0).\(column)" } ?? column
        guard let value else { return "column \(place): \(reason)" }
        return "column \(place): \(reason), found \(value)"
    }
}
