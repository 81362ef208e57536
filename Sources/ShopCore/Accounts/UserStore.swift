import Foundation
import SQL
import SQLite

/// SQL for the `users` table.
struct UserStore {
    static let columns: SQL = "id, phone, nickname, avatar_url, signature, gender, is_author, created_at"

    struct Credentials {
        let userID: UserID
        let passwordHash: String
    }

    static func user(_ row: Row) throws -> User {
        User(id: try row.decode("id"), phone: try row.decode("phone"), nickname: try row.decode("nickname"),
             avatarURL: try row.decode("avatar_url"), signature: try row.decode("signature"),
             gender: try row.decode("gender"), isAuthor: try row.decode("is_author"),
             createdAt: try row.decode("created_at"))
    }

    func insert(phone: String, nickname: String, passwordHash: String, at now: Int64, _ db: Connection) throws -> UserID {
        try db.run("""
            INSERT INTO users (phone, nickname, password_hash, password_scheme, created_at, updated_at)
            VALUES (\(phone), \(nickname), \(passwordHash), \(CredentialHasher.scheme), \(now), \(now))
            """)
        return UserID(db.lastInsertRowID)
    }

    func find(_ id: UserID, _ db: Connection) throws -> User? {
        try db.queryOne("SELECT \(Self.columns) FROM users WHERE id = \(id)").map(Self.user)
    }

    func find(phone: String, _ db: Connection) throws -> User? {
        try db.queryOne("SELECT \(Self.columns) FROM users WHERE phone = \(phone)").map(Self.user)
    }

    func credentials(phone: String, _ db: Connection) throws -> Credentials? {
        try db.queryOne("SELECT id, password_hash FROM users WHERE phone = \(phone)").map {
            Credentials(userID: try $0.decode("id"), passwordHash: try $0.decode("password_hash"))
        }
    }

    func setPasswordHash(_ hash: String, for id: UserID, at now: Int64, _ db: Connection) throws {
        try db.run("""
            UPDATE users SET password_hash = \(hash), password_scheme = \(CredentialHasher.scheme), updated_at = \(now)
            WHERE id = \(id)
            """)
    }

    func update(_ user: User, at now: Int64, _ db: Connection) throws {
        try db.run("""
            UPDATE users SET nickname = \(user.nickname), avatar_url = \(user.avatarURL), signature = \(user.signature),
                             gender = \(user.gender), updated_at = \(now)
            WHERE id = \(user.id)
            """)
    }

    func setAuthor(_ isAuthor: Bool, phone: String, at now: Int64, _ db: Connection) throws -> Bool {
        try db.run("UPDATE users SET is_author = \(isAuthor), updated_at = \(now) WHERE phone = \(phone)") == 1
    }
}

/// SQL for `auth_tokens`: only the SHA-256 of a token is stored.
struct TokenStore {
    func insert(user: UserID, tokenHash: String, at now: Int64, expiresAt: Int64, _ db: Connection) throws {
        try db.run("""
            INSERT INTO auth_tokens (user_id, token_hash, created_at, expires_at)
            VALUES (\(user), \(tokenHash), \(now), \(expiresAt))
            """)
    }

    func activeUser(tokenHash: String, at now: Int64, _ db: Connection) throws -> UserID? {
        try db.scalar("""
            SELECT user_id FROM auth_tokens WHERE token_hash = \(tokenHash) AND revoked_at IS NULL AND expires_at > \(now)
            """, as: UserID.self)
    }

    func revoke(tokenHash: String, at now: Int64, _ db: Connection) throws {
        try db.run("UPDATE auth_tokens SET revoked_at = \(now) WHERE token_hash = \(tokenHash) AND revoked_at IS NULL")
    }

    func revokeAll(user: UserID, at now: Int64, _ db: Connection) throws {
        try db.run("UPDATE auth_tokens SET revoked_at = \(now) WHERE user_id = \(user) AND revoked_at IS NULL")
    }

    /// Drops tokens that expired or were revoked more than `before`.
    func purge(before: Int64, _ db: Connection) throws {
        try db.run("DELETE FROM auth_tokens WHERE expires_at < \(before) OR revoked_at < \(before)")
    }
}

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

    func record(_ kind: Kind, phone: String, clientIP: String, at now: Int64, _ db: Connection) throws {
        try db.run("""
            INSERT INTO login_failures (phone, client_ip, kind, failed_at) VALUES (\(phone), \(clientIP), \(kind), \(now))
            """)
    }

    func window(_ kind: Kind, phone: String, since: Int64, _ db: Connection) throws -> Window {
        try window("phone = \(phone) AND kind = \(kind) AND failed_at > \(since)", db)
    }

    func window(_ kind: Kind, clientIP: String, since: Int64, _ db: Connection) throws -> Window {
        try window("client_ip = \(clientIP) AND kind = \(kind) AND failed_at > \(since)", db)
    }

    func clear(_ kinds: [Kind], phone: String, _ db: Connection) throws {
        for kind in kinds {
            try db.run("DELETE FROM login_failures WHERE phone = \(phone) AND kind = \(kind)")
        }
    }

    func purge(before: Int64, _ db: Connection) throws {
        try db.run("DELETE FROM login_failures WHERE failed_at < \(before)")
    }

    /// The failures matching `condition` (a WHERE clause with its values).
    private func window(_ condition: SQL, _ db: Connection) throws -> Window {
        let query: SQL = "SELECT COUNT(*) AS n, MIN(failed_at) AS oldest FROM login_failures WHERE \(condition)"
        guard let row = try db.queryOne(query) else { return Window(count: 0, oldest: nil) }
        return Window(count: try row.decode("n"), oldest: try row.decode("oldest"))
    }
}

/// A gender column holds one of the enum's raw values; anything else is a corrupt row.
extension User.Gender: SQLCodable {}
