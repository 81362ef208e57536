import Foundation
import SQL

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

    static let columns: SQL = """
        a.id, a.author_id, a.title, a.summary, a.cover_url, a.content, a.category_id, a.views, a.likes_count,
        a.comments_count, a.published_at
        """

    static func article(_ row: Row) throws -> ArticleRecord {
        ArticleRecord(id: try row.decode("id"), authorID: try row.decode("author_id"), title: try row.decode("title"),
             summary: try row.decode("summary"), coverURL: try row.decode("cover_url"), content: try row.decode("content"),
             categoryID: try row.decode("category_id"), views: try row.decode("views"),
             likesCount: try row.decode("likes_count"), commentsCount: try row.decode("comments_count"),
             publishedAt: try row.decode("published_at"))
    }

    /// What buyers may see of `articles a`: published (published_at not in the future) and not
    /// hidden by moderation. Every buyer-facing read goes through it: lists, detail, feed, top 10,
    /// favourites, profiles' counts.
    static func visible(at now: Int64, alias: SQL = "a") -> SQL {
        "\(alias).published_at <= \(now) AND \(alias).hidden_at IS NULL"
    }

    /// A published article buyers may see.
    func find(_ id: ArticleID, at now: Int64, _ db: any SQLConnection) throws -> ArticleRecord? {
        try db.queryOne("SELECT \(Self.columns) FROM articles a WHERE a.id = \(id) AND \(Self.visible(at: now))")
            .map(Self.article)
    }

    func list(category: ArticleCategoryID?, author: UserID?, at now: Int64, page: PageRequest, _ db: any SQLConnection) throws -> Page<ArticleRecord> {
        var conditions: [SQL] = [Self.visible(at: now)]
        if let category { conditions.append("a.category_id = \(category)") }
        if let author { conditions.append("a.author_id = \(author)") }
        let filter = conditions.joined(separator: " AND ")
        return try db.page(page, count: "SELECT COUNT(*) FROM articles a WHERE \(filter)",
                           rows: "SELECT \(Self.columns) FROM articles a WHERE \(filter) ORDER BY a.published_at DESC, a.id DESC",
                           each: Self.article)
    }

    /// Articles by the authors `follower` follows, older than the cursor position, newest first.
    func feed(for follower: UserID, before cursor: (publishedAt: Int64, id: Int64)?, at now: Int64, limit: Int,
              _ db: any SQLConnection) throws -> [ArticleRecord] {
        let position = cursor ?? (now, Int64.max)
        return try db.query("""
            SELECT \(Self.columns) FROM articles a
            WHERE a.author_id IN (SELECT author_id FROM follows WHERE follower_id = \(follower))
              AND \(Self.visible(at: now))
              AND (a.published_at < \(position.publishedAt) OR (a.published_at = \(position.publishedAt) AND a.id < \(position.id)))
            ORDER BY a.published_at DESC, a.id DESC LIMIT \(limit)
            """).map(Self.article)
    }

    /// The week's top articles: score = views in the last 7 days + 3 × likers + 5 × commenters in them.
    /// Each reader counts once for likes and once for comments, however many they wrote: one account's
    /// twenty comments must not lift an article past twenty readers' views.
    func top(since: Int64, sinceDay: Int64, at now: Int64, limit: Int, _ db: any SQLConnection) throws -> [ArticleRecord] {
        try db.query("""
            SELECT \(Self.columns), COALESCE(s.score, 0) AS score FROM articles a
            LEFT JOIN (
                SELECT article_id, SUM(points) AS score FROM (
                    SELECT article_id, views AS points FROM article_view_days WHERE day >= \(sinceDay)
                    UNION ALL SELECT article_id, 3 * COUNT(DISTINCT user_id) FROM article_likes
                        WHERE created_at >= \(since) GROUP BY article_id
                    UNION ALL SELECT article_id, 5 * COUNT(DISTINCT user_id) FROM comments
                        WHERE created_at >= \(since) GROUP BY article_id
                ) AS points GROUP BY article_id
            ) s ON s.article_id = a.id
            WHERE \(Self.visible(at: now))
            ORDER BY score DESC, a.published_at DESC, a.id DESC LIMIT \(limit)
            """).map(Self.article)
    }

    func insert(author: UserID, _ d: ArticleDraft, publishedAt: Int64, at now: Int64, _ db: any SQLConnection) throws -> ArticleID {
        try db.insert("""
            INSERT INTO articles (author_id, category_id, title, summary, cover_url, content, published_at, created_at, updated_at)
            VALUES (\(author), \(d.categoryID), \(d.title ?? ""), \(d.summary ?? ""), \(d.coverURL ?? ""), \(d.content ?? ""),
                    \(publishedAt), \(now), \(now))
            """, returning: ArticleID.self)
    }

    func update(_ id: ArticleID, _ d: ArticleDraft, publishedAt: Int64?, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("""
            UPDATE articles SET title = COALESCE(\(d.title), title), summary = COALESCE(\(d.summary), summary),
                cover_url = COALESCE(\(d.coverURL), cover_url), content = COALESCE(\(d.content), content),
                category_id = COALESCE(\(d.categoryID), category_id),
                published_at = COALESCE(\(publishedAt), published_at), updated_at = \(now)
            WHERE id = \(id)
            """)
    }

    func delete(_ id: ArticleID, _ db: any SQLConnection) throws {
        try db.run("DELETE FROM articles WHERE id = \(id)")
    }

    /// The author of an article that is not hidden: a hidden article is gone for its author too.
    func author(of id: ArticleID, _ db: any SQLConnection) throws -> UserID? {
        try db.scalar("SELECT author_id FROM articles WHERE id = \(id) AND hidden_at IS NULL", as: UserID.self)
    }

    func find(author: UserID, title: String, _ db: any SQLConnection) throws -> ArticleRecord? {
        try db.queryOne("SELECT \(Self.columns) FROM articles a WHERE a.author_id = \(author) AND a.title = \(title)")
            .map(Self.article)
    }

    // MARK: views and likes

    /// Counts a view of a published article once per visitor and UTC day; false when there is no
    /// such published article.
    func countView(_ id: ArticleID, by visitor: Visitor, at now: Int64, _ db: any SQLConnection) throws -> Bool {
        guard try db.scalarInt("SELECT COUNT(*) FROM articles a WHERE a.id = \(id) AND \(Self.visible(at: now))") == 1 else {
            return false
        }
        let day = now / 86_400
        guard try db.run("INSERT INTO article_views (article_id, viewer, day) VALUES (\(id), \(visitor.key), \(day)) ON CONFLICT DO NOTHING") == 1 else {
            return true
        }
        try db.run("UPDATE articles SET views = views + 1 WHERE id = \(id)")
        try db.run("""
            INSERT INTO article_view_days (article_id, day, views) VALUES (\(id), \(day), 1)
            ON CONFLICT (article_id, day) DO UPDATE SET views = article_view_days.views + 1
            """)
        return true
    }

    func purgeViews(before day: Int64, _ db: any SQLConnection) throws {
        try db.run("DELETE FROM article_views WHERE day < \(day)")
    }

    func liked(_ id: ArticleID, by user: UserID, _ db: any SQLConnection) throws -> Bool {
        try db.scalarInt("SELECT COUNT(*) FROM article_likes WHERE article_id = \(id) AND user_id = \(user)") == 1
    }

    /// Likes once; the count moves only when a row was added.
    func like(_ id: ArticleID, by user: UserID, at now: Int64, _ db: any SQLConnection) throws {
        if try db.run("INSERT INTO article_likes (article_id, user_id, created_at) VALUES (\(id), \(user), \(now)) ON CONFLICT DO NOTHING") == 1 {
            try db.run("UPDATE articles SET likes_count = likes_count + 1 WHERE id = \(id)")
        }
    }

    func unlike(_ id: ArticleID, by user: UserID, _ db: any SQLConnection) throws {
        if try db.run("DELETE FROM article_likes WHERE article_id = \(id) AND user_id = \(user)") == 1 {
            try db.run("UPDATE articles SET likes_count = likes_count - 1 WHERE id = \(id)")
        }
    }

    // MARK: categories

    func categories(_ db: any SQLConnection) throws -> [ArticleCategory] {
        try db.query("SELECT id, name FROM article_categories ORDER BY id").map {
            ArticleCategory(id: try $0.decode("id"), name: try $0.decode("name"))
        }
    }

    func categoryExists(_ id: ArticleCategoryID, _ db: any SQLConnection) throws -> Bool {
        try db.scalarInt("SELECT COUNT(*) FROM article_categories WHERE id = \(id)") == 1
    }

    func ensureCategory(_ name: String, _ db: any SQLConnection) throws -> ArticleCategoryID {
        if let id = try db.scalar("SELECT id FROM article_categories WHERE name = \(name)", as: ArticleCategoryID.self) { return id }
        return try db.insert("INSERT INTO article_categories (name) VALUES (\(name))", returning: ArticleCategoryID.self)
    }
}
