import Foundation
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("Social: a view counts once per viewer and day")
struct SocialViewCountTests {
    @Test func aLoopOfAnonymousReadsFromOneAddressCountsOneView() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let article = try fixture.socialPublish("循环", by: author)

        for _ in 0..<300 { _ = try fixture.shop.articles.read(article.id, viewer: nil, clientIP: "203.0.113.7") }
        let seen = try fixture.shop.articles.read(article.id, viewer: nil, clientIP: "203.0.113.8")

        #expect(seen.views == 2)
        #expect(try fixture.socialStoredArticle(article.id)?.views == 2)
    }

    @Test func aSignedInReaderCountsOnceFromAnyAddressAndAgainTheNextDay() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let reader = try fixture.socialMember("13800000002")
        let article = try fixture.socialPublish("每日", by: author)

        for index in 0..<5 { _ = try fixture.shop.articles.read(article.id, viewer: reader.id, clientIP: "10.1.0.\(index)") }
        #expect(try fixture.socialStoredArticle(article.id)?.views == 1)

        fixture.clock.advance(by: 86_400)
        _ = try fixture.shop.articles.read(article.id, viewer: reader.id, clientIP: "10.1.0.0")
        #expect(try fixture.socialStoredArticle(article.id)?.views == 2)
    }

    @Test func aLoopedArticleDoesNotOutrankOneReadByMorePeople() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let looped = try fixture.socialPublish("刷量", by: author)
        let liked = try fixture.socialPublish("好文", by: author)
        for _ in 0..<300 { _ = try fixture.shop.articles.read(looped.id, viewer: nil, clientIP: "198.51.100.1") }
        for index in 0..<3 { _ = try fixture.shop.articles.read(liked.id, viewer: nil, clientIP: "10.2.0.\(index)") }

        #expect(try fixture.shop.articles.top(viewer: nil).prefix(2).map(\.id) == [liked.id, looped.id])
    }

    @Test func theSweeperDropsViewRecordsOlderThanYesterday() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let article = try fixture.socialPublish("清理", by: author)
        _ = try fixture.shop.articles.read(article.id, viewer: nil, clientIP: "10.3.0.1")

        fixture.clock.advance(by: 86_400)
        try fixture.shop.articles.purgeViewLog()
        #expect(try fixture.socialCount("article_views") == 1)
        fixture.clock.advance(by: 86_400)
        try fixture.shop.articles.purgeViewLog()
        #expect(try fixture.socialCount("article_views") == 0)
        #expect(try fixture.socialStoredArticle(article.id)?.views == 1, "the count itself stays")
    }
}
