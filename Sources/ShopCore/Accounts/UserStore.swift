import Foundation
import SQL
import SQLite

/// SQL for the `users` table.
struct UserStore {
    static let columns = "id, phone, nickname, avatar_url, signature, gender, is_author, created_at"

    struct Credentials {
        let userID: UserID
        let passwordHash: String
    }

    static func user(_ row: Row) throws -> User {
        User(id: UserID(try row.int64("id")), phone: try row.string("phone"), nickname: try row.string("nickname"),
             avatarURL: try row.string("avatar_url"), signature: try row.string("signature"),
             gender: User.Gender(rawValue: try row.string("gender")) ?? .unknown, isAuthor: try row.bool("is_author"),
             createdAt: Date(timeIntervalSince1970: TimeInterval(try row.int64("created_at"))))
    }

    func insert(phone: String, nickname: String, passwordHash: String, at now: Int64, _ db: Connection) throws -> UserID {
        try db.legacyRun("""
            INSERT INTO users (phone, nickname, password_hash, password_scheme, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?)
            """, phone, nickname, passwordHash, CredentialHasher.scheme, now, now)
        return UserID(db.lastInsertRowID)
    }

    func find(_ id: UserID, _ db: Connection) throws -> User? {
        try db.legacyQueryOne("SELECT \(Self.columns) FROM users WHERE id = ?", id.rawValue).map(Self.user)
    }

    func find(phone: String, _ db: Connection) throws -> User? {
        try db.legacyQueryOne("SELECT \(Self.columns) FROM users WHERE phone = ?", phone).map(Self.user)
    }

    func credentials(phone: String, _ db: Connection) throws -> Credentials? {
        try db.legacyQueryOne("SELECT id, password_hash FROM users WHERE phone = ?", phone).map {
            Credentials(userID: UserID(try $0.int64("id")), passwordHash: try $0.string("password_hash"))
        }
    }

    func setPasswordHash(_ hash: String, for id: UserID, at now: Int64, _ db: Connection) throws {
        try db.legacyRun("UPDATE users SET password_hash = ?, password_scheme = ?, updated_at = ? WHERE id = ?",
                   hash, CredentialHasher.scheme, now, id.rawValue)
    }

    func update(_ user: User, at now: Int64, _ db: Connection) throws {
        try db.legacyRun("UPDATE users SET nickname = ?, avatar_url = ?, signature = ?, gender = ?, updated_at = ? WHERE id = ?",
                   user.nickname, user.avatarURL, user.signature, user.gender.rawValue, now, user.id.rawValue)
    }

    func setAuthor(_ isAuthor: Bool, phone: String, at now: Int64, _ db: Connection) throws -> Bool {
        try db.legacyRun("UPDATE users SET is_author = ?, updated_at = ? WHERE phone = ?", isAuthor, now, phone) == 1
    }
}

/// SQL for `auth_tokens`: only the SHA-256 of a token is stored.
struct TokenStore {
    func insert(user: UserID, tokenHash: String, at now: Int64, expiresAt: Int64, _ db: Connection) throws {
        try db.legacyRun("INSERT INTO auth_tokens (user_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?)",
                   user.rawValue, tokenHash, now, expiresAt)
    }

    func activeUser(tokenHash: String, at now: Int64, _ db: Connection) throws -> UserID? {
        try db.legacyScalarInt("SELECT user_id FROM auth_tokens WHERE token_hash = ? AND revoked_at IS NULL AND expires_at > ?",
                         tokenHash, now).map(UserID.init)
    }

    func revoke(tokenHash: String, at now: Int64, _ db: Connection) throws {
        try db.legacyRun("UPDATE auth_tokens SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL", now, tokenHash)
    }

    func revokeAll(user: UserID, at now: Int64, _ db: Connection) throws {
        try db.legacyRun("UPDATE auth_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL", now, user.rawValue)
    }

    /// Drops tokens that expired or were revoked more than `before`.
    func purge(before: Int64, _ db: Connection) throws {
        try db.legacyRun("DELETE FROM auth_tokens WHERE expires_at < ? OR revoked_at < ?", before, before)
    }
}

/// SQL for `login_failures`: the window counts behind `too_many_attempts`, one count per kind.
struct LoginFailureStore {
    /// What failed: each kind has its own counts, so failed logins never block a reset.
    enum Kind: String {
        case login
        case register
        case resetPassword = "reset_password"
    }

    struct Window {
        let count: Int
        let oldest: Int64?
    }

    func record(_ kind: Kind, phone: String, clientIP: String, at now: Int64, _ db: Connection) throws {
        try db.legacyRun("INSERT INTO login_failures (phone, client_ip, kind, failed_at) VALUES (?, ?, ?, ?)",
                   phone, clientIP, kind.rawValue, now)
    }

    func window(_ kind: Kind, phone: String, since: Int64, _ db: Connection) throws -> Window {
        try window("SELECT COUNT(*) AS n, MIN(failed_at) AS oldest FROM login_failures WHERE phone = ? AND kind = ? AND failed_at > ?",
                   phone, kind, since, db)
    }

    func window(_ kind: Kind, clientIP: String, since: Int64, _ db: Connection) throws -> Window {
        try window("SELECT COUNT(*) AS n, MIN(failed_at) AS oldest FROM login_failures WHERE client_ip = ? AND kind = ? AND failed_at > ?",
                   clientIP, kind, since, db)
    }

    func clear(_ kinds: [Kind], phone: String, _ db: Connection) throws {
        for kind in kinds {
            try db.legacyRun("DELETE FROM login_failures WHERE phone = ? AND kind = ?", phone, kind.rawValue)
        }
    }

    func purge(before: Int64, _ db: Connection) throws {
        try db.legacyRun("DELETE FROM login_failures WHERE failed_at < ?", before)
    }

    private func window(_ sql: String, _ key: String, _ kind: Kind, _ since: Int64, _ db: Connection) throws -> Window {
        guard let row = try db.legacyQueryOne(sql, key, kind.rawValue, since) else { return Window(count: 0, oldest: nil) }
        return Window(count: try row.int("n"), oldest: try row.optionalInt64("oldest"))
    }
}
