import Foundation
import SQL
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("Social: staff moderation of comments, articles and authors")
struct ModerationTests {
    static let moderator = StaffActor.commandLine(user: "mod")

    func audit(_ fixture: TestShop, _ target: String) throws -> [AuditEntry] {
        try fixture.shop.audit.entries(AuditFilter(target: target), page: PageRequest(perPage: 100)).items
    }

    /// The count on the article and the weekly top 10 both read the comments that remain.
    @Test func aDeletedCommentLeavesTheCountAndTheTopTenRightAndIsAudited() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let spammer = try fixture.socialMember("13800000002")
        let reader = try fixture.socialMember("13800000003")
        let articles = fixture.shop.articles
        let spammed = try fixture.socialPublish("被刷", by: author).id
        let viewed = try fixture.socialPublish("有人看", by: author).id
        let spam = try articles.comment(on: spammed, content: "点我链接买便宜花", replyTo: nil, by: spammer.id)
        let kept = try articles.comment(on: spammed, content: "好看", replyTo: nil, by: reader.id)
        for index in 0..<7 { _ = try articles.read(viewed, viewer: nil, clientIP: "10.0.0.\(index)") }
        // two commenters: 10 points against 7 views
        #expect(try articles.top(viewer: nil).prefix(2).map(\.id) == [spammed, viewed])

        try fixture.shop.moderation.deleteComment(spam.id, by: Self.moderator)

        #expect(try fixture.socialStoredArticle(spammed)?.comments == 1)
        #expect(try articles.comments(on: spammed, page: PageRequest()).items.map(\.id) == [kept.id])
        // one commenter left: 5 points, below the 7 views
        #expect(try articles.top(viewer: nil).prefix(2).map(\.id) == [viewed, spammed])
        let entry = try #require(try audit(fixture, "comment:\(spam.id)").first)
        #expect(entry.action == "comment.delete" && entry.actor == "cli:mod" && entry.after == nil)
        #expect(entry.before?.contains("点我链接买便宜花") == true)
        #expect(throws: SocialError.commentNotFound) { try fixture.shop.moderation.deleteComment(spam.id, by: Self.moderator) }
        #expect(try audit(fixture, "comment:\(spam.id)").count == 1)
    }

    @Test func aHiddenArticleIsGoneForBuyersEverywhereButKeptInTheDatabase() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let reader = try fixture.socialMember("13800000002")
        let articles = fixture.shop.articles
        let shown = try fixture.socialPublish("留下", by: author).id
        let hidden = try fixture.socialPublish("违规", by: author).id
        try fixture.shop.social.follow(author.id, by: reader.id)
        try fixture.shop.favorites.add(article: hidden, by: reader.id)
        _ = try articles.comment(on: hidden, content: "评论", replyTo: nil, by: reader.id)

        let first = try fixture.shop.moderation.hideArticle(hidden, by: Self.moderator)
        fixture.clock.advance(by: 60)
        let again = try fixture.shop.moderation.hideArticle(hidden, by: Self.moderator)
        #expect(first.hiddenAt != nil && again.hiddenAt == first.hiddenAt, "hiding twice keeps the first time")

        #expect(try articles.articles(category: nil, page: PageRequest(), viewer: nil).items.map(\.id) == [shown])
        #expect(try articles.articles(by: author.id, page: PageRequest(), viewer: reader.id).items.map(\.id) == [shown])
        #expect(try fixture.shop.social.feed(for: reader.id, cursor: nil, limit: 10).items.map(\.id) == [shown])
        #expect(try articles.top(viewer: nil).map(\.id) == [shown])
        #expect(try fixture.shop.favorites.articles(of: reader.id, page: PageRequest()).items.isEmpty)
        #expect(try fixture.socialProfile(author.id).articlesCount == 1)
        #expect(throws: SocialError.articleNotFound) { try articles.read(hidden, viewer: reader.id, clientIP: "10.0.0.1") }
        #expect(throws: SocialError.articleNotFound) { try articles.preview(hidden) }
        #expect(throws: SocialError.articleNotFound) { try articles.comments(on: hidden, page: PageRequest()) }
        #expect(throws: SocialError.articleNotFound) { try articles.like(hidden, by: reader.id) }
        #expect(throws: SocialError.articleNotFound) { try articles.edit(hidden, ArticleDraft(title: "改"), by: author.id) }
        #expect(throws: SocialError.articleNotFound) { try articles.delete(hidden, by: author.id) }
        #expect(throws: SocialError.articleNotFound) { try fixture.shop.favorites.add(article: hidden, by: author.id) }

        #expect(try fixture.socialStoredArticle(hidden)?.comments == 1, "the row and its comments stay")
        #expect(try audit(fixture, "article:\(hidden)").map(\.action) == ["article.hide", "article.hide"])
        let comments = try fixture.shop.moderation.comments(matching: nil, page: PageRequest()).items
        #expect(comments.map(\.articleHidden) == [true])
        #expect(throws: SocialError.articleNotFound) { try fixture.shop.moderation.hideArticle(ArticleID(999), by: Self.moderator) }
    }

    @Test func moderatorsListCommentsNewestFirstWithTheArticleAndWriterAndFindThemByText() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let alice = try fixture.socialMember("13800000002", nickname: "Alice")
        let bob = try fixture.socialMember("13800000003", nickname: "小波")
        let roses = try fixture.socialPublish("玫瑰养护", by: author).id
        let lilies = try fixture.socialPublish("百合花语", by: author).id
        let articles = fixture.shop.articles
        _ = try articles.comment(on: roses, content: "很有用", replyTo: nil, by: alice.id)
        fixture.clock.advance(by: 1)
        _ = try articles.comment(on: lilies, content: "100%好看", replyTo: nil, by: bob.id)
        fixture.clock.advance(by: 1)
        _ = try articles.comment(on: roses, content: "谢谢分享", replyTo: nil, by: bob.id)

        let moderation = fixture.shop.moderation
        let all = try moderation.comments(matching: nil, page: PageRequest())
        #expect(all.total == 3)
        #expect(all.items.map(\.content) == ["谢谢分享", "100%好看", "很有用"])
        #expect(all.items.first?.articleID == roses && all.items.first?.articleTitle == "玫瑰养护")
        #expect(all.items.first?.userID == bob.id && all.items.first?.nickname == "小波")
        #expect(try moderation.comments(matching: "alice", page: PageRequest()).items.map(\.content) == ["很有用"])
        #expect(try moderation.comments(matching: "百合", page: PageRequest()).items.map(\.content) == ["100%好看"])
        #expect(try moderation.comments(matching: "%", page: PageRequest()).items.map(\.content) == ["100%好看"])
        let second = try moderation.comments(matching: "小波", page: PageRequest(page: 2, perPage: 1))
        #expect(second.total == 2 && second.items.map(\.content) == ["100%好看"])
    }

    @Test func staffGrantAndRevokeTheAuthorRoleByUserAndEachIsAudited() throws {
        let fixture = try TestShop()
        let user = try fixture.socialMember("13800000001")
        let moderation = fixture.shop.moderation
        #expect(try moderation.setAuthor(true, user: user.id, by: Self.moderator) == AuthorRole(userID: user.id, isAuthor: true))
        _ = try fixture.shop.articles.publish(ArticleDraft(title: "首篇", content: "x"), by: user.id)
        try moderation.setAuthor(false, user: user.id, by: Self.moderator)
        #expect(throws: SocialError.notAnAuthor) {
            try fixture.shop.articles.publish(ArticleDraft(title: "次篇", content: "x"), by: user.id)
        }
        #expect(try fixture.socialCount("articles") == 1, "a revoked author's articles stay")
        #expect(throws: SocialError.userNotFound) { try moderation.setAuthor(true, user: UserID(999), by: Self.moderator) }
        let entries = try audit(fixture, "user:\(user.id)")
        #expect(entries.map(\.action) == ["author.revoke", "author.grant"])
        #expect(entries.last?.before == #"{"is_author":false,"user_id":\#(user.id)}"#)
    }
}
