import Foundation
import HTTP
import SQL
import SQLite
@testable import ShopAPI
import ShopCore
import ShopTestSupport
import Testing

/// A user signed in over the API.
private struct SocialAPIUser {
    let id: UserID
    let phone: String
    let token: String
}

private let socialProfileKeys: Set<String> = ["id", "nickname", "avatar_url", "signature", "gender", "is_author",
                                              "followers_count", "following_count", "articles_count"]
private let socialArticleKeys: Set<String> = ["id", "title", "summary", "cover_url", "content", "category_id", "author", "views",
                                              "likes_count", "comments_count", "published_at"]

private extension TestAPI {
    func socialSend(_ method: String, _ path: String, query: [String: String] = [:], json: Any? = nil,
                    token: String? = nil) throws -> TestResponse {
        try send(method, "/api/v1" + path, query: query, json: json, token: token)
    }

    func socialUser(_ phone: String, nickname: String? = nil) throws -> SocialAPIUser {
        let session = try register(phone, nickname: nickname).decode(SessionResponse.self)
        return SocialAPIUser(id: session.user.id, phone: phone, token: session.token)
    }

    func socialAuthor(_ phone: String, nickname: String? = nil) throws -> SocialAPIUser {
        let user = try socialUser(phone, nickname: nickname)
        try shop.moderation.setAuthor(true, phone: phone, by: .commandLine(user: "test"))
        return user
    }

    /// Advances the clock a minute, then `POST /articles`; answers the new article.
    @discardableResult
    // Untyped on purpose: a request body (tests also send ill-typed, null and extra fields).
    func socialPublish(_ title: String, by author: SocialAPIUser, content: String = "<p>正文</p>",
                       extra: [String: Any] = [:], advancing seconds: TimeInterval = 60) throws -> ArticleResponse {
        try socialPublishAnswer(title, by: author, content: content, extra: extra, advancing: seconds).decode(ArticleResponse.self)
    }

    /// `socialPublish`'s 201 itself, for the tests of its keys.
    // Untyped on purpose: a request body (tests also send ill-typed, null and extra fields).
    func socialPublishAnswer(_ title: String, by author: SocialAPIUser, content: String = "<p>正文</p>",
                             extra: [String: Any] = [:], advancing seconds: TimeInterval = 60) throws -> TestResponse {
        clock.advance(by: seconds)
        var body: [String: Any] = ["title": title, "content": content]
        body.merge(extra) { _, new in new }
        let response = try socialSend("POST", "/articles", json: body, token: author.token)
        guard response.status == 201 else { throw FixtureError("publish answered \(response.status) \(response.text)") }
        return response
    }

    func socialArticleID(_ title: String, by author: SocialAPIUser, advancing seconds: TimeInterval = 60) throws -> ArticleID {
        try socialPublish(title, by: author, advancing: seconds).id
    }

    func socialProfile(_ id: UserID, token: String? = nil) throws -> PublicProfileResponse {
        try socialSend("GET", "/users/\(id)", token: token).decode(PublicProfileResponse.self)
    }

    func socialArticle(_ id: ArticleID, token: String? = nil) throws -> ArticleResponse {
        try socialSend("GET", "/articles/\(id)", token: token).decode(ArticleResponse.self)
    }

    /// Imports article lines (categories are created by the import only).
    func socialImportArticles(_ lines: [[String: String]]) throws {
        let text = try lines.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
            .joined(separator: "\n")
        let path = directory.appendingPathComponent("articles-\(UUID().uuidString).jsonl").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        _ = try shop.articleImporter.importFile(at: path, options: .init())
    }
}

/// The `items` of a page, a feed or a plain list (the decoder passes over `page`, `total` and `next_cursor`).
private func socialItems<Item: Codable>(_ response: TestResponse, _ type: Item.Type) throws -> [Item] {
    try response.decode(ItemsResponse<Item>.self).items
}

private func profileIDs(_ response: TestResponse) throws -> [UserID] {
    try socialItems(response, PublicProfileResponse.self).map(\.id)
}

private func articleIDs(_ response: TestResponse) throws -> [ArticleID] {
    try socialItems(response, ArticleResponse.self).map(\.id)
}

private func commentIDs(_ response: TestResponse) throws -> [CommentID] {
    try socialItems(response, CommentResponse.self).map(\.id)
}

private func total(_ response: TestResponse) throws -> Int {
    try response.decode(PageResponse<PublicProfileResponse>.self).total
}

@Suite("Social API: profiles, authors, follows, feed, articles, likes, comments, top 10")
struct SocialAPITests {
    // MARK: Follows and profiles

    @Test func followIsIdempotentAndTheCountsShowOnBothProfiles() throws {
        let app = try TestAPI()
        let author = try app.socialAuthor("13800000001")
        let reader = try app.socialUser("13800000002")
        for _ in 0..<2 {
            let followed = try app.socialSend("POST", "/authors/\(author.id)/follow", token: reader.token)
            #expect(followed.status == 204)
            #expect(followed.body.isEmpty)
        }
        #expect(try app.socialProfile(author.id).followersCount == 1)
        #expect(try app.socialProfile(reader.id).followingCount == 1)
        #expect(try profileIDs(try app.socialSend("GET", "/me/following", token: reader.token)) == [author.id])
        #expect(try profileIDs(try app.socialSend("GET", "/users/\(author.id)/followers")) == [reader.id])

        for _ in 0..<2 {
            #expect(try app.socialSend("DELETE", "/authors/\(author.id)/follow", token: reader.token).status == 204)
        }
        #expect(try app.socialProfile(author.id).followersCount == 0)
        #expect(try app.socialProfile(reader.id).followingCount == 0)
        #expect(try total(try app.socialSend("GET", "/me/following", token: reader.token)) == 0)
    }

    @Test func followingYourselfIs422CannotFollowSelf() throws {
        let app = try TestAPI()
        let author = try app.socialAuthor("13800000001")
        expectError(try app.socialSend("POST", "/authors/\(author.id)/follow", token: author.token), 422, "cannot_follow_self")
        #expect(try app.socialProfile(author.id).followersCount == 0)
    }

    @Test func followingANonAuthorOrAnUnknownIdIs404AndAnonymousIs401() throws {
        let app = try TestAPI()
        let plain = try app.socialUser("13800000001")
        let reader = try app.socialUser("13800000002")
        let author = try app.socialAuthor("13800000003")
        expectError(try app.socialSend("POST", "/authors/\(plain.id)/follow", token: reader.token), 404, "not_found")
        expectError(try app.socialSend("POST", "/authors/999999/follow", token: reader.token), 404, "not_found")
        expectError(try app.socialSend("POST", "/authors/\(author.id)/follow"), 401, "unauthorized")
        #expect(try app.socialProfile(reader.id).followingCount == 0)
    }

    @Test func aProfileHasExactlyThePublicKeysAndIsFollowingOnlyForASignedInCaller() throws {
        let app = try TestAPI()
        let author = try app.socialAuthor("13800000001", nickname: "花间小筑")
        let fan = try app.socialUser("13800000002")
        let stranger = try app.socialUser("13800000003")
        #expect(try app.socialSend("POST", "/authors/\(author.id)/follow", token: fan.token).status == 204)

        let anonymous = try app.socialSend("GET", "/users/\(author.id)")
        #expect(anonymous.status == 200)
        #expect(anonymous.keys == socialProfileKeys)
        let profile = try anonymous.decode(PublicProfileResponse.self)
        #expect(profile.id == author.id)
        #expect(profile.nickname == "花间小筑")
        #expect(profile.isAuthor == true)
        #expect(profile.gender == .unknown)
        #expect(!anonymous.text.contains("13800000001") && !anonymous.text.contains("phone"))

        let asFan = try app.socialSend("GET", "/users/\(author.id)", token: fan.token)
        #expect(asFan.keys == socialProfileKeys.union(["is_following"]))
        #expect(try asFan.decode(PublicProfileResponse.self).isFollowing == true)
        #expect(try app.socialProfile(author.id, token: stranger.token).isFollowing == false)
        #expect(try app.socialProfile(fan.id, token: fan.token).isAuthor == false)
        expectError(try app.socialSend("GET", "/users/999999"), 404, "not_found")
    }

    @Test func authorsSortByFollowersOrNewestAndRefuseABogusSort() throws {
        let app = try TestAPI()
        let quiet = try app.socialAuthor("13800000001")
        app.clock.advance(by: 60)
        let popular = try app.socialAuthor("13800000002")
        app.clock.advance(by: 60)
        let middling = try app.socialAuthor("13800000003")
        _ = try app.socialUser("13800000004")
        let fans = try (5...7).map { try app.socialUser("1380000000\($0)") }
        for fan in fans { _ = try app.socialSend("POST", "/authors/\(popular.id)/follow", token: fan.token) }
        _ = try app.socialSend("POST", "/authors/\(middling.id)/follow", token: fans[0].token)

        let byFollowers = try app.socialSend("GET", "/authors", query: ["sort": "followers"])
        #expect(byFollowers.status == 200)
        #expect(try profileIDs(byFollowers) == [popular.id, middling.id, quiet.id])
        #expect(try total(byFollowers) == 3)
        #expect(try socialItems(byFollowers, PublicProfileResponse.self).map(\.followersCount) == [3, 1, 0])
        #expect(byFollowers.itemKeys == Array(repeating: socialProfileKeys, count: 3))
        #expect(try profileIDs(try app.socialSend("GET", "/authors", query: ["sort": "newest"])) == [middling.id, popular.id, quiet.id])
        #expect(try profileIDs(try app.socialSend("GET", "/authors", query: ["per_page": "1", "page": "2"])) == [middling.id])
        let bogus = try app.socialSend("GET", "/authors", query: ["sort": "bogus"])
        expectError(bogus, 400, "validation_failed")
        #expect(bogus.error?.field == "sort")
    }

    // MARK: Feed

    @Test func theFeedPagesByCursorWithoutDuplicatesOrGapsWhileArticlesArePublished() throws {
        let app = try TestAPI()
        let author = try app.socialAuthor("13800000001")
        let unfollowed = try app.socialAuthor("13800000002")
        let reader = try app.socialUser("13800000003")
        #expect(try app.socialSend("POST", "/authors/\(author.id)/follow", token: reader.token).status == 204)
        var original: [ArticleID] = []
        for index in 1...25 {
            original.append(try app.socialArticleID("旧文\(index)", by: author))
            try app.socialPublish("不关注\(index)", by: unfollowed, advancing: 1)
        }

        let page1 = try app.socialSend("GET", "/feed", query: ["limit": "10"], token: reader.token)
        #expect(page1.status == 200)
        #expect(page1.keys == ["items", "next_cursor"])
        var fresh: [ArticleID] = []
        for index in 1...5 { fresh.append(try app.socialArticleID("新文\(index)", by: author)) }
        let feed1 = try page1.decode(FeedResponse.self)
        let cursor2 = try #require(feed1.nextCursor)
        let page2 = try app.socialSend("GET", "/feed", query: ["limit": "10", "cursor": cursor2], token: reader.token)
        let feed2 = try page2.decode(FeedResponse.self)
        let cursor3 = try #require(feed2.nextCursor)
        let page3 = try app.socialSend("GET", "/feed", query: ["limit": "10", "cursor": cursor3], token: reader.token)
        let feed3 = try page3.decode(FeedResponse.self)

        #expect([feed1, feed2, feed3].map(\.items.count) == [10, 10, 5])
        #expect(feed3.nextCursor == nil)
        #expect(page3.text.contains("\"next_cursor\":null"))
        let articles = feed1.items + feed2.items + feed3.items
        #expect(articles.map(\.id) == Array(original.reversed()))
        let times = articles.map(\.publishedAt)
        #expect(times.count == 25 && times == times.sorted(by: >))

        let first = try app.socialSend("GET", "/feed", query: ["limit": "10"], token: reader.token).decode(FeedResponse.self)
        #expect(first.items.map(\.id) == Array(fresh.reversed()) + Array(original.reversed().prefix(5)))
        #expect(first.items.allSatisfy { $0.author.id == author.id })
        #expect(first.items.allSatisfy { $0.liked == false })
    }

    @Test func theFeedRefusesAForeignCursorAndALimitOutside1To50() throws {
        let app = try TestAPI()
        let reader = try app.socialUser("13800000001")
        for garbage in ["garbage!", "bm90LWEtY3Vyc29y", "v1:1:2", "花"] {
            let response = try app.socialSend("GET", "/feed", query: ["cursor": garbage], token: reader.token)
            expectError(response, 400, "validation_failed")
            #expect(response.error?.field == "cursor")
        }
        for limit in ["0", "51", "-1", "ten"] {
            let response = try app.socialSend("GET", "/feed", query: ["limit": limit], token: reader.token)
            expectError(response, 400, "validation_failed")
            #expect(response.error?.field == "limit")
        }
        let empty = try app.socialSend("GET", "/feed", query: ["limit": "50"], token: reader.token)
        #expect(empty.status == 200)
        let emptyFeed = try empty.decode(FeedResponse.self)
        #expect(emptyFeed.items.isEmpty && emptyFeed.nextCursor == nil)
        expectError(try app.socialSend("GET", "/feed"), 401, "unauthorized")
    }

    @Test func articlesPublishedForTheFutureAreNotShownAnywhereYet() throws {
        let app = try TestAPI()
        let author = try app.socialAuthor("13800000001")
        let reader = try app.socialUser("13800000002")
        _ = try app.socialSend("POST", "/authors/\(author.id)/follow", token: reader.token)
        let now = try app.socialArticleID("现在", by: author)
        let tomorrow = app.clock.now.addingTimeInterval(86_400).formatted(.iso8601)
        try app.socialImportArticles([["author_phone": author.phone, "title": "明天", "content": "x", "category": "花艺课堂",
                                       "published_at": tomorrow]])
        let future = try #require(try app.shop.pool.read { db in try db.scalarInt("SELECT id FROM articles WHERE title = '明天'") })

        #expect(try articleIDs(try app.socialSend("GET", "/feed", token: reader.token)) == [now])
        #expect(try articleIDs(try app.socialSend("GET", "/articles")) == [now])
        #expect(try articleIDs(try app.socialSend("GET", "/authors/\(author.id)/articles")) == [now])
        #expect(try app.socialProfile(author.id).articlesCount == 1)
        expectError(try app.socialSend("GET", "/articles/\(future)"), 404, "not_found")
        #expect(try !articleIDs(try app.socialSend("GET", "/articles/top")).contains(ArticleID(future)))
        app.clock.advance(by: 86_401)
        #expect(try articleIDs(try app.socialSend("GET", "/feed", token: reader.token)) == [ArticleID(future), now])
    }

    // MARK: Likes

    @Test func likesAreIdempotentAndLikedIsTheCallersOwn() throws {
        let app = try TestAPI()
        let author = try app.socialAuthor("13800000001")
        let fan = try app.socialUser("13800000002")
        let other = try app.socialUser("13800000003")
        let id = try app.socialArticleID("点赞", by: author)
        for _ in 0..<2 { #expect(try app.socialSend("POST", "/articles/\(id)/like", token: fan.token).status == 204) }

        let asFan = try app.socialArticle(id, token: fan.token)
        #expect(asFan.likesCount == 1)
        #expect(asFan.liked == true)
        #expect(try app.socialArticle(id, token: other.token).liked == false)
        let anonymous = try app.socialSend("GET", "/articles/\(id)")
        #expect(!anonymous.keys.contains("liked"), "left out, not null, for an anonymous reader")
        #expect(try anonymous.decode(ArticleResponse.self).likesCount == 1)

        for _ in 0..<2 { #expect(try app.socialSend("DELETE", "/articles/\(id)/like", token: fan.token).status == 204) }
        let after = try app.socialArticle(id, token: fan.token)
        #expect(after.likesCount == 0)
        #expect(after.liked == false)
        expectError(try app.socialSend("POST", "/articles/999999/like", token: fan.token), 404, "not_found")
        expectError(try app.socialSend("POST", "/articles/\(id)/like"), 401, "unauthorized")
    }

    // MARK: Comments

    @Test func commentsNeed1To500CharactersAndAReplyToOnTheSameArticle() throws {
        let app = try TestAPI()
        let author = try app.socialAuthor("13800000001")
        let reader = try app.socialUser("13800000002")
        let first = try app.socialArticleID("第一篇", by: author)
        let second = try app.socialArticleID("第二篇", by: author)
        for bad in ["", String(repeating: "花", count: 501)] {
            let refused = try app.socialSend("POST", "/articles/\(first)/comments", json: ["content": bad], token: reader.token)
            expectError(refused, 400, "validation_failed")
            #expect(refused.error?.field == "content")
        }
        let longest = String(repeating: "花", count: 500)
        let created = try app.socialSend("POST", "/articles/\(first)/comments", json: ["content": longest], token: reader.token)
        #expect(created.status == 201)
        #expect(created.keys == ["id", "article_id", "user", "content", "reply_to", "created_at"])
        let comment = try created.decode(CommentResponse.self)
        #expect(comment.content == longest)
        #expect(comment.replyTo == nil)
        let parent = comment.id

        let reply = try app.socialSend("POST", "/articles/\(first)/comments", json: ["content": "谢谢", "reply_to": parent.rawValue],
                                       token: author.token)
        #expect(reply.status == 201)
        let replied = try reply.decode(CommentResponse.self)
        #expect(replied.replyTo == parent)

        let elsewhere = try app.socialSend("POST", "/articles/\(second)/comments", json: ["content": "另一篇"], token: reader.token)
        let foreign = try elsewhere.decode(CommentResponse.self).id
        let crossed = try app.socialSend("POST", "/articles/\(first)/comments", json: ["content": "跨文章", "reply_to": foreign.rawValue],
                                         token: reader.token)
        expectError(crossed, 422, "invalid_reply_to")
        let listed = try app.socialSend("GET", "/articles/\(first)/comments")
        #expect(try commentIDs(listed) == [parent, replied.id])
        #expect(try listed.decode(PageResponse<CommentResponse>.self).total == 2)
        #expect(try app.socialArticle(first).commentsCount == 2)
        #expect(try app.socialArticle(second).commentsCount == 1)
        expectError(try app.socialSend("POST", "/articles/\(first)/comments", json: ["content": "匿名"]), 401, "unauthorized")
    }

    @Test func onlyItsWriterDeletesACommentAndTheListIsOldestFirstInPages() throws {
        let app = try TestAPI()
        let author = try app.socialAuthor("13800000001")
        let writer = try app.socialUser("13800000002")
        let other = try app.socialUser("13800000003")
        let article = try app.socialArticleID("评论", by: author)
        var written: [CommentID] = []
        for index in 1...5 {
            app.clock.advance(by: 10)
            let made = try app.socialSend("POST", "/articles/\(article)/comments", json: ["content": "评论\(index)"], token: writer.token)
            written.append(try made.decode(CommentResponse.self).id)
        }
        let pages = try (1...3).map {
            try app.socialSend("GET", "/articles/\(article)/comments", query: ["page": "\($0)", "per_page": "2"])
        }
        #expect(try pages.flatMap(commentIDs) == written)
        let firstComment = try socialItems(pages[0], CommentResponse.self).first
        #expect(firstComment?.content == "评论1")
        #expect(firstComment?.user.id == writer.id)

        expectError(try app.socialSend("DELETE", "/comments/\(written[0])", token: other.token), 403, "forbidden")
        expectError(try app.socialSend("DELETE", "/comments/\(written[0])", token: author.token), 403, "forbidden")
        #expect(try app.socialArticle(article).commentsCount == 5)
        #expect(try app.socialSend("DELETE", "/comments/\(written[0])", token: writer.token).status == 204)
        #expect(try app.socialArticle(article).commentsCount == 4)
        #expect(try commentIDs(try app.socialSend("GET", "/articles/\(article)/comments")) == Array(written.dropFirst()))
        expectError(try app.socialSend("DELETE", "/comments/\(written[0])", token: writer.token), 404, "not_found")
    }

    // MARK: Top 10

    @Test func theTopTenOrdersByViewsPlus3LikesPlus5CommentsOfTheLastSevenDays() throws {
        let app = try TestAPI()
        let author = try app.socialAuthor("13800000001")
        let users = try (1...3).map { try app.socialUser("1390000000\($0)") }
        // oldest first: d, e, c, b, a, then seven fillers, the newest of all
        let d = try app.socialArticleID("D", by: author)
        let e = try app.socialArticleID("E", by: author)
        let c = try app.socialArticleID("C", by: author)
        let b = try app.socialArticleID("B", by: author)
        let a = try app.socialArticleID("A", by: author)
        let fillers = try (1...7).map { try app.socialArticleID("F\($0)", by: author) }

        func view(_ id: ArticleID, _ times: Int) throws {
            for index in 0..<times { #expect(try app.send("GET", "/api/v1/articles/\(id)", from: "10.0.0.\(index)").status == 200) }
        }
        func like(_ id: ArticleID, _ user: SocialAPIUser) throws {
            #expect(try app.socialSend("POST", "/articles/\(id)/like", token: user.token).status == 204)
        }
        func comment(_ id: ArticleID, _ user: SocialAPIUser) throws {
            #expect(try app.socialSend("POST", "/articles/\(id)/comments", json: ["content": "好"], token: user.token).status == 201)
        }
        try view(a, 4)                                             // 4
        try view(b, 2); try like(b, users[0])                      // 2 + 3 = 5
        try view(c, 1); try comment(c, users[0])                   // 1 + 5 = 6
        try like(d, users[0]); try like(d, users[1]); try comment(d, users[2])   // 6 + 5 = 11
        try view(e, 10)                                            // 10

        let top = try app.socialSend("GET", "/articles/top")
        #expect(top.status == 200)
        #expect(top.keys == ["items"])
        let ranked = try socialItems(top, ArticleResponse.self)
        #expect(ranked.map(\.id) == [d, e, c, b, a] + Array(fillers.reversed().prefix(5)))
        #expect(ranked.map(\.views) == [0, 10, 1, 2, 4, 0, 0, 0, 0, 0], "each read counts a view")
        #expect(ranked.map(\.likesCount) == [2, 0, 0, 1, 0, 0, 0, 0, 0, 0])
        #expect(ranked.map(\.commentsCount) == [1, 0, 1, 0, 0, 0, 0, 0, 0, 0])

        app.clock.advance(by: 8 * 86_400)
        try view(b, 1)
        let later = try app.socialSend("GET", "/articles/top")
        #expect(try articleIDs(later) == [b] + Array(fillers.reversed()) + [a, c])
    }

    @Test func threeHundredAnonymousReadsFromOneAddressCountOneView() throws {
        let app = try TestAPI()
        let author = try app.socialAuthor("13800000001")
        let id = try app.socialArticleID("循环", by: author)
        for _ in 0..<300 { _ = try app.send("GET", "/api/v1/articles/\(id)", from: "203.0.113.7") }

        let read = try app.send("GET", "/api/v1/articles/\(id)", from: "203.0.113.7")
        #expect(try read.decode(ArticleResponse.self).views == 1)
        let top = try app.socialSend("GET", "/articles/top")
        #expect(try socialItems(top, ArticleResponse.self).first?.views == 1)
    }

    // MARK: Authorship

    @Test func aNonAuthorCannotPublish() throws {
        let app = try TestAPI()
        let plain = try app.socialUser("13800000001")
        let refused = try app.socialSend("POST", "/articles", json: ["title": "越权", "content": "x"], token: plain.token)
        expectError(refused, 403, "not_an_author")
        expectError(try app.socialSend("POST", "/articles", json: ["title": "匿名", "content": "x"]), 401, "unauthorized")
        #expect(try app.socialSend("GET", "/articles").decode(PageResponse<ArticleResponse>.self).total == 0)
    }

    @Test func aRevokedAuthorCannotEditOrPublishButMayDeleteTheirArticle() throws {
        let app = try TestAPI()
        let author = try app.socialAuthor("13800000001")
        let id = try app.socialArticleID("原标题", by: author)
        try app.shop.moderation.setAuthor(false, phone: author.phone, by: .commandLine(user: "test"))

        expectError(try app.socialSend("PATCH", "/articles/\(id)", json: ["title": "撤销后改"], token: author.token),
                    403, "not_an_author")
        expectError(try app.socialSend("POST", "/articles", json: ["title": "撤销后发", "content": "x"], token: author.token),
                    403, "not_an_author")
        #expect(try app.socialArticle(id).title == "原标题")
        #expect(try app.socialSend("DELETE", "/articles/\(id)", token: author.token).status == 204)
    }

    @Test func onlyItsAuthorEditsOrDeletesAnArticleAndAnEditChangesOnlyTheGivenFields() throws {
        let app = try TestAPI()
        let author = try app.socialAuthor("13800000001")
        let rival = try app.socialAuthor("13800000002")
        let reader = try app.socialUser("13800000003")
        let original = try app.socialPublish("原标题", by: author, content: "原文",
                                             extra: ["summary": "原摘要", "cover_url": "https://img.example.com/c.jpg"])
        let id = original.id

        for intruder in [rival, reader] {
            expectError(try app.socialSend("PATCH", "/articles/\(id)", json: ["title": "篡改"], token: intruder.token), 403, "forbidden")
            expectError(try app.socialSend("DELETE", "/articles/\(id)", token: intruder.token), 403, "forbidden")
        }
        #expect(try app.socialArticle(id).title == "原标题")

        app.clock.advance(by: 60)
        let edited = try app.socialSend("PATCH", "/articles/\(id)", json: ["summary": "新摘要"], token: author.token)
        #expect(edited.status == 200)
        let changed = try edited.decode(ArticleResponse.self)
        #expect(changed.summary == "新摘要")
        #expect(changed.title == original.title)
        #expect(changed.content == original.content)
        #expect(changed.coverURL == original.coverURL)
        #expect(changed.publishedAt == original.publishedAt)

        #expect(try app.socialSend("DELETE", "/articles/\(id)", token: author.token).status == 204)
        expectError(try app.socialSend("GET", "/articles/\(id)"), 404, "not_found")
        expectError(try app.socialSend("PATCH", "/articles/\(id)", json: ["title": "再改"], token: author.token), 404, "not_found")
        expectError(try app.socialSend("DELETE", "/articles/\(id)", token: author.token), 404, "not_found")
    }

    @Test func contentWithAScriptIsStoredAndReturnedByteForByte() throws {
        let app = try TestAPI()
        let author = try app.socialAuthor("13800000001")
        let content = "<script>alert(\"花\")</script>\r\n<p onclick='steal()'>e\u{301} &amp; 🌸 \\ / </p>\t\n  "
        let created = try app.socialPublish("脚本", by: author, content: content)
        let id = created.id
        #expect(Array(created.content.utf8) == Array(content.utf8))

        #expect(Array(try app.socialArticle(id).content.utf8) == Array(content.utf8))
        let stored = try app.shop.pool.read { db in
            try db.queryOne("SELECT content FROM articles WHERE id = \(id)")?.string("content")
        }
        #expect(Array((stored ?? "").utf8) == Array(content.utf8))
    }

    // MARK: Listings and shapes

    @Test func anUnknownCategoryInAnArticleBodyIsAConflictNamingTheFieldNotAMissingArticle() throws {
        let app = try TestAPI()
        let author = try app.socialAuthor("13800009999")
        let unknown = try app.socialSend("POST", "/articles", json: ["title": "未知分类", "content": "<p>正文</p>", "category_id": 999999],
                                         token: author.token)
        expectError(unknown, 409, "unknown_category")
        #expect(unknown.error?.field == "category_id")
        let article = try app.socialArticleID("有分类的文章", by: author)
        let edited = try app.socialSend("PATCH", "/articles/\(article)", json: ["category_id": 999999], token: author.token)
        expectError(edited, 409, "unknown_category")
        #expect(edited.error?.field == "category_id")
    }

    @Test func categoriesListAndTheCategoryFilterAndAuthorArticlesNewestFirst() throws {
        let app = try TestAPI()
        let author = try app.socialAuthor("13800000001")
        let plain = try app.socialUser("13800000002")
        try app.socialImportArticles([
            ["author_phone": author.phone, "title": "插花", "content": "x", "category": "花艺课堂", "published_at": "2026-11-01T08:00:00Z"],
            ["author_phone": author.phone, "title": "多肉", "content": "x", "category": "多肉植物", "published_at": "2026-11-02T08:00:00Z"],
            ["author_phone": author.phone, "title": "花束", "content": "x", "category": "花艺课堂", "published_at": "2026-11-03T08:00:00Z"],
        ])
        let categories = try app.socialSend("GET", "/article-categories")
        #expect(categories.status == 200)
        #expect(categories.keys == ["items"])
        let items = try socialItems(categories, ArticleCategoryResponse.self)
        #expect(items.map(\.name) == ["花艺课堂", "多肉植物"])
        #expect(categories.itemKeys == [["id", "name"], ["id", "name"]])
        let floristry = try #require(items.first?.id)

        let filtered = try app.socialSend("GET", "/articles", query: ["category_id": "\(floristry)"])
        let inFloristry = try filtered.decode(PageResponse<ArticleResponse>.self)
        #expect(inFloristry.items.map(\.title) == ["花束", "插花"])
        #expect(inFloristry.items.allSatisfy { $0.categoryID == floristry })
        #expect(inFloristry.total == 2)
        #expect(try app.socialSend("GET", "/articles").decode(PageResponse<ArticleResponse>.self).total == 3)
        expectError(try app.socialSend("GET", "/articles", query: ["category_id": "999999"]), 404, "not_found")

        let byAuthor = try app.socialSend("GET", "/authors/\(author.id)/articles")
        #expect(try socialItems(byAuthor, ArticleResponse.self).map(\.title) == ["花束", "多肉", "插花"])
        expectError(try app.socialSend("GET", "/authors/\(plain.id)/articles"), 404, "not_found")
    }

    @Test func articleJSONHasExactlyTheContractKeysAndLikedAndIsFavoriteOnlyWhenSignedIn() throws {
        let app = try TestAPI()
        let author = try app.socialAuthor("13800000001")
        let reader = try app.socialUser("13800000002")
        try app.socialImportArticles([["author_phone": author.phone, "title": "导入", "content": "x", "category": "花艺课堂",
                                       "published_at": "2026-11-01T08:00:00Z"]])
        let categories = try socialItems(try app.socialSend("GET", "/article-categories"), ArticleCategoryResponse.self)
        let category = try #require(categories.first?.id)
        let created = try app.socialPublishAnswer("完整", by: author, extra: ["category_id": category.rawValue, "summary": "摘要"])
        #expect(created.keys == socialArticleKeys.union(["liked", "is_favorite"]))
        let id = try created.decode(ArticleResponse.self).id

        let anonymous = try app.socialSend("GET", "/articles/\(id)")
        #expect(anonymous.keys == socialArticleKeys)
        let article = try anonymous.decode(ArticleResponse.self)
        #expect(article.categoryID == category)
        #expect(article.publishedAt == rfc3339("2026-11-30T08:01:00Z"))
        #expect(anonymous.text.contains("\"published_at\":\"2026-11-30T08:01:00Z\""))
        #expect(anonymous.keys(of: "author") == socialProfileKeys)
        #expect(article.author.id == author.id)
        #expect(article.author.articlesCount == 2)

        let signedIn = try app.socialSend("GET", "/articles/\(id)", token: reader.token)
        #expect(signedIn.keys == socialArticleKeys.union(["liked", "is_favorite"]))
        #expect(signedIn.keys(of: "author") == socialProfileKeys.union(["is_following"]))
        for listing in [try app.socialSend("GET", "/articles"), try app.socialSend("GET", "/authors/\(author.id)/articles"),
                        try app.socialSend("GET", "/articles/top")] {
            #expect(listing.itemKeys.allSatisfy { $0 == socialArticleKeys })
        }
        let uncategorised = try app.socialPublishAnswer("无分类", by: author)
        #expect(uncategorised.keys == socialArticleKeys.union(["liked", "is_favorite"]))
        #expect(try uncategorised.decode(ArticleResponse.self).categoryID == nil, "null, the key being there (checked above)")
    }
}
