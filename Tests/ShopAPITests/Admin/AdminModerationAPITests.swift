import Foundation
import HTTP
@testable import ShopAPI
import ShopCore
import ShopTestSupport
import Testing

/// Moderation at the operators' desk: comments, articles and column authors.
@Suite("Admin: moderation")
struct AdminModerationAPITests {
    struct Member {
        let id: Int
        let token: String
    }

    func member(_ app: TestAPI, _ phone: String, nickname: String? = nil) throws -> Member {
        let session = try app.register(phone, nickname: nickname).decode(SessionResponse.self)
        return Member(id: Int(session.user.id.rawValue), token: session.token)
    }

    func publish(_ app: TestAPI, _ title: String, by author: Member) throws -> Int {
        app.clock.advance(by: 60)
        let response = try app.send("POST", "/api/v1/articles", json: ["title": title, "content": "<p>正文</p>"], token: author.token)
        #expect(response.status == 201, "\(response.text)")
        return Int(try response.decode(ArticleResponse.self).id.rawValue)
    }

    func comment(_ app: TestAPI, on article: Int, _ text: String, by writer: Member) throws -> Int {
        let response = try app.send("POST", "/api/v1/articles/\(article)/comments", json: ["content": text], token: writer.token)
        #expect(response.status == 201, "\(response.text)")
        return Int(try response.decode(CommentResponse.self).id.rawValue)
    }

    /// A service account grants the role, finds the spam, deletes it and hides the article.
    @Test func serviceStaffGrantAnAuthorDeleteASpamCommentAndHideAnArticle() throws {
        let app = try TestAPI()
        let author = try member(app, "13800000001", nickname: "花艺师")
        let spammer = try member(app, "13800000002", nickname: "SpamKing")
        let staff = try app.staffToken(.service)

        let granted = try app.send("POST", "/api/v1/admin/authors/\(author.id)", token: staff)
        #expect(granted.status == 200, "\(granted.text)")
        let grant = try granted.decode(AuthorRoleResponse.self)
        #expect(grant.isAuthor == true && grant.userID.rawValue == Int64(author.id))
        let article = try publish(app, "玫瑰养护", by: author)
        let spam = try comment(app, on: article, "点我链接买便宜花", by: spammer)
        _ = try comment(app, on: article, "写得好", by: author)

        let found = try app.send("GET", "/api/v1/admin/comments", query: ["q": "spamking"], token: staff)
        #expect(found.status == 200)
        let foundPage = try found.decode(PageResponse<AdminCommentResponse>.self)
        #expect(foundPage.total == 1)
        let item = try #require(foundPage.items.first)
        #expect(item.id.rawValue == Int64(spam) && item.content == "点我链接买便宜花")
        #expect(item.article.title == "玫瑰养护")
        #expect(item.article.hidden == false)
        #expect(item.author.nickname == "SpamKing")
        // Untyped on purpose: `reply_to` is written even when null (a top-level comment).
        #expect(found.itemKeys.first?.contains("reply_to") == true)

        #expect(try app.send("DELETE", "/api/v1/admin/comments/\(spam)", token: staff).status == 204)
        #expect(try app.send("DELETE", "/api/v1/admin/comments/\(spam)", token: staff).status == 404)
        let read = try app.send("GET", "/api/v1/articles/\(article)")
        #expect(try read.decode(ArticleResponse.self).commentsCount == 1)
        let listed = try app.send("GET", "/api/v1/articles/\(article)/comments")
        #expect(try listed.decode(PageResponse<CommentResponse>.self).items.map(\.content) == ["写得好"])

        #expect(try app.send("DELETE", "/api/v1/admin/articles/\(article)", token: staff).status == 204)
        #expect(try app.send("DELETE", "/api/v1/admin/articles/\(article)", token: staff).status == 204, "hiding twice is harmless")
        #expect(try app.send("GET", "/api/v1/articles/\(article)").status == 404)
        #expect(try app.send("GET", "/api/v1/articles").decode(PageResponse<ArticleResponse>.self).items.isEmpty)
        #expect(try app.send("GET", "/api/v1/articles/top").decode(ItemsResponse<ArticleResponse>.self).items.isEmpty)
        #expect(try app.send("GET", "/share/articles/\(article)").status == 404)
        let kept = try app.shop.pool.read { db in try db.scalarInt("SELECT COUNT(*) FROM articles WHERE id = \(Int64(article))") }
        #expect(kept == 1, "a hidden article stays in the database")
        let moderated = try app.send("GET", "/api/v1/admin/comments", token: staff)
        #expect(try moderated.decode(PageResponse<AdminCommentResponse>.self).items.first?.article.hidden == true)

        let revoked = try app.send("DELETE", "/api/v1/admin/authors/\(author.id)", token: staff)
        #expect(revoked.status == 200, "\(revoked.text)")
        #expect(try revoked.decode(AuthorRoleResponse.self).isAuthor == false)
        let refused = try app.send("POST", "/api/v1/articles", json: ["title": "再发", "content": "x"], token: author.token)
        #expect(refused.status == 403 && refused.errorCode == "not_an_author")

        let actions = try app.shop.audit.entries(AuditFilter(staff: "service"), page: PageRequest(perPage: 50)).items.map(\.action)
        #expect(actions == ["author.revoke", "article.hide", "article.hide", "comment.delete", "author.grant"])
    }

    @Test func unknownTargetsAnswer404AndAFloristMayNotModerate() throws {
        let app = try TestAPI()
        let staff = try app.staffToken(.manager)
        for (method, path) in [("DELETE", "/api/v1/admin/comments/999"), ("DELETE", "/api/v1/admin/articles/999"),
                               ("POST", "/api/v1/admin/authors/999"), ("DELETE", "/api/v1/admin/authors/999")] {
            let response = try app.send(method, path, token: staff)
            #expect(response.status == 404 && response.errorCode == "not_found", "\(method) \(path): \(response.text)")
        }
        let long = try app.send("GET", "/api/v1/admin/comments", query: ["q": String(repeating: "字", count: 41)], token: staff)
        #expect(long.status == 400 && long.error?.field == "q")
        let florist = try app.staffToken(.florist)
        #expect(try app.send("GET", "/api/v1/admin/comments", token: florist).status == 403)
        #expect(try app.shop.audit.entries(AuditFilter(), page: PageRequest()).items.filter { !$0.action.hasPrefix("staff.") }.isEmpty)
    }
}
