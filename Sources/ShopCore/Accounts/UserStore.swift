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

/// A gender column holds one of the enum's raw values; anything else is a corrupt row.
extension User.Gender: SQLCodable {}
