import Foundation
import SQL
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("Social top 10 and authorship")
struct SocialTopAndAuthorshipTests {
    /// Score = 7-day views + 3 × likers + 5 × commenters. The weights are chosen so that any other
    /// weighting, or plain newest-first, gives a different order.
    @Test func theTopTenFollowsTheDocumentedScoreAndForgetsActivityOlderThanSevenDays() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let users = try (0..<3).map { try fixture.socialMember(String(format: "139%08d", $0)).id }
        let articles = fixture.shop.articles
        // oldest first: d, e, c, b, a, then seven fillers, newest of all
        let d = try fixture.socialPublish("D", by: author).id
        let e = try fixture.socialPublish("E", by: author).id
        let c = try fixture.socialPublish("C", by: author).id
        let b = try fixture.socialPublish("B", by: author).id
        let a = try fixture.socialPublish("A", by: author).id
        var fillers: [ArticleID] = []
        for index in 1...7 { fillers.append(try fixture.socialPublish("F\(index)", by: author).id) }

        func view(_ id: ArticleID, _ times: Int) throws {
            for index in 0..<times { _ = try articles.read(id, viewer: nil, clientIP: "10.0.0.\(index)") }
        }
        try view(a, 4)                                                                  // 4
        try view(b, 2); try articles.like(b, by: users[0])                             // 2 + 3 = 5
        try view(c, 1); _ = try articles.comment(on: c, content: "好", replyTo: nil, by: users[0])   // 1 + 5 = 6
        try articles.like(d, by: users[0]); try articles.like(d, by: users[1])
        _ = try articles.comment(on: d, content: "妙", replyTo: nil, by: users[2])     // 6 + 5 = 11
        try view(e, 10)                                                                 // 10

        let top = try articles.top(viewer: nil)
        #expect(top.count == 10)
        #expect(top.prefix(5).map(\.id) == [d, e, c, b, a])
        #expect(top.dropFirst(5).map(\.id) == Array(fillers.reversed().prefix(5)))

        // eight days on, the old activity no longer counts: newest first, except what was just read
        fixture.clock.advance(by: 8 * 86_400)
        try view(b, 1)
        let later = try articles.top(viewer: users[0])
        #expect(later.count == 10)
        #expect(later.map(\.id) == [b] + Array(fillers.reversed()) + [a, c])
        #expect(later.first?.views == 3, "views stay counted for all time on the article itself")
        #expect(later.first?.liked == true)
    }

    /// One account's twenty comments and its like count once: 5 + 3 points, below six readers'
    /// views; two readers commenting once each outrank both.
    @Test func aReaderCountsOnceHoweverManyCommentsTheyWrite() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let users = try (0..<2).map { try fixture.socialMember(String(format: "139%08d", $0)).id }
        let articles = fixture.shop.articles
        let rigged = try fixture.socialPublish("刷榜", by: author).id
        let viewed = try fixture.socialPublish("有人看", by: author).id
        let discussed = try fixture.socialPublish("有人评", by: author).id
        for index in 0..<20 { _ = try articles.comment(on: rigged, content: "顶\(index)", replyTo: nil, by: users[0]) }
        try articles.like(rigged, by: users[0])                                                   // 5 + 3 = 8
        for index in 0..<9 { _ = try articles.read(viewed, viewer: nil, clientIP: "10.0.0.\(index)") } // 9
        for user in users { _ = try articles.comment(on: discussed, content: "好", replyTo: nil, by: user) } // 10
        #expect(try articles.top(viewer: nil).prefix(3).map(\.id) == [discussed, viewed, rigged])
    }

    @Test func onlyColumnAuthorsPublish() throws {
        let fixture = try TestShop()
        let plain = try fixture.socialMember("13800000001")
        #expect(throws: SocialError.notAnAuthor) {
            try fixture.shop.articles.publish(ArticleDraft(title: "越权", content: "x"), by: plain.id)
        }
        #expect(try fixture.socialCount("articles") == 0)
    }

    @Test func anotherUserCanNeitherEditNorDeleteAnArticle() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let rival = try fixture.socialAuthor("13800000002")
        let reader = try fixture.socialMember("13800000003")
        let article = try fixture.socialPublish("原标题", by: author, content: "原文")
        for intruder in [rival, reader] {
            #expect(throws: SocialError.forbidden(.changeOthersArticle)) {
                try fixture.shop.articles.edit(article.id, ArticleDraft(title: "篡改"), by: intruder.id)
            }
            #expect(throws: SocialError.forbidden(.changeOthersArticle)) {
                try fixture.shop.articles.delete(article.id, by: intruder.id)
            }
        }
        let stored = try fixture.shop.articles.read(article.id, viewer: nil, clientIP: "10.0.0.1")
        #expect(stored.title == "原标题")
        #expect(stored.content == "原文")
    }

    @Test func aRevokedAuthorCanNeitherEditNorPublishButMayDelete() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let article = try fixture.socialPublish("原标题", by: author, content: "原文")
        try fixture.shop.moderation.setAuthor(false, phone: author.phone, by: .commandLine(user: "test"))

        #expect(throws: SocialError.notAnAuthor) {
            try fixture.shop.articles.edit(article.id, ArticleDraft(title: "撤销后改"), by: author.id)
        }
        #expect(throws: SocialError.notAnAuthor) {
            try fixture.shop.articles.publish(ArticleDraft(title: "撤销后发", content: "x"), by: author.id)
        }
        #expect(try fixture.socialStoredArticleTitle(article.id) == "原标题")
        try fixture.shop.articles.delete(article.id, by: author.id)
        #expect(try fixture.socialCount("articles") == 0)
    }

    @Test func theAuthorEditsOnlyTheGivenFieldsAndDeletes() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let draft = ArticleDraft(title: "标题", summary: "摘要", coverURL: "https://img.example.com/c.jpg", content: "正文")
        let article = try fixture.shop.articles.publish(draft, by: author.id)

        let edited = try fixture.shop.articles.edit(article.id, ArticleDraft(summary: "新摘要"), by: author.id)
        #expect(edited.summary == "新摘要")
        #expect(edited.title == "标题")
        #expect(edited.coverURL == "https://img.example.com/c.jpg")
        #expect(edited.content == "正文")
        #expect(edited.publishedAt == article.publishedAt)

        try fixture.shop.articles.delete(article.id, by: author.id)
        #expect(throws: SocialError.articleNotFound) { try fixture.shop.articles.read(article.id, viewer: nil, clientIP: "10.0.0.1") }
        #expect(throws: SocialError.articleNotFound) { try fixture.shop.articles.delete(article.id, by: author.id) }
    }
}

extension TestShop {
    /// An article's stored title, read without counting a view.
    func socialStoredArticleTitle(_ id: ArticleID) throws -> String? {
        try pool.read { db in try db.queryOne("SELECT title FROM articles WHERE id = \(id)").map { try $0.string("title") } }
    }
}
