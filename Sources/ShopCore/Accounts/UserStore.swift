import Foundation
import SQL

/// SQL for the `users` table.
struct UserStore {
    static let columns: SQL = "id, phone, nickname, avatar_url, signature, gender, is_author, created_at"

    struct Credentials {
        let userID: UserID
        let passwordHash: String
        /// Set while staff have the buyer banned: the right password then signs nobody in.
        let bannedAt: Int64?
    }

    static func user(_ row: Row) throws -> User {
        User(id: try row.decode("id"), phone: try row.decode("phone"), nickname: try row.decode("nickname"),
             avatarURL: try row.decode("avatar_url"), signature: try row.decode("signature"),
             gender: try row.decode("gender"), isAuthor: try row.decode("is_author"),
             createdAt: try row.decode("created_at"))
    }

    func insert(phone: String, nickname: String, passwordHash: String, at now: Int64, _ db: any SQLConnection) throws -> UserID {
        try db.insert("""
            INSERT INTO users (phone, nickname, password_hash, password_scheme, created_at, updated_at)
            VALUES (\(phone), \(nickname), \(passwordHash), \(CredentialHasher.scheme), \(now), \(now))
            """, returning: UserID.self)
    }

    func find(_ id: UserID, _ db: any SQLConnection) throws -> User? {
        try db.queryOne("SELECT \(Self.columns) FROM users WHERE id = \(id)").map(Self.user)
    }

    func find(phone: String, _ db: any SQLConnection) throws -> User? {
        try db.queryOne("SELECT \(Self.columns) FROM users WHERE phone = \(phone)").map(Self.user)
    }

    func credentials(phone: String, _ db: any SQLConnection) throws -> Credentials? {
        try db.queryOne("SELECT id, password_hash, banned_at FROM users WHERE phone = \(phone)").map {
            Credentials(userID: try $0.decode("id"), passwordHash: try $0.decode("password_hash"), bannedAt: try $0.decode("banned_at"))
        }
    }

    /// Whether staff have banned the user (checked again in the transaction that opens a session).
    func isBanned(_ id: UserID, _ db: any SQLConnection) throws -> Bool {
        try db.scalarInt("SELECT COUNT(*) FROM users WHERE id = \(id) AND banned_at IS NOT NULL") == 1
    }

    func setPasswordHash(_ hash: String, for id: UserID, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("""
            UPDATE users SET password_hash = \(hash), password_scheme = \(CredentialHasher.scheme), updated_at = \(now)
            WHERE id = \(id)
            """)
    }

    func update(_ user: User, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("""
            UPDATE users SET nickname = \(user.nickname), avatar_url = \(user.avatarURL), signature = \(user.signature),
                             gender = \(user.gender), updated_at = \(now)
            WHERE id = \(user.id)
            """)
    }

    func setAuthor(_ isAuthor: Bool, phone: String, at now: Int64, _ db: any SQLConnection) throws -> Bool {
        try db.run("UPDATE users SET is_author = \(isAuthor), updated_at = \(now) WHERE phone = \(phone)") == 1
    }
}

/// A gender column holds one of the enum's raw values; anything else is a corrupt row.
extension User.Gender: SQLCodable {}
