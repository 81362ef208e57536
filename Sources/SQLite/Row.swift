/// One result row, copied out of SQLite so it can outlive its statement.
public struct Row: Sendable {
    private let columns: ColumnIndex
    private let values: [SQLValue]

    init(columns: ColumnIndex, values: [SQLValue]) {
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

    public func int64(_ name: String) throws -> Int64 {
        switch try value(name) {
        case .integer(let v): return v
        case .real(let v) where v == v.rounded(): return Int64(v)
        case let other: throw mismatch(name, "integer", other)
        }
    }

    public func int(_ name: String) throws -> Int { Int(try int64(name)) }

    public func bool(_ name: String) throws -> Bool { try int64(name) != 0 }

    public func double(_ name: String) throws -> Double {
        switch try value(name) {
        case .real(let v): return v
        case .integer(let v): return Double(v)
        case let other: throw mismatch(name, "real", other)
        }
    }

    public func string(_ name: String) throws -> String {
        switch try value(name) {
        case .text(let v): return v
        case .integer(let v): return String(v)
        case let other: throw mismatch(name, "text", other)
        }
    }

    public func blob(_ name: String) throws -> [UInt8] {
        switch try value(name) {
        case .blob(let v): return v
        case .text(let v): return Array(v.utf8)
        case let other: throw mismatch(name, "blob", other)
        }
    }

    public func optionalInt64(_ name: String) throws -> Int64? {
        if case .null = try value(name) { return nil }
        return try int64(name)
    }

    public func optionalString(_ name: String) throws -> String? {
        if case .null = try value(name) { return nil }
        return try string(name)
    }

    private func value(_ name: String) throws -> SQLValue {
        guard let index = columns.index[name] else {
            throw RowDecodingError(column: name, reason: "no such column in the result")
        }
        return values[index]
    }

    private func mismatch(_ name: String, _ expected: String, _ found: SQLValue) -> RowDecodingError {
        RowDecodingError(column: name, reason: "expected \(expected), found \(found)")
    }
}

/// Column names of one statement, shared by all of its rows.
final class ColumnIndex: Sendable {
    let names: [String]
    let index: [String: Int]

    init(names: [String]) {
        self.names = names
        var index: [String: Int] = [:]
        for (i, name) in names.enumerated() where index[name] == nil { index[name] = i }
        self.index = index
    }
}
