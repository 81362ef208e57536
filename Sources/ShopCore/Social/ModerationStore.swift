import Foundation
import SQL

/// SQL for moderators' reads and writes of comments, articles and the author role.
struct ModerationStore {
    static let commentSelect: SQL = """
        SELECT c.id, c.article_id, a.title, a.hidden_at, c.user_id, u.nickname, c.content, c.reply_to, c.created_at
        FROM comments c JOIN users u ON u.id = c.user_id JOIN articles a ON a.id = c.article_id
        """

    static func comment(_ row: Row) throws -> ModeratedComment {
        ModeratedComment(id: try row.decode("id"), articleID: try row.decode("article_id"), articleTitle: try row.decode("title"),
                         articleHidden: try row.decode("hidden_at", as: Int64?.self) != nil, userID: try row.decode("user_id"),
                         nickname: try row.decode("nickname"), content: try row.decode("content"),
                         replyTo: try row.decode("reply_to"), createdAt: try row.decode("created_at"))
    }

    /// Newest first; `query` is a part of the text, of the writer's nickname or of the article's
    /// title (a literal, never a pattern).
    func comments(matching query: String?, _ page: PageRequest, _ db: any SQLConnection) throws -> Page<ModeratedComment> {
        var filter = SQL.empty
        if let query {
            let pattern = SearchText.likeContains(SearchText.fold(query))
            filter = """
                WHERE LOWER(c.content) LIKE \(pattern) ESCAPE '\\' OR LOWER(u.nickname) LIKE \(pattern) ESCAPE '\\'
                   OR LOWER(a.title) LIKE \(pattern) ESCAPE '\\'
                """
        }
        let count: SQL = query == nil ? "SELECT COUNT(*) FROM comments" : """
            SELECT COUNT(*) FROM comments c JOIN users u ON u.id = c.user_id JOIN articles a ON a.id = c.article_id \(filter)
            """
        return try db.page(page, count: count, rows: "\(Self.commentSelect) \(filter) ORDER BY c.created_at DESC, c.id DESC",
                           each: Self.comment)
    }

    func comment(_ id: CommentID, _ db: any SQLConnection) throws -> ModeratedComment? {
        try db.queryOne("\(Self.commentSelect) WHERE c.id = \(id)").map(Self.comment)
    }

    func article(_ id: ArticleID, _ db: any SQLConnection) throws -> ModeratedArticle? {
        try db.queryOne("SELECT id, author_id, title, hidden_at FROM articles WHERE id = \(id)").map { row in
            ModeratedArticle(id: try row.decode("id"), authorID: try row.decode("author_id"), title: try row.decode("title"),
                             hiddenAt: try row.decode("hidden_at"))
        }
    }

    /// Hides an article (a second hide keeps the first one's time); its row, likes and comments stay.
    func hide(_ id: ArticleID, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("UPDATE articles SET hidden_at = COALESCE(hidden_at, \(now)), updated_at = \(now) WHERE id = \(id)")
    }

    func authorRole(_ id: UserID, _ db: any SQLConnection) throws -> AuthorRole? {
        try db.queryOne("SELECT id, is_author FROM users WHERE id = \(id)").map { row in
            AuthorRole(userID: try row.decode("id"), isAuthor: try row.decode("is_author"))
        }
    }

    /// Grants or revokes the column-author role; `author_since` is kept across a second grant.
    func setAuthor(_ isAuthor: Bool, user id: UserID, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("""
            UPDATE users SET is_author = \(isAuthor), author_since = CASE WHEN \(isAuthor) = 1 THEN COALESCE(author_since, \(now)) ELSE NULL END,
                             updated_at = \(now) WHERE id = \(id)
            """)
    }
}
