import Foundation
import SQL
import SQLite
import ShopTestSupport
import Testing
@testable import ShopCore

/// A registered user of the social tests.
struct SocialMember {
    let id: UserID
    let phone: String
}

extension TestShop {
    /// Registers a plain user (no author role).
    func socialMember(_ phone: String, nickname: String? = nil) throws -> SocialMember {
        let session = try register(phone, nickname: nickname)
        return SocialMember(id: session.user.id, phone: phone)
    }

    /// Registers a user and grants the column-author role, as `shop authors grant` does.
    func socialAuthor(_ phone: String, nickname: String? = nil) throws -> SocialMember {
        let member = try socialMember(phone, nickname: nickname)
        try shop.moderation.setAuthor(true, phone: phone, by: .commandLine(user: "test"))
        return member
    }

    /// Advances the clock, then publishes (so each article has its own `published_at`).
    @discardableResult
    func socialPublish(_ title: String, by author: SocialMember, content: String = "<p>正文</p>",
                       advancing seconds: TimeInterval = 60) throws -> Article {
        clock.advance(by: seconds)
        return try shop.articles.publish(ArticleDraft(title: title, content: content), by: author.id)
    }

    /// Imports JSON lines through `ArticleImporter`, as `shop import articles` does.
    func socialImport(_ lines: [String], skipInvalid: Bool = false, dryRun: Bool = false) throws -> ArticleImporter.Outcome {
        try shop.articleImporter.importData(Array(lines.joined(separator: "\n").utf8),
                                            options: CatalogImporter.Options(dryRun: dryRun, skipInvalid: skipInvalid))
    }

    func socialCount(_ table: String) throws -> Int64 {
        try pool.read { db in try db.scalarInt("SELECT COUNT(*) FROM \(SQLIdentifier(table))") ?? -1 }
    }

    func socialProfile(_ id: UserID, viewer: UserID? = nil) throws -> PublicProfile {
        try shop.social.profile(id, viewer: viewer)
    }

    /// An article as stored, read without counting a view.
    func socialStoredArticle(_ id: ArticleID) throws -> (likes: Int64, comments: Int64, views: Int64)? {
        try pool.read { db in
            try db.queryOne("SELECT likes_count, comments_count, views FROM articles WHERE id = \(id)").map {
                (try $0.int64("likes_count"), try $0.int64("comments_count"), try $0.int64("views"))
            }
        }
    }
}

/// One line of an article import file.
func socialArticleLine(phone: String, title: String, publishedAt: String = "2026-11-01T08:00:00Z",
                       category: String = "花艺课堂", summary: String = "摘要", content: String = "<p>正文</p>",
                       coverURL: String = "https://img.example.com/a.jpg") -> String {
    let object: [String: String] = ["author_phone": phone, "title": title, "summary": summary, "cover_url": coverURL,
                                    "content": content, "category": category, "published_at": publishedAt]
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    return String(decoding: data, as: UTF8.self)
}

/// RFC 3339 UTC, as the import file spells it.
func socialRFC3339(_ date: Date) -> String {
    date.formatted(.iso8601)
}

/// Runs `body` on `count` threads at once and answers the errors they threw.
func socialConcurrently(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) -> [String] {
    let lock = NSLock()
    nonisolated(unsafe) var errors: [String] = []
    DispatchQueue.concurrentPerform(iterations: count) { index in
        do {
            try body(index)
        } catch {
            lock.lock()
            errors.append(String(describing: error))
            lock.unlock()
        }
    }
    return errors
}
