import Foundation
import SQL

/// SQL for `staff`, `staff_tokens` and `staff_login_failures`; every statement runs in a caller's transaction.
struct StaffStore {
    static let columns: SQL = "id, username, role, disabled_at, created_at"

    func insert(username: String, passwordHash: String, role: StaffRole, at now: Int64, _ db: any SQLConnection) throws -> StaffID {
        try db.insert("""
            INSERT INTO staff (username, password_hash, role, created_at, updated_at)
            VALUES (\(username), \(passwordHash), \(role), \(now), \(now))
            """, returning: StaffID.self)
    }

    func find(username: String, _ db: any SQLConnection) throws -> StaffMember? {
        try db.queryOne("SELECT \(Self.columns) FROM staff WHERE username = \(username)").map(Self.member)
    }

    func find(_ id: StaffID, _ db: any SQLConnection) throws -> StaffMember? {
        try db.queryOne("SELECT \(Self.columns) FROM staff WHERE id = \(id)").map(Self.member)
    }

    func passwordHash(of id: StaffID, _ db: any SQLConnection) throws -> String? {
        try db.scalar("SELECT password_hash FROM staff WHERE id = \(id)", as: String.self)
    }

    func list(_ db: any SQLConnection) throws -> [StaffMember] {
        try db.query("SELECT \(Self.columns) FROM staff ORDER BY username").map(Self.member)
    }

    func setRole(_ role: StaffRole, of id: StaffID, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("UPDATE staff SET role = \(role), updated_at = \(now) WHERE id = \(id)")
    }

    func setDisabled(_ disabledAt: Int64?, of id: StaffID, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("UPDATE staff SET disabled_at = \(disabledAt), updated_at = \(now) WHERE id = \(id)")
    }

    func setPasswordHash(_ hash: String, of id: StaffID, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("UPDATE staff SET password_hash = \(hash), updated_at = \(now) WHERE id = \(id)")
    }

    /// Enabled owners: the shop must always keep one.
    func activeOwners(_ db: any SQLConnection) throws -> Int {
        Int(try db.scalarInt("SELECT COUNT(*) FROM staff WHERE role = 'owner' AND disabled_at IS NULL") ?? 0)
    }

    // MARK: tokens

    func insertToken(hash: String, staff: StaffID, at now: Int64, expiresAt: Int64, _ db: any SQLConnection) throws {
        try db.run("""
            INSERT INTO staff_tokens (token_hash, staff_id, created_at, expires_at) VALUES (\(hash), \(staff), \(now), \(expiresAt))
            """)
    }

    /// The enabled staff member a live token belongs to: disabling an account ends its tokens at once.
    func principal(tokenHash: String, at now: Int64, _ db: any SQLConnection) throws -> StaffPrincipal? {
        try db.queryOne("""
            SELECT s.id, s.username, s.role FROM staff_tokens t JOIN staff s ON s.id = t.staff_id
            WHERE t.token_hash = \(tokenHash) AND t.revoked_at IS NULL AND t.expires_at > \(now) AND s.disabled_at IS NULL
            """).map { row in
            StaffPrincipal(id: try row.decode("id"), username: try row.decode("username"), role: try row.decode("role"))
        }
    }

    func revokeToken(hash: String, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("UPDATE staff_tokens SET revoked_at = \(now) WHERE token_hash = \(hash) AND revoked_at IS NULL")
    }

    func revokeTokens(of staff: StaffID, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("UPDATE staff_tokens SET revoked_at = \(now) WHERE staff_id = \(staff) AND revoked_at IS NULL")
    }

    func purgeTokens(before: Int64, _ db: any SQLConnection) throws {
        try db.run("DELETE FROM staff_tokens WHERE expires_at < \(before) OR revoked_at < \(before)")
        try db.run("DELETE FROM staff_login_failures WHERE failed_at < \(before)")
    }

    // MARK: failed logins

    func recordFailure(username: String, clientIP: String, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("""
            INSERT INTO staff_login_failures (username, client_ip, failed_at) VALUES (\(username), \(clientIP), \(now))
            """)
    }

    /// Failures since `since` for this username and for this address, with the oldest of each.
    func failures(username: String, clientIP: String, since: Int64, _ db: any SQLConnection)
        throws -> [(count: Int, oldest: Int64?)] {
        try [("username = \(username)") as SQL, "client_ip = \(clientIP)"].map { condition in
            guard let row = try db.queryOne("""
                SELECT COUNT(*) AS n, MIN(failed_at) AS oldest FROM staff_login_failures WHERE \(condition) AND failed_at > \(since)
                """) else { return (0, nil) }
            return (try row.decode("n"), try row.decode("oldest"))
        }
    }

    func clearFailures(username: String, _ db: any SQLConnection) throws {
        try db.run("DELETE FROM staff_login_failures WHERE username = \(username)")
    }

    static func member(_ row: Row) throws -> StaffMember {
        StaffMember(id: try row.decode("id"), username: try row.decode("username"), role: try row.decode("role"),
                    disabledAt: try row.decode("disabled_at"), createdAt: try row.decode("created_at"))
    }
}
