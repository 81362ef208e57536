import Foundation
import SQLite

/// SQL for public profiles and follows.
struct ProfileStore {
    struct Basic {
        let id: UserID
        let nickname: String
        let avatarURL: String
        let signature: String
        let gender: User.Gender
        let isAuthor: Bool
    }

    func basic(_ id: UserID, _ db: Connection) throws -> Basic? {
        try db.legacyQueryOne("SELECT id, nickname, avatar_url, signature, gender, is_author FROM users WHERE id = ?", id.rawValue)
            .map { row in
                Basic(id: UserID(try row.int64("id")), nickname: try row.string("nickname"), avatarURL: try row.string("avatar_url"),
                      signature: try row.string("signature"), gender: User.Gender(rawValue: try row.string("gender")) ?? .unknown,
                      isAuthor: try row.bool("is_author"))
            }
    }

    /// A public profile with its counts; `viewer` decides `is_following`.
    func profile(_ id: UserID, viewer: UserID?, at now: Int64, _ db: Connection) throws -> PublicProfile? {
        guard let basic = try basic(id, db) else { return nil }
        let followers = try db.legacyScalarInt("SELECT COUNT(*) FROM follows WHERE author_id = ?", id.rawValue) ?? 0
        let following = try db.legacyScalarInt("SELECT COUNT(*) FROM follows WHERE follower_id = ?", id.rawValue) ?? 0
        let articles = try db.legacyScalarInt("SELECT COUNT(*) FROM articles WHERE author_id = ? AND published_at <= ?",
                                        id.rawValue, now) ?? 0
        var isFollowing: Bool?
        if let viewer {
            isFollowing = try isFollowingAuthor(viewer, id, db)
        }
        return PublicProfile(id: basic.id, nickname: basic.nickname, avatarURL: basic.avatarURL, signature: basic.signature,
                             gender: basic.gender, isAuthor: basic.isAuthor, followersCount: Int(followers),
                             followingCount: Int(following), articlesCount: Int(articles), isFollowing: isFollowing)
    }

    func isFollowingAuthor(_ follower: UserID, _ author: UserID, _ db: Connection) throws -> Bool {
        try db.legacyScalarInt("SELECT COUNT(*) FROM follows WHERE follower_id = ? AND author_id = ?",
                         follower.rawValue, author.rawValue) == 1
    }

    func follow(_ follower: UserID, _ author: UserID, at now: Int64, _ db: Connection) throws {
        try db.legacyRun("INSERT OR IGNORE INTO follows (follower_id, author_id, created_at) VALUES (?, ?, ?)",
                   follower.rawValue, author.rawValue, now)
    }

    func unfollow(_ follower: UserID, _ author: UserID, _ db: Connection) throws {
        try db.legacyRun("DELETE FROM follows WHERE follower_id = ? AND author_id = ?", follower.rawValue, author.rawValue)
    }

    /// Ids of a page of authors.
    func authors(sort: AuthorSort, page: PageRequest, _ db: Connection) throws -> Page<UserID> {
        let total = try db.legacyScalarInt("SELECT COUNT(*) FROM users WHERE is_author = 1") ?? 0
        let order = sort == .followers
            ? "(SELECT COUNT(*) FROM follows f WHERE f.author_id = u.id) DESC, u.id DESC"
            : "COALESCE(u.author_since, u.created_at) DESC, u.id DESC"
        let ids = try db.legacyQuery("SELECT u.id FROM users u WHERE u.is_author = 1 ORDER BY \(order) LIMIT ? OFFSET ?",
                               page.perPage, page.offset).map { UserID(try $0.int64("id")) }
        return Page(items: ids, page: page.page, perPage: page.perPage, total: Int(total))
    }

    /// Ids of the users `follower` follows, most recent first.
    func following(_ follower: UserID, page: PageRequest, _ db: Connection) throws -> Page<UserID> {
        let total = try db.legacyScalarInt("SELECT COUNT(*) FROM follows WHERE follower_id = ?", follower.rawValue) ?? 0
        let ids = try db.legacyQuery("""
            SELECT author_id FROM follows WHERE follower_id = ? ORDER BY created_at DESC, author_id DESC LIMIT ? OFFSET ?
            """, follower.rawValue, page.perPage, page.offset).map { UserID(try $0.int64("author_id")) }
        return Page(items: ids, page: page.page, perPage: page.perPage, total: Int(total))
    }

    /// Ids of the followers of `author`, most recent first.
    func followers(_ author: UserID, page: PageRequest, _ db: Connection) throws -> Page<UserID> {
        let total = try db.legacyScalarInt("SELECT COUNT(*) FROM follows WHERE author_id = ?", author.rawValue) ?? 0
        let ids = try db.legacyQuery("""
            SELECT follower_id FROM follows WHERE author_id = ? ORDER BY created_at DESC, follower_id DESC LIMIT ? OFFSET ?
            """, author.rawValue, page.perPage, page.offset).map { UserID(try $0.int64("follower_id")) }
        return Page(items: ids, page: page.page, perPage: page.perPage, total: Int(total))
    }

    /// Grants or revokes the column-author role by phone; false when no user has that phone.
    func setAuthor(_ isAuthor: Bool, phone: String, at now: Int64, _ db: Connection) throws -> Bool {
        try db.legacyRun("""
            UPDATE users SET is_author = ?, author_since = CASE WHEN ? THEN COALESCE(author_since, ?) ELSE NULL END,
                             updated_at = ? WHERE phone = ?
            """, isAuthor, isAuthor, now, now, phone) == 1
    }
}
