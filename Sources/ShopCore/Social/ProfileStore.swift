import Foundation
import SQL

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

    func basic(_ id: UserID, _ db: any SQLConnection) throws -> Basic? {
        try db.queryOne("SELECT id, nickname, avatar_url, signature, gender, is_author FROM users WHERE id = \(id)")
            .map { row in
                Basic(id: try row.decode("id"), nickname: try row.decode("nickname"), avatarURL: try row.decode("avatar_url"),
                      signature: try row.decode("signature"), gender: try row.decode("gender"),
                      isAuthor: try row.decode("is_author"))
            }
    }

    /// A public profile with its counts; `viewer` decides `is_following`.
    func profile(_ id: UserID, viewer: UserID?, at now: Int64, _ db: any SQLConnection) throws -> PublicProfile? {
        guard let basic = try basic(id, db) else { return nil }
        let followers = try db.scalarInt("SELECT COUNT(*) FROM follows WHERE author_id = \(id)") ?? 0
        let following = try db.scalarInt("SELECT COUNT(*) FROM follows WHERE follower_id = \(id)") ?? 0
        let articles = try db.scalarInt("SELECT COUNT(*) FROM articles a WHERE a.author_id = \(id) AND \(ArticleStore.visible(at: now))") ?? 0
        var isFollowing: Bool?
        if let viewer {
            isFollowing = try isFollowingAuthor(viewer, id, db)
        }
        return PublicProfile(id: basic.id, nickname: basic.nickname, avatarURL: basic.avatarURL, signature: basic.signature,
                             gender: basic.gender, isAuthor: basic.isAuthor, followersCount: Int(followers),
                             followingCount: Int(following), articlesCount: Int(articles), isFollowing: isFollowing)
    }

    func isFollowingAuthor(_ follower: UserID, _ author: UserID, _ db: any SQLConnection) throws -> Bool {
        try db.scalarInt("SELECT COUNT(*) FROM follows WHERE follower_id = \(follower) AND author_id = \(author)") == 1
    }

    func follow(_ follower: UserID, _ author: UserID, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("INSERT INTO follows (follower_id, author_id, created_at) VALUES (\(follower), \(author), \(now)) ON CONFLICT DO NOTHING")
    }

    func unfollow(_ follower: UserID, _ author: UserID, _ db: any SQLConnection) throws {
        try db.run("DELETE FROM follows WHERE follower_id = \(follower) AND author_id = \(author)")
    }

    /// Ids of a page of authors.
    func authors(sort: AuthorSort, page: PageRequest, _ db: any SQLConnection) throws -> Page<UserID> {
        let order: SQL = sort == .followers
            ? "(SELECT COUNT(*) FROM follows f WHERE f.author_id = u.id) DESC, u.id DESC"
            : "COALESCE(u.author_since, u.created_at) DESC, u.id DESC"
        return try db.page(page, count: "SELECT COUNT(*) FROM users WHERE is_author = 1",
                           rows: "SELECT u.id FROM users u WHERE u.is_author = 1 ORDER BY \(order)",
                           each: { try $0.decode("id") })
    }

    /// Ids of the users `follower` follows, most recent first.
    func following(_ follower: UserID, page: PageRequest, _ db: any SQLConnection) throws -> Page<UserID> {
        try db.page(page, count: "SELECT COUNT(*) FROM follows WHERE follower_id = \(follower)",
                    rows: "SELECT author_id FROM follows WHERE follower_id = \(follower) ORDER BY created_at DESC, author_id DESC",
                    each: { try $0.decode("author_id") })
    }

    /// Ids of the followers of `author`, most recent first.
    func followers(_ author: UserID, page: PageRequest, _ db: any SQLConnection) throws -> Page<UserID> {
        try db.page(page, count: "SELECT COUNT(*) FROM follows WHERE author_id = \(author)",
                    rows: "SELECT follower_id FROM follows WHERE author_id = \(author) ORDER BY created_at DESC, follower_id DESC",
                    each: { try $0.decode("follower_id") })
    }

    /// Grants or revokes the column-author role by phone; false when no user has that phone.
    func setAuthor(_ isAuthor: Bool, phone: String, at now: Int64, _ db: any SQLConnection) throws -> Bool {
        try db.run("""
            UPDATE users SET is_author = \(isAuthor), author_since = CASE WHEN \(isAuthor) = 1 THEN COALESCE(author_since, \(now)) ELSE NULL END,
                             updated_at = \(now) WHERE phone = \(phone)
            """) == 1
    }
}
