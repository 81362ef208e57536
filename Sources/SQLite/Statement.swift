import CSQLite
import SQL

/// A prepared statement. Owned by one `Connection`, which caches it by SQL text.
public final class Statement {
    let handle: OpaquePointer
    let sql: String
    private unowned let connection: Connection
    private var columnIndex: ColumnIndex?

    init(connection: Connection, sql: String) throws {
        var handle: OpaquePointer?
        let rc = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard rc == SQLITE_OK, let handle else {
            throw SQLiteError(connection: connection.handle, code: rc, sql: sql)
        }
        self.handle = handle
        self.sql = sql
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Clears the previous run and binds `values` to the parameters in order.
    public func bind(_ values: [SQLValue]) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard values.count == expected else {
            throw SQLiteError(code: SQLITE_RANGE, extendedCode: SQLITE_RANGE,
                              message: "expected \(expected) bindings, got \(values.count)", sql: sql)
        }
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    private func bind(_ value: SQLValue, at index: Int32) throws {
        let rc: Int32
        switch value {
        case .integer(let v): rc = sqlite3_bind_int64(handle, index, v)
        case .real(let v): rc = sqlite3_bind_double(handle, index, v)
        case .text(let v): rc = shop_sqlite3_bind_text(handle, index, v, -1)
        case .blob(let v):
            rc = v.withUnsafeBytes { shop_sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count)) }
        case .null: rc = sqlite3_bind_null(handle, index)
        }
        guard rc == SQLITE_OK else { throw SQLiteError(connection: connection.handle, code: rc, sql: sql) }
    }

    /// Advances to the next row: `true` when a row is ready, `false` when done.
    public func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = SQLiteError(connection: connection.handle, code: rc, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Resets the statement so it can run again (bindings are kept).
    public func reset() {
        sqlite3_reset(handle)
    }

    /// The current row, copied out.
    public func currentRow() -> Row {
        let columns = columnNames()
        var values: [SQLValue] = []
        values.reserveCapacity(columns.count)
        for i in 0..<Int32(columns.count) {
            values.append(columnValue(i))
        }
        return Row(columns: columns, values: values)
    }

    private func columnNames() -> ColumnIndex {
        if let columnIndex { return columnIndex }
        let count = sqlite3_column_count(handle)
        let names = (0..<count).map { String(cString: sqlite3_column_name(handle, $0)) }
        // The table a column comes from (Debian's SQLite has column metadata), so a decoding
        // error can name it; nil for expressions.
        let tables = (0..<count).map { sqlite3_column_table_name(handle, $0).map { String(cString: $0) } }
        let index = ColumnIndex(names: names, tables: tables)
        columnIndex = index
        return index
    }

    private func columnValue(_ i: Int32) -> SQLValue {
        switch sqlite3_column_type(handle, i) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, i))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, i))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(handle, i) else { return .text("") }
            return .text(String(cString: text))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, i))
            guard count > 0, let bytes = sqlite3_column_blob(handle, i) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }
}
