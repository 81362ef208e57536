import Foundation
import SQL
import SQLite

/// SQL for articles, their categories, likes, comments and view counts.
struct ArticleStore {
    struct ArticleRecord {
        let id: ArticleID
        let authorID: UserID
        let title: String
        let summary: String
        let coverURL: String
        let content: String
        let categoryID: ArticleCategoryID?
        let views: Int64
        let likesCount: Int64
        let commentsCount: Int64
        let publishedAt: Int64
    }

    static let columns = """
        a.id, a.author_id, a.title, a.summary, a.cover_url, a.content, a.category_id, a.views, a.likes_count,
        a.comments_count, a.published_at
        """

    static func article(_ row: Row) throws -> ArticleRecord {
        ArticleRecord(id: ArticleID(try row.int64("id")), authorID: UserID(try row.int64("author_id")), title: try row.string("title"),
             summary: try row.string("summary"), coverURL: try row.string("cover_url"), content: try row.string("content"),
             categoryID: try row.optionalInt64("category_id").map(ArticleCategoryID.init), views: try row.int64("views"),
             likesCount: try row.int64("likes_count"), commentsCount: try row.int64("comments_count"),
             publishedAt: try row.int64("published_at"))
    }

    /// A published article (published_at not in the future).
    func find(_ id: ArticleID, at now: Int64, _ db: Connection) throws -> ArticleRecord? {
        try db.legacyQueryOne("SELECT \(Self.columns) FROM articles a WHERE a.id = ? AND a.published_at <= ?", id.rawValue, now)
            .map(Self.article)
    }

    func list(category: ArticleCategoryID?, author: UserID?, at now: Int64, page: PageRequest, _ db: Connection) throws -> Page<ArticleRecord> {
        var conditions = ["a.published_at <= ?"]
        var bindings: [any SQLBindable] = [now]
        if let category {
            conditions.append("a.category_id = ?")
            bindings.append(category.rawValue)
        }
        if let author {
            conditions.append("a.author_id = ?")
            bindings.append(author.rawValue)
        }
        let filter = conditions.joined(separator: " AND ")
        let total = try db.legacyScalarInt("SELECT COUNT(*) FROM articles a WHERE \(filter)", bindings: bindings) ?? 0
        let rows = try db.legacyQuery("SELECT \(Self.columns) FROM articles a WHERE \(filter) ORDER BY a.published_at DESC, a.id DESC LIMIT ? OFFSET ?",
                                bindings: bindings + [page.perPage, page.offset])
        return Page(items: try rows.map(Self.article), page: page.page, perPage: page.perPage, total: Int(total))
    }

    /// Articles by the authors `follower` follows, older than the cursor position, newest first.
    func feed(for follower: UserID, before cursor: (publishedAt: Int64, id: Int64)?, at now: Int64, limit: Int,
              _ db: Connection) throws -> [ArticleRecord] {
        let position = cursor ?? (now, Int64.max)
        return try db.legacyQuery("""
            SELECT \(Self.columns) FROM articles a
            WHERE a.author_id IN (SELECT author_id FROM follows WHERE follower_id = ?)
              AND a.published_at <= ?
              AND (a.published_at < ? OR (a.published_at = ? AND a.id < ?))
            ORDER BY a.published_at DESC, a.id DESC LIMIT ?
            """, follower.rawValue, now, position.publishedAt, position.publishedAt, position.id, limit).map(Self.article)
    }

    /// The week's top articles: score = views in the last 7 days + 3 × likes + 5 × comments given in them.
    func top(since: Int64, sinceDay: Int64, at now: Int64, limit: Int, _ db: Connection) throws -> [ArticleRecord] {
        try db.legacyQuery("""
            SELECT \(Self.columns), COALESCE(s.score, 0) AS score FROM articles a
            LEFT JOIN (
                SELECT article_id, SUM(points) AS score FROM (
                    SELECT article_id, views AS points FROM article_view_days WHERE day >= ?
                    UNION ALL SELECT article_id, 3 FROM article_likes WHERE created_at >= ?
                    UNION ALL SELECT article_id, 5 FROM comments WHERE created_at >= ?
                ) GROUP BY article_id
            ) s ON s.article_id = a.id
            WHERE a.published_at <= ?
            ORDER BY score DESC, a.published_at DESC, a.id DESC LIMIT ?
            """, sinceDay, since, since, now, limit).map(Self.article)
    }

    func insert(author: UserID, _ d: ArticleDraft, publishedAt: Int64, at now: Int64, _ db: Connection) throws -> ArticleID {
        try db.legacyRun("""
            INSERT INTO articles (author_id, category_id, title, summary, cover_url, content, published_at, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, author.rawValue, d.categoryID?.rawValue, d.title ?? "", d.summary ?? "", d.coverURL ?? "", d.content ?? "",
            publishedAt, now, now)
        return ArticleID(db.lastInsertRowID)
    }

    func update(_ id: ArticleID, _ d: ArticleDraft, publishedAt: Int64?, at now: Int64, _ db: Connection) throws {
        try db.legacyRun("""
            UPDATE articles SET title = COALESCE(?, title), summary = COALESCE(?, summary), cover_url = COALESCE(?, cover_url),
                content = COALESCE(?, content), category_id = COALESCE(?, category_id),
                published_at = COALESCE(?, published_at), updated_at = ?
            WHERE id = ?
            """, d.title, d.summary, d.coverURL, d.content, d.categoryID?.rawValue, publishedAt, now, id.rawValue)
    }

    func delete(_ id: ArticleID, _ db: Connection) throws {
        try db.legacyRun("DELETE FROM articles WHERE id = ?", id.rawValue)
    }

    func author(of id: ArticleID, _ db: Connection) throws -> UserID? {
        try db.legacyScalarInt("SELECT author_id FROM articles WHERE id = ?", id.rawValue).map(UserID.init)
    }

    func find(author: UserID, title: String, _ db: Connection) throws -> ArticleRecord? {
        try db.legacyQueryOne("SELECT \(Self.columns) FROM articles a WHERE a.author_id = ? AND a.title = ?", author.rawValue, title)
            .map(Self.article)
    }

    // MARK: views and likes

    /// Counts a view of a published article; false (nothing counted) when there is none.
    /// Counts a view of a published article once per visitor and UTC day; false when there is no
    /// such published article.
    func countView(_ id: ArticleID, by visitor: Visitor, at now: Int64, _ db: Connection) throws -> Bool {
        guard try db.legacyScalarInt("SELECT COUNT(*) FROM articles WHERE id = ? AND published_at <= ?", id.rawValue, now) == 1 else {
            return false
        }
        guard try db.legacyRun("INSERT OR IGNORE INTO article_views (article_id, viewer, day) VALUES (?, ?, ?)",
                         id.rawValue, visitor.key, now / 86_400) == 1 else {
            return true
        }
        try db.legacyRun("UPDATE articles SET views = views + 1 WHERE id = ?", id.rawValue)
        try db.legacyRun("""
            INSERT INTO article_view_days (article_id, day, views) VALUES (?, ?, 1)
            ON CONFLICT (article_id, day) DO UPDATE SET views = views + 1
            """, id.rawValue, now / 86_400)
        return true
    }

    func purgeViews(before day: Int64, _ db: Connection) throws {
        try db.legacyRun("DELETE FROM article_views WHERE day < ?", day)
    }

    func liked(_ id: ArticleID, by user: UserID, _ db: Connection) throws -> Bool {
        try db.legacyScalarInt("SELECT COUNT(*) FROM article_likes WHERE article_id = ? AND user_id = ?", id.rawValue, user.rawValue) == 1
    }

    /// Likes once; the count moves only when a row was added.
    func like(_ id: ArticleID, by user: UserID, at now: Int64, _ db: Connection) throws {
        if try db.legacyRun("INSERT OR IGNORE INTO article_likes (article_id, user_id, created_at) VALUES (?, ?, ?)",
                      id.rawValue, user.rawValue, now) == 1 {
            try db.legacyRun("UPDATE articles SET likes_count = likes_count + 1 WHERE id = ?", id.rawValue)
        }
    }

    func unlike(_ id: ArticleID, by user: UserID, _ db: Connection) throws {
        if try db.legacyRun("DELETE FROM article_likes WHERE article_id = ? AND user_id = ?", id.rawValue, user.rawValue) == 1 {
            try db.legacyRun("UPDATE articles SET likes_count = likes_count - 1 WHERE id = ?", id.rawValue)
        }
    }

    // MARK: categories

    func categories(_ db: Connection) throws -> [ArticleCategory] {
        try db.legacyQuery("SELECT id, name FROM article_categories ORDER BY id").map {
            ArticleCategory(id: ArticleCategoryID(try $0.int64("id")), name: try $0.string("name"))
        }
    }

    func categoryExists(_ id: ArticleCategoryID, _ db: Connection) throws -> Bool {
        try db.legacyScalarInt("SELECT COUNT(*) FROM article_categories WHERE id = ?", id.rawValue) == 1
    }

    func ensureCategory(_ name: String, _ db: Connection) throws -> ArticleCategoryID {
        if let id = try db.legacyScalarInt("SELECT id FROM article_categories WHERE name = ?", name) { return ArticleCategoryID(id) }
        try db.legacyRun("INSERT INTO article_categories (name) VALUES (?)", name)
        return ArticleCategoryID(db.lastInsertRowID)
    }
}

/// SQL for comments.
struct CommentStore {
    static func comment(_ row: Row) throws -> Comment {
        Comment(id: CommentID(try row.int64("id")), articleID: ArticleID(try row.int64("article_id")),
                userID: UserID(try row.int64("user_id")), nickname: try row.string("nickname"),
                avatarURL: try row.string("avatar_url"), content: try row.string("content"),
                replyTo: try row.optionalInt64("reply_to").map(CommentID.init),
                createdAt: Date(timeIntervalSince1970: TimeInterval(try row.int64("created_at"))))
    }

    static let select = """
        SELECT c.id, c.article_id, c.user_id, u.nickname, u.avatar_url, c.content, c.reply_to, c.created_at
        FROM comments c JOIN users u ON u.id = c.user_id
        """

    func list(_ article: ArticleID, page: PageRequest, _ db: Connection) throws -> Page<Comment> {
        let total = try db.legacyScalarInt("SELECT COUNT(*) FROM comments WHERE article_id = ?", article.rawValue) ?? 0
        let items = try db.legacyQuery("\(Self.select) WHERE c.article_id = ? ORDER BY c.created_at, c.id LIMIT ? OFFSET ?",
                                 article.rawValue, page.perPage, page.offset).map(Self.comment)
        return Page(items: items, page: page.page, perPage: page.perPage, total: Int(total))
    }

    func find(_ id: CommentID, _ db: Connection) throws -> Comment? {
        try db.legacyQueryOne("\(Self.select) WHERE c.id = ?", id.rawValue).map(Self.comment)
    }

    func insert(article: ArticleID, user: UserID, content: String, replyTo: CommentID?, at now: Int64, _ db: Connection) throws -> CommentID {
        try db.legacyRun("INSERT INTO comments (article_id, user_id, content, reply_to, created_at) VALUES (?, ?, ?, ?, ?)",
                   article.rawValue, user.rawValue, content, replyTo?.rawValue, now)
        try db.legacyRun("UPDATE articles SET comments_count = comments_count + 1 WHERE id = ?", article.rawValue)
        return CommentID(db.lastInsertRowID)
    }

    func delete(_ comment: Comment, _ db: Connection) throws {
        if try db.legacyRun("DELETE FROM comments WHERE id = ?", comment.id.rawValue) == 1 {
            try db.legacyRun("UPDATE articles SET comments_count = comments_count - 1 WHERE id = ?", comment.articleID.rawValue)
        }
    }
}
