import Foundation
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("Social likes and comments: idempotent, validated, counted under concurrency")
struct SocialLikeCommentTests {
    @Test func likingTwiceCountsOnceAndUnlikingTwiceBringsItBackToZero() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let fan = try fixture.socialMember("13800000002")
        let other = try fixture.socialMember("13800000003")
        let article = try fixture.socialPublish("春日花束", by: author)
        let articles = fixture.shop.articles

        try articles.like(article.id, by: fan.id)
        try articles.like(article.id, by: fan.id)
        #expect(try fixture.socialStoredArticle(article.id)?.likes == 1)
        #expect(try articles.read(article.id, viewer: fan.id, clientIP: "10.0.0.1").liked == true)
        #expect(try articles.read(article.id, viewer: other.id, clientIP: "10.0.0.1").liked == false)
        #expect(try articles.read(article.id, viewer: nil, clientIP: "10.0.0.1").liked == nil)
        #expect(try articles.read(article.id, viewer: nil, clientIP: "10.0.0.1").likesCount == 1)

        try articles.unlike(article.id, by: fan.id)
        try articles.unlike(article.id, by: fan.id)
        #expect(try fixture.socialStoredArticle(article.id)?.likes == 0)
        #expect(try articles.read(article.id, viewer: fan.id, clientIP: "10.0.0.1").liked == false)
        #expect(throws: SocialError.articleNotFound) { try articles.like(ArticleID(999_999), by: fan.id) }
    }

    @Test func twentyConcurrentLikesAndCommentsFromTwentyUsersAreAllCounted() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let article = try fixture.socialPublish("并发", by: author)
        let users = try (0..<20).map { try fixture.socialMember(String(format: "139%08d", $0)).id }
        let articles = fixture.shop.articles
        let errors = socialConcurrently(20) { index in
            try articles.like(article.id, by: users[index])
            try articles.like(article.id, by: users[index])
            _ = try articles.comment(on: article.id, content: "第\(index)条", replyTo: nil, by: users[index])
        }
        #expect(errors.isEmpty)
        let stored = try #require(try fixture.socialStoredArticle(article.id))
        #expect(stored.likes == 20)
        #expect(stored.comments == 20)
        #expect(try fixture.socialCount("article_likes") == 20)
    }

    @Test func commentContentMustBe1To500CharactersAfterTrimming() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let reader = try fixture.socialMember("13800000002")
        let article = try fixture.socialPublish("评论长度", by: author)
        let articles = fixture.shop.articles
        for bad in ["", "   \n ", String(repeating: "花", count: 501)] {
            #expect(throws: ValidationError.self) { try articles.comment(on: article.id, content: bad, replyTo: nil, by: reader.id) }
            do {
                _ = try articles.comment(on: article.id, content: bad, replyTo: nil, by: reader.id)
            } catch let error as ValidationError {
                #expect(error.field == "content")
            }
        }
        #expect(try fixture.socialStoredArticle(article.id)?.comments == 0)
        let longest = String(repeating: "花", count: 500)
        #expect(try articles.comment(on: article.id, content: longest, replyTo: nil, by: reader.id).content == longest)
        #expect(try articles.comment(on: article.id, content: "  好看\n真好看  ", replyTo: nil, by: reader.id).content == "好看\n真好看")
        #expect(try fixture.socialStoredArticle(article.id)?.comments == 2)
    }

    @Test func replyToMustNameACommentOfTheSameArticle() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let reader = try fixture.socialMember("13800000002")
        let first = try fixture.socialPublish("第一篇", by: author)
        let second = try fixture.socialPublish("第二篇", by: author)
        let articles = fixture.shop.articles
        let parent = try articles.comment(on: first.id, content: "楼主好", replyTo: nil, by: reader.id)
        let elsewhere = try articles.comment(on: second.id, content: "另一篇", replyTo: nil, by: reader.id)

        let reply = try articles.comment(on: first.id, content: "谢谢", replyTo: parent.id, by: author.id)
        #expect(reply.replyTo == parent.id)
        #expect(throws: SocialError.invalidReplyTo) {
            try articles.comment(on: first.id, content: "跨文章回复", replyTo: elsewhere.id, by: reader.id)
        }
        #expect(throws: SocialError.invalidReplyTo) {
            try articles.comment(on: first.id, content: "回复不存在的评论", replyTo: CommentID(999_999), by: reader.id)
        }
        #expect(try articles.comments(on: first.id, page: PageRequest()).items.map(\.id) == [parent.id, reply.id])
        #expect(try fixture.socialStoredArticle(first.id)?.comments == 2)
        #expect(try fixture.socialCount("comments") == 3)
    }

    @Test func onlyTheWriterDeletesACommentAndTheCountFollows() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let writer = try fixture.socialMember("13800000002")
        let other = try fixture.socialMember("13800000003")
        let article = try fixture.socialPublish("删除评论", by: author)
        let articles = fixture.shop.articles
        let comment = try articles.comment(on: article.id, content: "我的评论", replyTo: nil, by: writer.id)

        #expect(throws: SocialError.forbidden(.deleteOthersComment)) {
            try articles.deleteComment(comment.id, by: other.id)
        }
        #expect(throws: SocialError.forbidden(.deleteOthersComment)) {
            try articles.deleteComment(comment.id, by: author.id)
        }
        #expect(try fixture.socialStoredArticle(article.id)?.comments == 1)
        try articles.deleteComment(comment.id, by: writer.id)
        #expect(try fixture.socialStoredArticle(article.id)?.comments == 0)
        #expect(throws: SocialError.commentNotFound) { try articles.deleteComment(comment.id, by: writer.id) }
        #expect(try fixture.socialStoredArticle(article.id)?.comments == 0)
    }

    @Test func commentsListOldestFirstInPages() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let reader = try fixture.socialMember("13800000002")
        let article = try fixture.socialPublish("评论分页", by: author)
        var written: [CommentID] = []
        for index in 1...5 {
            fixture.clock.advance(by: index % 2 == 0 ? 0 : 30)
            written.append(try fixture.shop.articles.comment(on: article.id, content: "评论\(index)", replyTo: nil, by: reader.id).id)
        }
        let page1 = try fixture.shop.articles.comments(on: article.id, page: PageRequest(page: 1, perPage: 2))
        let page2 = try fixture.shop.articles.comments(on: article.id, page: PageRequest(page: 2, perPage: 2))
        let page3 = try fixture.shop.articles.comments(on: article.id, page: PageRequest(page: 3, perPage: 2))
        #expect((page1.items + page2.items + page3.items).map(\.id) == written)
        #expect(page1.total == 5)
        #expect(page1.items.first?.content == "评论1")
        #expect(page1.items.first?.userID == reader.id)
    }
}
