import Foundation
import SQL

/// SQL for `auth_tokens`: only the SHA-256 of a token is stored.
struct TokenStore {
    func insert(user: UserID, tokenHash: String, at now: Int64, expiresAt: Int64, _ db: any SQLConnection) throws {
        try db.run("""
            INSERT INTO auth_tokens (user_id, token_hash, created_at, expires_at)
            VALUES (\(user), \(tokenHash), \(now), \(expiresAt))
            """)
    }

    /// The user of an active token and when it expires, or nil (unknown, revoked or expired at `now`).
    func active(tokenHash: String, at now: Int64, _ db: any SQLConnection) throws -> (user: UserID, expiresAt: Int64)? {
        try db.queryOne("""
            SELECT user_id, expires_at FROM auth_tokens WHERE token_hash = \(tokenHash) AND revoked_at IS NULL AND expires_at > \(now)
            """).map { (try $0.decode("user_id"), try $0.decode("expires_at")) }
    }

    func revoke(tokenHash: String, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("UPDATE auth_tokens SET revoked_at = \(now) WHERE token_hash = \(tokenHash) AND revoked_at IS NULL")
    }

    func revokeAll(user: UserID, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("UPDATE auth_tokens SET revoked_at = \(now) WHERE user_id = \(user) AND revoked_at IS NULL")
    }

    /// Drops tokens that expired or were revoked more than `before`.
    func purge(before: Int64, _ db: any SQLConnection) throws {
        try db.run("DELETE FROM auth_tokens WHERE expires_at < \(before) OR revoked_at < \(before)")
    }
}
