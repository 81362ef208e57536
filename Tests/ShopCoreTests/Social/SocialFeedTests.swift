import Foundation
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("Social feed: followed authors, newest first, cursor pages stable under publishing")
struct SocialFeedTests {
    @Test func cursorPagesHoldEveryArticleOnceWhileNewOnesArePublishedBetweenRequests() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let unfollowed = try fixture.socialAuthor("13800000002")
        let reader = try fixture.socialMember("13800000003")
        let social = fixture.shop.social
        try social.follow(author.id, by: reader.id)
        var original: [ArticleID] = []
        for index in 1...25 {
            original.append(try fixture.socialPublish("旧文\(index)", by: author).id)
            try fixture.socialPublish("不关注的文章\(index)", by: unfollowed, advancing: 1)
        }

        let page1 = try social.feed(for: reader.id, cursor: nil, limit: 10)
        var fresh: [ArticleID] = []
        for index in 1...5 { fresh.append(try fixture.socialPublish("新文\(index)", by: author).id) }
        let cursor2: String = try #require(page1.nextCursor)
        let page2 = try social.feed(for: reader.id, cursor: cursor2, limit: 10)
        let cursor3: String = try #require(page2.nextCursor)
        let page3 = try social.feed(for: reader.id, cursor: cursor3, limit: 10)

        #expect([page1, page2, page3].map(\.items.count) == [10, 10, 5])
        #expect(page3.nextCursor == nil)
        let served = (page1.items + page2.items + page3.items).map(\.id)
        #expect(served == Array(original.reversed()))
        #expect(Set(served).count == 25)
        let times = (page1.items + page2.items + page3.items).map(\.publishedAt)
        #expect(times == times.sorted(by: >))

        let first = try social.feed(for: reader.id, cursor: nil, limit: 10)
        #expect(first.items.map(\.id) == Array(fresh.reversed()) + Array(original.reversed().prefix(5)))
        #expect(first.items.allSatisfy { $0.author.id == author.id && $0.liked == false })
    }

    @Test func articlesSharingOneSecondAreNeitherRepeatedNorSkippedAcrossPages() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let reader = try fixture.socialMember("13800000002")
        try fixture.shop.social.follow(author.id, by: reader.id)
        fixture.clock.advance(by: 60)
        var original: [ArticleID] = []
        for index in 1...10 { original.append(try fixture.socialPublish("同一秒\(index)", by: author, advancing: 0).id) }

        let page1 = try fixture.shop.social.feed(for: reader.id, cursor: nil, limit: 5)
        // published in the very same second as the cursor's article, with higher ids: newer, so not on later pages
        let sameSecond = try fixture.socialPublish("同一秒的新文", by: author, advancing: 0).id
        let cursor2: String = try #require(page1.nextCursor)
        let page2 = try fixture.shop.social.feed(for: reader.id, cursor: cursor2, limit: 5)

        #expect((page1.items + page2.items).map(\.id) == Array(original.reversed()))
        #expect(page2.nextCursor == nil, "a last page that is exactly full has no next page")
        #expect(try fixture.shop.social.feed(for: reader.id, cursor: nil, limit: 1).items.map(\.id) == [sameSecond])
    }

    @Test func onlyFollowedAuthorsAppearAndFutureArticlesWaitForTheirTime() throws {
        let fixture = try TestShop()
        let followed = try fixture.socialAuthor("13800000001")
        let other = try fixture.socialAuthor("13800000002")
        let reader = try fixture.socialMember("13800000003")
        try fixture.shop.social.follow(followed.id, by: reader.id)
        let mine = try fixture.socialPublish("关注的作者", by: followed)
        try fixture.socialPublish("没关注的作者", by: other)
        let inAnHour = socialRFC3339(fixture.clock.now.addingTimeInterval(3_600))
        let outcome = try fixture.socialImport([socialArticleLine(phone: followed.phone, title: "定时发布", publishedAt: inAnHour)])
        #expect(outcome.counts.created == 1)

        #expect(try fixture.shop.social.feed(for: reader.id, cursor: nil, limit: 20).items.map(\.id) == [mine.id])
        #expect(try fixture.socialProfile(followed.id).articlesCount == 1)
        #expect(try fixture.shop.articles.articles(by: followed.id, page: PageRequest(), viewer: nil).total == 1)

        fixture.clock.advance(by: 3_601)
        let later = try fixture.shop.social.feed(for: reader.id, cursor: nil, limit: 20).items
        #expect(later.map(\.title) == ["定时发布", "关注的作者"])
        #expect(try fixture.shop.social.feed(for: try fixture.socialMember("13800000004").id, cursor: nil, limit: 20).items.isEmpty)
    }

    @Test func aLimitOutside1To50OrAForeignCursorIsRefused() throws {
        let fixture = try TestShop()
        let reader = try fixture.socialMember("13800000001")
        let social = fixture.shop.social
        #expect(throws: ValidationError.self) { try social.feed(for: reader.id, cursor: nil, limit: 0) }
        #expect(throws: ValidationError.self) { try social.feed(for: reader.id, cursor: nil, limit: 51) }
        #expect(try social.feed(for: reader.id, cursor: nil, limit: 50).nextCursor == nil)
        for garbage in ["garbage", "not a cursor", "djE6eDp5", "%%%", String(repeating: "A", count: 200)] {
            #expect(throws: SocialError.invalidCursor) { try social.feed(for: reader.id, cursor: garbage, limit: 10) }
        }
        let valid = SocialService.encodeCursor(1_796_025_600, 7)
        let decoded = try SocialService.decodeCursor(valid)
        #expect(decoded.publishedAt == 1_796_025_600 && decoded.id == 7)
    }
}
