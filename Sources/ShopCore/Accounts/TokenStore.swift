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

    func activeUser(tokenHash: String, at now: Int64, _ db: any SQLConnection) throws -> UserID? {
        try db.scalar("""
            SELECT user_id FROM auth_tokens WHERE token_hash = \(tokenHash) AND revoked_at IS NULL AND expires_at > \(now)
            """, as: UserID.self)
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
