import SQL
import CSQLite

/// An error reported by SQLite, with the statement that caused it.
public struct SQLiteError: SQLError, Sendable {
    /// The primary result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT`, ...).
    public let code: Int32
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, ...).
    public let extendedCode: Int32
    public let message: String
    public let sql: String?

    public init(code: Int32, extendedCode: Int32, message: String, sql: String?) {
        self.code = code
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    init(connection: OpaquePointer?, code: Int32, sql: String?) {
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
        self.init(code: code & 0xff, extendedCode: extended, message: message, sql: sql)
    }

    /// The engine-neutral classification the shop's rules use.
    public var kind: SQLErrorKind {
        if extendedCode == shop_sqlite_constraint_unique || extendedCode == shop_sqlite_constraint_primarykey {
            return .uniqueViolation
        }
        if extendedCode == shop_sqlite_constraint_check { return .checkViolation }
        if extendedCode == shop_sqlite_constraint_foreignkey { return .foreignKeyViolation }
        if extendedCode == shop_sqlite_constraint_notnull { return .notNullViolation }
        return isBusy ? .transient : .other
    }

    /// Raised by a `CHECK`, `UNIQUE`, `NOT NULL` or foreign key constraint.
    public var isConstraintViolation: Bool { code == SQLITE_CONSTRAINT }
    /// The database was locked by another connection for longer than the busy timeout.
    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }

    public var description: String {
        if let sql { return "SQLite error \(extendedCode): \(message) (in: \(sql))" }
        return "SQLite error \(extendedCode): \(message)"
    }
}
