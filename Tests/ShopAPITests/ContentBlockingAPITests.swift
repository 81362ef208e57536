import Foundation
@testable import ShopAPI
import ShopTestSupport
import Testing

@Suite("Comments and articles with a blocked word are refused: 422 content_blocked")
struct ContentBlockingAPITests {
    /// An author and their published article, over the API.
    private func authorWithArticle(_ app: TestAPI) throws -> (token: String, article: Int) {
        let token = try app.token(for: "13800000001")
        try app.shop.moderation.setAuthor(true, phone: "13800000001", by: .commandLine(user: "test"))
        let published = try app.send("POST", "/api/v1/articles", json: ["title": "春日花束", "content": "<p>正文</p>"], token: token)
        return (token, Int(try published.decode(ArticleResponse.self).id.rawValue))
    }

    @Test func aCommentWithABlockedWordIsRefusedAndNotStored() throws {
        let app = try TestAPI()
        let (_, article) = try authorWithArticle(app)
        let reader = try app.token(for: "13800000002")
        for spam in ["加微信买花便宜", "加 微 信 买花", "加\u{200B}微信", "联系ＱＱ 12345"] {
            let refused = try app.send("POST", "/api/v1/articles/\(article)/comments", json: ["content": spam], token: reader)
            expectError(refused, 422, "content_blocked")
            #expect(refused.error?.field == "content", "\(spam)")
        }
        #expect(try app.send("GET", "/api/v1/articles/\(article)/comments").decode(PageResponse<CommentResponse>.self).total == 0)
        let fine = try app.send("POST", "/api/v1/articles/\(article)/comments", json: ["content": "花很新鲜"], token: reader)
        #expect(fine.status == 201)
    }

    @Test func anArticleWithABlockedWordInItsTitleOrBodyIsRefusedOnPublishAndEdit() throws {
        let app = try TestAPI { $0.search.blockedWords = ["加微信", "daigou"] }
        let (token, article) = try authorWithArticle(app)
        let published = try app.send("POST", "/api/v1/articles", json: ["title": "DaiGou 特价", "content": "<p>正文</p>"], token: token)
        expectError(published, 422, "content_blocked")
        #expect(published.error?.field == "title")
        let body = try app.send("POST", "/api/v1/articles", json: ["title": "新品", "content": "<p>加微信：flower</p>"], token: token)
        #expect(body.error?.field == "content" && body.status == 422)
        let edited = try app.send("PATCH", "/api/v1/articles/\(article)", json: ["content": "<p>ＤＡＩＧＯＵ</p>"], token: token)
        expectError(edited, 422, "content_blocked")
        #expect(try app.send("GET", "/api/v1/articles/\(article)").decode(ArticleResponse.self).content == "<p>正文</p>")
        let english = try app.send("POST", "/api/v1/articles/\(article)/comments", json: ["content": "加微信"], token: token,
                                   headers: [("Accept-Language", "en")])
        #expect(english.error?.message.contains("may not be posted") == true)
    }
}
