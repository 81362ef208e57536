import Foundation
import SQL

/// SQL for `login_failures`: the window counts behind `too_many_attempts`, one count per kind.
struct LoginFailureStore {
    /// What failed: each kind has its own counts, so failed logins never block a reset.
    enum Kind: String, SQLCodable {
        case login
        case register
        case resetPassword = "reset_password"
    }

    struct Window {
        let count: Int
        let oldest: Int64?
    }

    func record(_ kind: Kind, phone: String, clientIP: String, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("""
            INSERT INTO login_failures (phone, client_ip, kind, failed_at) VALUES (\(phone), \(clientIP), \(kind), \(now))
            """)
    }

    func window(_ kind: Kind, phone: String, since: Int64, _ db: any SQLConnection) throws -> Window {
        try window("phone = \(phone) AND kind = \(kind) AND failed_at > \(since)", db)
    }

    func window(_ kind: Kind, clientIP: String, since: Int64, _ db: any SQLConnection) throws -> Window {
        try window("client_ip = \(clientIP) AND kind = \(kind) AND failed_at > \(since)", db)
    }

    func clear(_ kinds: [Kind], phone: String, _ db: any SQLConnection) throws {
        for kind in kinds {
            try db.run("DELETE FROM login_failures WHERE phone = \(phone) AND kind = \(kind)")
        }
    }

    func purge(before: Int64, _ db: any SQLConnection) throws {
        try db.run("DELETE FROM login_failures WHERE failed_at < \(before)")
    }

    /// The failures matching `condition` (a WHERE clause with its values).
    private func window(_ condition: SQL, _ db: any SQLConnection) throws -> Window {
        let query: SQL = "SELECT COUNT(*) AS n, MIN(failed_at) AS oldest FROM login_failures WHERE \(condition)"
        guard let row = try db.queryOne(query) else { return Window(count: 0, oldest: nil) }
        return Window(count: try row.decode("n"), oldest: try row.decode("oldest"))
    }
}
