import ShopCore
import ShopTestSupport
import Testing

@Suite("Article titles")
struct SocialTitleTests {
    @Test func anAuthorCannotHaveTwoArticlesWithOneTitle() throws {
        let shop = try TestShop()
        let author = try shop.socialAuthor("13700000001")
        let first = try shop.socialPublish("玫瑰的花语", by: author)
        #expect(throws: SocialError.titleTaken) { try shop.socialPublish("玫瑰的花语", by: author) }
        let second = try shop.socialPublish("百合的花语", by: author)
        #expect(throws: SocialError.titleTaken) {
            try shop.shop.articles.edit(second.id, ArticleDraft(title: "玫瑰的花语"), by: author.id)
        }
        #expect(try shop.socialCount("articles") == 2)
        #expect(first.title == "玫瑰的花语")
    }

    @Test func anotherAuthorMayUseTheSameTitle() throws {
        let shop = try TestShop()
        _ = try shop.socialPublish("玫瑰的花语", by: try shop.socialAuthor("13700000001"))
        _ = try shop.socialPublish("玫瑰的花语", by: try shop.socialAuthor("13700000002"))
        #expect(try shop.socialCount("articles") == 2)
    }
}
