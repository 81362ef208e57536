import Foundation
import SQL

/// SQL for comments.
struct CommentStore {
    static func comment(_ row: Row) throws -> Comment {
        Comment(id: try row.decode("id"), articleID: try row.decode("article_id"),
                userID: try row.decode("user_id"), nickname: try row.decode("nickname"),
                avatarURL: try row.decode("avatar_url"), content: try row.decode("content"),
                replyTo: try row.decode("reply_to"), createdAt: try row.decode("created_at"))
    }

    static let select: SQL = """
        SELECT c.id, c.article_id, c.user_id, u.nickname, u.avatar_url, c.content, c.reply_to, c.created_at
        FROM comments c JOIN users u ON u.id = c.user_id
        """

    func list(_ article: ArticleID, page: PageRequest, _ db: any SQLConnection) throws -> Page<Comment> {
        try db.page(page, count: "SELECT COUNT(*) FROM comments WHERE article_id = \(article)",
                    rows: "\(Self.select) WHERE c.article_id = \(article) ORDER BY c.created_at, c.id", each: Self.comment)
    }

    func find(_ id: CommentID, _ db: any SQLConnection) throws -> Comment? {
        try db.queryOne("\(Self.select) WHERE c.id = \(id)").map(Self.comment)
    }

    func insert(article: ArticleID, user: UserID, content: String, replyTo: CommentID?, at now: Int64, _ db: any SQLConnection) throws -> CommentID {
        let id = try db.insert("""
            INSERT INTO comments (article_id, user_id, content, reply_to, created_at)
            VALUES (\(article), \(user), \(content), \(replyTo), \(now))
            """, returning: CommentID.self)
        try db.run("UPDATE articles SET comments_count = comments_count + 1 WHERE id = \(article)")
        return id
    }

    func delete(_ comment: Comment, _ db: any SQLConnection) throws {
        if try db.run("DELETE FROM comments WHERE id = \(comment.id)") == 1 {
            try db.run("UPDATE articles SET comments_count = comments_count - 1 WHERE id = \(comment.articleID)")
        }
    }
}
