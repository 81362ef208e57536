import SQL

/// An error reported by PostgreSQL (or by libpq about the connection), with the statement's text
/// but never its values.
public struct PostgreSQLError: SQLError, Sendable {
    /// The five-character SQLSTATE (`23505`, `40001`, ...); nil when libpq failed before the
    /// server answered (connection refused, connection closed).
    public let sqlstate: String?
    /// The primary message, one line.
    public let message: String
    /// The constraint that refused the row, when the server names one.
    public let constraint: String?
    /// The statement's text, with `$n` placeholders.
    public let sql: String?
    /// Whether the connection was unusable when the error was read.
    public let connectionBroken: Bool

    public init(sqlstate: String?, message: String, constraint: String? = nil, sql: String? = nil,
                connectionBroken: Bool = false) {
        self.sqlstate = sqlstate
        self.message = message
        self.constraint = constraint
        self.sql = sql
        self.connectionBroken = connectionBroken
    }

    /// The engine-neutral classification the shop's rules use.
    public var kind: SQLErrorKind {
        switch sqlstate {
        case "23505": return .uniqueViolation
        case "23514": return .checkViolation
        case "23503": return .foreignKeyViolation
        case "23502": return .notNullViolation
        // serialization_failure, deadlock_detected: the server gave up on the transaction.
        case "40001", "40P01": return .transient
        // admin_shutdown, crash_shutdown, cannot_connect_now: the backend is going or gone.
        case "57P01", "57P02", "57P03": return .connectionLost
        case let state? where state.hasPrefix("08"): return .connectionLost
        default: return connectionBroken ? .connectionLost : .other
        }
    }

    public var description: String {
        var text = "PostgreSQL error"
        if let sqlstate { text += " \(sqlstate)" }
        text += ": \(message)"
        if let sql { text += " (in: \(sql))" }
        return text
    }
}
