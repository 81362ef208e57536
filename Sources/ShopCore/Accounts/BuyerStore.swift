import Foundation
import SQL

/// SQL for staff's view of `users`: the search, and the ban columns.
struct BuyerStore {
    static let columns: SQL = "id, phone, nickname, avatar_url, is_author, banned_at, ban_reason, created_at"

    static func buyer(_ row: Row) throws -> Buyer {
        Buyer(id: try row.decode("id"), phone: try row.decode("phone"), nickname: try row.decode("nickname"),
              avatarURL: try row.decode("avatar_url"), isAuthor: try row.decode("is_author"),
              bannedAt: try row.decode("banned_at"), banReason: try row.decode("ban_reason"),
              createdAt: try row.decode("created_at"))
    }

    func find(_ id: UserID, _ db: any SQLConnection) throws -> Buyer? {
        try db.queryOne("SELECT \(Self.columns) FROM users WHERE id = \(id)").map(Self.buyer)
    }

    func find(phone: String, _ db: any SQLConnection) throws -> Buyer? {
        try db.queryOne("SELECT \(Self.columns) FROM users WHERE phone = \(phone)").map(Self.buyer)
    }

    /// Newest first; `query` is a part of the phone or of the nickname (a literal, never a pattern).
    func page(matching query: String?, _ page: PageRequest, _ db: any SQLConnection) throws -> Page<Buyer> {
        var filter = SQL.empty
        if let query {
            let pattern = SearchText.likeContains(SearchText.fold(query))
            filter = "WHERE phone LIKE \(pattern) ESCAPE '\\' OR LOWER(nickname) LIKE \(pattern) ESCAPE '\\'"
        }
        return try db.page(page, count: "SELECT COUNT(*) FROM users \(filter)",
                           rows: "SELECT \(Self.columns) FROM users \(filter) ORDER BY created_at DESC, id DESC",
                           each: Self.buyer)
    }

    /// Bans (keeping the first ban's time, taking the latest reason).
    func ban(_ id: UserID, reason: String, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("""
            UPDATE users SET banned_at = COALESCE(banned_at, \(now)), ban_reason = \(reason), updated_at = \(now) WHERE id = \(id)
            """)
    }

    func unban(_ id: UserID, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("UPDATE users SET banned_at = NULL, ban_reason = NULL, updated_at = \(now) WHERE id = \(id)")
    }
}
