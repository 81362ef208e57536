import Foundation
import HTTP
import SQL
import SQLite
import ShopCore
import ShopTestSupport
import Testing

/// A user signed in over the API.
private struct SocialAPIUser {
    let id: Int
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
        let json = try register(phone, nickname: nickname)
        guard let token = json["token"] as? String, let id = (json["user"] as? [String: Any])?["id"] as? Int else {
            throw FixtureError("register answered \(json)")
        }
        return SocialAPIUser(id: id, phone: phone, token: token)
    }

    func socialAuthor(_ phone: String, nickname: String? = nil) throws -> SocialAPIUser {
        let user = try socialUser(phone, nickname: nickname)
        try shop.moderation.setAuthor(true, phone: phone, by: .commandLine(user: "test"))
        return user
    }

    /// Advances the clock a minute, then `POST /articles`; answers the new article's JSON.
    @discardableResult
    func socialPublish(_ title: String, by author: SocialAPIUser, content: String = "<p>正文</p>",
                       extra: [String: Any] = [:], advancing seconds: TimeInterval = 60) throws -> [String: Any] {
        clock.advance(by: seconds)
        var body: [String: Any] = ["title": title, "content": content]
        body.merge(extra) { _, new in new }
        let response = try socialSend("POST", "/articles", json: body, token: author.token)
        guard response.status == 201 else { throw FixtureError("publish answered \(response.status) \(response.text)") }
        return response.json
    }

    func socialArticleID(_ title: String, by author: SocialAPIUser, advancing seconds: TimeInterval = 60) throws -> Int {
        guard let id = try socialPublish(title, by: author, advancing: seconds)["id"] as? Int else { throw FixtureError("no id") }
        return id
    }

    /// Imports article lines (categories are created by the import only).
    func socialImportArticles(_ lines: [[String: String]]) throws {
        let text = try lines.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
            .joined(separator: "\n")
        let path = directory.appendingPathComponent("articles-\(UUID().uuidString).jsonl").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        _ = try shop.articleImporter.importFile(at: path, options: .init())
    }
}

private func socialItems(_ response: TestResponse) -> [[String: Any]] {
    response.json["items"] as? [[String: Any]] ?? []
}

private func socialIDs(_ response: TestResponse) -> [Int] {
    socialItems(response).compactMap { $0["id"] as? Int }
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
        #expect(try app.socialSend("GET", "/users/\(author.id)").json["followers_count"] as? Int == 1)
        #expect(try app.socialSend("GET", "/users/\(reader.id)").json["following_count"] as? Int == 1)
        #expect(socialIDs(try app.socialSend("GET", "/me/following", token: reader.token)) == [author.id])
        #expect(socialIDs(try app.socialSend("GET", "/users/\(author.id)/followers")) == [reader.id])

        for _ in 0..<2 {
            #expect(try app.socialSend("DELETE", "/authors/\(author.id)/follow", token: reader.token).status == 204)
        }
        #expect(try app.socialSend("GET", "/users/\(author.id)").json["followers_count"] as? Int == 0)
        #expect(try app.socialSend("GET", "/users/\(reader.id)").json["following_count"] as? Int == 0)
        #expect(try app.socialSend("GET", "/me/following", token: reader.token).json["total"] as? Int == 0)
    }

    @Test func followingYourselfIs422CannotFollowSelf() throws {
        let app = try TestAPI()
        let author = try app.socialAuthor("13800000001")
        expectError(try app.socialSend("POST", "/authors/\(author.id)/follow", token: author.token), 422, "cannot_follow_self")
        #expect(try app.socialSend("GET", "/users/\(author.id)").json["followers_count"] as? Int == 0)
    }

    @Test func followingANonAuthorOrAnUnknownIdIs404AndAnonymousIs401() throws {
        let app = try TestAPI()
        let plain = try app.socialUser("13800000001")
        let reader = try app.socialUser("13800000002")
        let author = try app.socialAuthor("13800000003")
        expectError(try app.socialSend("POST", "/authors/\(plain.id)/follow", token: reader.token), 404, "not_found")
        expectError(try app.socialSend("POST", "/authors/999999/follow", token: reader.token), 404, "not_found")
        expectError(try app.socialSend("POST", "/authors/\(author.id)/follow"), 401, "unauthorized")
        #expect(try app.socialSend("GET", "/users/\(reader.id)").json["following_count"] as? Int == 0)
    }

    @Test func aProfileHasExactlyThePublicKeysAndIsFollowingOnlyForASignedInCaller() throws {
        let app = try TestAPI()
        let author = try app.socialAuthor("13800000001", nickname: "花间小筑")
        let fan = try app.socialUser("13800000002")
        let stranger = try app.socialUser("13800000003")
        #expect(try app.socialSend("POST", "/authors/\(author.id)/follow", token: fan.token).status == 204)

        let anonymous = try app.socialSend("GET", "/users/\(author.id)")
        #expect(anonymous.status == 200)
        #expect(Set(anonymous.json.keys) == socialProfileKeys)
        #expect(anonymous.json["id"] as? Int == author.id)
        #expect(anonymous.json["nickname"] as? String == "花间小筑")
        #expect(anonymous.json["is_author"] as? Bool == true)
        #expect(anonymous.json["gender"] as? String == "unknown")
        #expect(!anonymous.text.contains("13800000001") && !anonymous.text.contains("phone"))

        let asFan = try app.socialSend("GET", "/users/\(author.id)", token: fan.token)
        #expect(Set(asFan.json.keys) == socialProfileKeys.union(["is_following"]))
        #expect(asFan.json["is_following"] as? Bool == true)
        #expect(try app.socialSend("GET", "/users/\(author.id)", token: stranger.token).json["is_following"] as? Bool == false)
        #expect(try app.socialSend("GET", "/users/\(fan.id)", token: fan.token).json["is_author"] as? Bool == false)
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
        #expect(socialIDs(byFollowers) == [popular.id, middling.id, quiet.id])
        #expect(byFollowers.json["total"] as? Int == 3)
        #expect(socialItems(byFollowers).map { $0["followers_count"] as? Int } == [3, 1, 0])
        #expect(socialItems(byFollowers).allSatisfy { Set($0.keys) == socialProfileKeys })
        #expect(socialIDs(try app.socialSend("GET", "/authors", query: ["sort": "newest"])) == [middling.id, popular.id, quiet.id])
        #expect(socialIDs(try app.socialSend("GET", "/authors", query: ["per_page": "1", "page": "2"])) == [middling.id])
        let bogus = try app.socialSend("GET", "/authors", query: ["sort": "bogus"])
        expectError(bogus, 400, "validation_failed")
        #expect(bogus.error["field"] as? String == "sort")
    }

    // MARK: Feed

    @Test func theFeedPagesByCursorWithoutDuplicatesOrGapsWhileArticlesArePublished() throws {
        let app = try TestAPI()
        let author = try app.socialAuthor("13800000001")
        let unfollowed = try app.socialAuthor("13800000002")
        let reader = try app.socialUser("13800000003")
        #expect(try app.socialSend("POST", "/authors/\(author.id)/follow", token: reader.token).status == 204)
        var original: [Int] = []
        for index in 1...25 {
            original.append(try app.socialArticleID("旧文\(index)", by: author))
            try app.socialPublish("不关注\(index)", by: unfollowed, advancing: 1)
        }

        let page1 = try app.socialSend("GET", "/feed", query: ["limit": "10"], token: reader.token)
        #expect(page1.status == 200)
        #expect(Set(page1.json.keys) == ["items", "next_cursor"])
        var fresh: [Int] = []
        for index in 1...5 { fresh.append(try app.socialArticleID("新文\(index)", by: author)) }
        let cursor2 = try #require(page1.json["next_cursor"] as? String)
        let page2 = try app.socialSend("GET", "/feed", query: ["limit": "10", "cursor": cursor2], token: reader.token)
        let cursor3 = try #require(page2.json["next_cursor"] as? String)
        let page3 = try app.socialSend("GET", "/feed", query: ["limit": "10", "cursor": cursor3], token: reader.token)

        #expect([page1, page2, page3].map { socialItems($0).count } == [10, 10, 5])
        #expect(page3.json["next_cursor"] is NSNull)
        #expect(page3.text.contains("\"next_cursor\":null"))
        #expect(socialIDs(page1) + socialIDs(page2) + socialIDs(page3) == Array(original.reversed()))
        let times = (socialItems(page1) + socialItems(page2) + socialItems(page3)).compactMap { $0["published_at"] as? String }
        #expect(times.count == 25 && times == times.sorted(by: >))

        let first = try app.socialSend("GET", "/feed", query: ["limit": "10"], token: reader.token)
        #expect(socialIDs(first) == Array(fresh.reversed()) + Array(original.reversed().prefix(5)))
        #expect(socialItems(first).allSatisfy { ($0["author"] as? [String: Any])?["id"] as? Int == author.id })
        #expect(socialItems(first).allSatisfy { $0["liked"] as? Bool == false })
    }

    @Test func theFeedRefusesAForeignCursorAndALimitOutside1To50() throws {
        let app = try TestAPI()
        let reader = try app.socialUser("13800000001")
        for garbage in ["garbage!", "bm90LWEtY3Vyc29y", "v1:1:2", "花"] {
            let response = try app.socialSend("GET", "/feed", query: ["cursor": garbage], token: reader.token)
            expectError(response, 400, "validation_failed")
            #expect(response.error["field"] as? String == "cursor")
        }
        for limit in ["0", "51", "-1", "ten"] {
            let response = try app.socialSend("GET", "/feed", query: ["limit": limit], token: reader.token)
            expectError(response, 400, "validation_failed")
            #expect(response.error["field"] as? String == "limit")
        }
        let empty = try app.socialSend("GET", "/feed", query: ["limit": "50"], token: reader.token)
        #expect(empty.status == 200)
        #expect(socialItems(empty).isEmpty && empty.json["next_cursor"] is NSNull)
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

        #expect(socialIDs(try app.socialSend("GET", "/feed", token: reader.token)) == [now])
        #expect(socialIDs(try app.socialSend("GET", "/articles")) == [now])
        #expect(socialIDs(try app.socialSend("GET", "/authors/\(author.id)/articles")) == [now])
        #expect(try app.socialSend("GET", "/users/\(author.id)").json["articles_count"] as? Int == 1)
        expectError(try app.socialSend("GET", "/articles/\(future)"), 404, "not_found")
        #expect(!socialIDs(try app.socialSend("GET", "/articles/top")).contains(Int(future)))
        app.clock.advance(by: 86_401)
        #expect(socialIDs(try app.socialSend("GET", "/feed", token: reader.token)) == [Int(future), now])
    }

    // MARK: Likes

    @Test func likesAreIdempotentAndLikedIsTheCallersOwn() throws {
        let app = try TestAPI()
        let author = try app.socialAuthor("13800000001")
        let fan = try app.socialUser("13800000002")
        let other = try app.socialUser("13800000003")
        let id = try app.socialArticleID("点赞", by: author)
        for _ in 0..<2 { #expect(try app.socialSend("POST", "/articles/\(id)/like", token: fan.token).status == 204) }

        let asFan = try app.socialSend("GET", "/articles/\(id)", token: fan.token)
        #expect(asFan.json["likes_count"] as? Int == 1)
        #expect(asFan.json["liked"] as? Bool == true)
        #expect(try app.socialSend("GET", "/articles/\(id)", token: other.token).json["liked"] as? Bool == false)
        let anonymous = try app.socialSend("GET", "/articles/\(id)")
        #expect(anonymous.json["liked"] == nil)
        #expect(anonymous.json["likes_count"] as? Int == 1)

        for _ in 0..<2 { #expect(try app.socialSend("DELETE", "/articles/\(id)/like", token: fan.token).status == 204) }
        let after = try app.socialSend("GET", "/articles/\(id)", token: fan.token)
        #expect(after.json["likes_count"] as? Int == 0)
        #expect(after.json["liked"] as? Bool == false)
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
            #expect(refused.error["field"] as? String == "content")
        }
        let longest = String(repeating: "花", count: 500)
        let created = try app.socialSend("POST", "/articles/\(first)/comments", json: ["content": longest], token: reader.token)
        #expect(created.status == 201)
        #expect(Set(created.json.keys) == ["id", "article_id", "user", "content", "reply_to", "created_at"])
        #expect(created.json["content"] as? String == longest)
        #expect(created.json["reply_to"] is NSNull)
        let parent = try #require(created.json["id"] as? Int)

        let reply = try app.socialSend("POST", "/articles/\(first)/comments", json: ["content": "谢谢", "reply_to": parent],
                                       token: author.token)
        #expect(reply.status == 201)
        #expect(reply.json["reply_to"] as? Int == parent)

        let elsewhere = try app.socialSend("POST", "/articles/\(second)/comments", json: ["content": "另一篇"], token: reader.token)
        let foreign = try #require(elsewhere.json["id"] as? Int)
        let crossed = try app.socialSend("POST", "/articles/\(first)/comments", json: ["content": "跨文章", "reply_to": foreign],
                                         token: reader.token)
        expectError(crossed, 422, "invalid_reply_to")
        let listed = try app.socialSend("GET", "/articles/\(first)/comments")
        #expect(socialIDs(listed) == [parent, try #require(reply.json["id"] as? Int)])
        #expect(listed.json["total"] as? Int == 2)
        #expect(try app.socialSend("GET", "/articles/\(first)").json["comments_count"] as? Int == 2)
        #expect(try app.socialSend("GET", "/articles/\(second)").json["comments_count"] as? Int == 1)
        expectError(try app.socialSend("POST", "/articles/\(first)/comments", json: ["content": "匿名"]), 401, "unauthorized")
    }

    @Test func onlyItsWriterDeletesACommentAndTheListIsOldestFirstInPages() throws {
        let app = try TestAPI()
        let author = try app.socialAuthor("13800000001")
        let writer = try app.socialUser("13800000002")
        let other = try app.socialUser("13800000003")
        let article = try app.socialArticleID("评论", by: author)
        var written: [Int] = []
        for index in 1...5 {
            app.clock.advance(by: 10)
            let made = try app.socialSend("POST", "/articles/\(article)/comments", json: ["content": "评论\(index)"], token: writer.token)
            written.append(try #require(made.json["id"] as? Int))
        }
        let pages = try (1...3).map {
            try app.socialSend("GET", "/articles/\(article)/comments", query: ["page": "\($0)", "per_page": "2"])
        }
        #expect(pages.flatMap(socialIDs) == written)
        #expect(socialItems(pages[0]).first?["content"] as? String == "评论1")
        #expect((socialItems(pages[0]).first?["user"] as? [String: Any])?["id"] as? Int == writer.id)

        expectError(try app.socialSend("DELETE", "/comments/\(written[0])", token: other.token), 403, "forbidden")
        expectError(try app.socialSend("DELETE", "/comments/\(written[0])", token: author.token), 403, "forbidden")
        #expect(try app.socialSend("GET", "/articles/\(article)").json["comments_count"] as? Int == 5)
        #expect(try app.socialSend("DELETE", "/comments/\(written[0])", token: writer.token).status == 204)
        #expect(try app.socialSend("GET", "/articles/\(article)").json["comments_count"] as? Int == 4)
        #expect(socialIDs(try app.socialSend("GET", "/articles/\(article)/comments")) == Array(written.dropFirst()))
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

        func view(_ id: Int, _ times: Int) throws {
            for index in 0..<times { #expect(try app.send("GET", "/api/v1/articles/\(id)", from: "10.0.0.\(index)").status == 200) }
        }
        func like(_ id: Int, _ user: SocialAPIUser) throws {
            #expect(try app.socialSend("POST", "/articles/\(id)/like", token: user.token).status == 204)
        }
        func comment(_ id: Int, _ user: SocialAPIUser) throws {
            #expect(try app.socialSend("POST", "/articles/\(id)/comments", json: ["content": "好"], token: user.token).status == 201)
        }
        try view(a, 4)                                             // 4
        try view(b, 2); try like(b, users[0])                      // 2 + 3 = 5
        try view(c, 1); try comment(c, users[0])                   // 1 + 5 = 6
        try like(d, users[0]); try like(d, users[1]); try comment(d, users[2])   // 6 + 5 = 11
        try view(e, 10)                                            // 10

        let top = try app.socialSend("GET", "/articles/top")
        #expect(top.status == 200)
        #expect(Set(top.json.keys) == ["items"])
        #expect(socialIDs(top) == [d, e, c, b, a] + Array(fillers.reversed().prefix(5)))
        #expect(socialItems(top).map { $0["views"] as? Int } == [0, 10, 1, 2, 4, 0, 0, 0, 0, 0], "each read counts a view")
        #expect(socialItems(top).map { $0["likes_count"] as? Int } == [2, 0, 0, 1, 0, 0, 0, 0, 0, 0])
        #expect(socialItems(top).map { $0["comments_count"] as? Int } == [1, 0, 1, 0, 0, 0, 0, 0, 0, 0])

        app.clock.advance(by: 8 * 86_400)
        try view(b, 1)
        let later = try app.socialSend("GET", "/articles/top")
        #expect(socialIDs(later) == [b] + Array(fillers.reversed()) + [a, c])
    }

    @Test func threeHundredAnonymousReadsFromOneAddressCountOneView() throws {
        let app = try TestAPI()
        let author = try app.socialAuthor("13800000001")
        let id = try app.socialArticleID("循环", by: author)
        for _ in 0..<300 { _ = try app.send("GET", "/api/v1/articles/\(id)", from: "203.0.113.7") }

        let read = try app.send("GET", "/api/v1/articles/\(id)", from: "203.0.113.7")
        #expect(read.json["views"] as? Int == 1)
        let top = try app.socialSend("GET", "/articles/top")
        #expect(socialItems(top).first?["views"] as? Int == 1)
    }

    // MARK: Authorship

    @Test func aNonAuthorCannotPublish() throws {
        let app = try TestAPI()
        let plain = try app.socialUser("13800000001")
        let refused = try app.socialSend("POST", "/articles", json: ["title": "越权", "content": "x"], token: plain.token)
        expectError(refused, 403, "not_an_author")
        expectError(try app.socialSend("POST", "/articles", json: ["title": "匿名", "content": "x"]), 401, "unauthorized")
        #expect(try app.socialSend("GET", "/articles").json["total"] as? Int == 0)
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
        #expect(try app.socialSend("GET", "/articles/\(id)").json["title"] as? String == "原标题")
        #expect(try app.socialSend("DELETE", "/articles/\(id)", token: author.token).status == 204)
    }

    @Test func onlyItsAuthorEditsOrDeletesAnArticleAndAnEditChangesOnlyTheGivenFields() throws {
        let app = try TestAPI()
        let author = try app.socialAuthor("13800000001")
        let rival = try app.socialAuthor("13800000002")
        let reader = try app.socialUser("13800000003")
        let original = try app.socialPublish("原标题", by: author, content: "原文",
                                             extra: ["summary": "原摘要", "cover_url": "https://img.example.com/c.jpg"])
        let id = try #require(original["id"] as? Int)

        for intruder in [rival, reader] {
            expectError(try app.socialSend("PATCH", "/articles/\(id)", json: ["title": "篡改"], token: intruder.token), 403, "forbidden")
            expectError(try app.socialSend("DELETE", "/articles/\(id)", token: intruder.token), 403, "forbidden")
        }
        let untouched = try app.socialSend("GET", "/articles/\(id)")
        #expect(untouched.json["title"] as? String == "原标题")

        app.clock.advance(by: 60)
        let edited = try app.socialSend("PATCH", "/articles/\(id)", json: ["summary": "新摘要"], token: author.token)
        #expect(edited.status == 200)
        #expect(edited.json["summary"] as? String == "新摘要")
        for key in ["title", "content", "cover_url", "published_at"] {
            #expect(edited.json[key] as? String == original[key] as? String, "\(key)")
        }

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
        let id = try #require(created["id"] as? Int)
        #expect(Array((created["content"] as? String ?? "").utf8) == Array(content.utf8))

        let read = try app.socialSend("GET", "/articles/\(id)")
        #expect(Array((read.json["content"] as? String ?? "").utf8) == Array(content.utf8))
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
        #expect((unknown.json["error"] as? [String: Any])?["field"] as? String == "category_id")
        let article = try app.socialArticleID("有分类的文章", by: author)
        let edited = try app.socialSend("PATCH", "/articles/\(article)", json: ["category_id": 999999], token: author.token)
        expectError(edited, 409, "unknown_category")
        #expect((edited.json["error"] as? [String: Any])?["field"] as? String == "category_id")
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
        #expect(Set(categories.json.keys) == ["items"])
        let items = socialItems(categories)
        #expect(items.map { $0["name"] as? String } == ["花艺课堂", "多肉植物"])
        #expect(items.allSatisfy { Set($0.keys) == ["id", "name"] })
        let floristry = try #require(items.first?["id"] as? Int)

        let filtered = try app.socialSend("GET", "/articles", query: ["category_id": "\(floristry)"])
        #expect(socialItems(filtered).map { $0["title"] as? String } == ["花束", "插花"])
        #expect(socialItems(filtered).allSatisfy { $0["category_id"] as? Int == floristry })
        #expect(filtered.json["total"] as? Int == 2)
        #expect(try app.socialSend("GET", "/articles").json["total"] as? Int == 3)
        expectError(try app.socialSend("GET", "/articles", query: ["category_id": "999999"]), 404, "not_found")

        let byAuthor = try app.socialSend("GET", "/authors/\(author.id)/articles")
        #expect(socialItems(byAuthor).map { $0["title"] as? String } == ["花束", "多肉", "插花"])
        expectError(try app.socialSend("GET", "/authors/\(plain.id)/articles"), 404, "not_found")
    }

    @Test func articleJSONHasExactlyTheContractKeysAndLikedAndIsFavoriteOnlyWhenSignedIn() throws {
        let app = try TestAPI()
        let author = try app.socialAuthor("13800000001")
        let reader = try app.socialUser("13800000002")
        try app.socialImportArticles([["author_phone": author.phone, "title": "导入", "content": "x", "category": "花艺课堂",
                                       "published_at": "2026-11-01T08:00:00Z"]])
        let category = try #require(socialItems(try app.socialSend("GET", "/article-categories")).first?["id"] as? Int)
        let created = try app.socialPublish("完整", by: author, extra: ["category_id": category, "summary": "摘要"])
        #expect(Set(created.keys) == socialArticleKeys.union(["liked", "is_favorite"]))
        let id = try #require(created["id"] as? Int)

        let anonymous = try app.socialSend("GET", "/articles/\(id)")
        #expect(Set(anonymous.json.keys) == socialArticleKeys)
        #expect(anonymous.json["category_id"] as? Int == category)
        #expect(anonymous.json["published_at"] as? String == "2026-11-30T08:01:00Z")
        let embedded = try #require(anonymous.json["author"] as? [String: Any])
        #expect(Set(embedded.keys) == socialProfileKeys)
        #expect(embedded["id"] as? Int == author.id)
        #expect(embedded["articles_count"] as? Int == 2)

        let signedIn = try app.socialSend("GET", "/articles/\(id)", token: reader.token)
        #expect(Set(signedIn.json.keys) == socialArticleKeys.union(["liked", "is_favorite"]))
        #expect(Set((signedIn.json["author"] as? [String: Any] ?? [:]).keys) == socialProfileKeys.union(["is_following"]))
        for listing in [try app.socialSend("GET", "/articles"), try app.socialSend("GET", "/authors/\(author.id)/articles"),
                        try app.socialSend("GET", "/articles/top")] {
            #expect(socialItems(listing).allSatisfy { Set($0.keys) == socialArticleKeys })
        }
        let uncategorised = try app.socialPublish("无分类", by: author)
        #expect(Set(uncategorised.keys) == socialArticleKeys.union(["liked", "is_favorite"]))
        #expect(uncategorised["category_id"] is NSNull)
    }
}
