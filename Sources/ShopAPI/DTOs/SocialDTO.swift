import Foundation
import ShopCore

/// A public profile; `is_following` only when the caller is signed in.
struct PublicProfileResponse: Encodable {
    let id: UserID
    let nickname: String
    let avatarURL: String
    let signature: String
    let gender: User.Gender
    let isAuthor: Bool
    let followersCount: Int
    let followingCount: Int
    let articlesCount: Int
    let isFollowing: Bool?

    init(_ p: PublicProfile) {
        id = p.id
        nickname = p.nickname
        avatarURL = p.avatarURL
        signature = p.signature
        gender = p.gender
        isAuthor = p.isAuthor
        followersCount = p.followersCount
        followingCount = p.followingCount
        articlesCount = p.articlesCount
        isFollowing = p.isFollowing
    }
}

/// `Article`; `liked` only when the caller is signed in.
struct ArticleResponse: Encodable {
    let id: ArticleID
    let title: String
    let summary: String
    let coverURL: String
    let content: String
    let categoryID: ArticleCategoryID?
    let author: PublicProfileResponse
    let views: Int64
    let likesCount: Int64
    let commentsCount: Int64
    let liked: Bool?
    let publishedAt: Date

    init(_ a: Article) {
        id = a.id
        title = a.title
        summary = a.summary
        coverURL = a.coverURL
        content = a.content
        categoryID = a.categoryID
        author = PublicProfileResponse(a.author)
        views = a.views
        likesCount = a.likesCount
        commentsCount = a.commentsCount
        liked = a.liked
        publishedAt = a.publishedAt
    }

    /// `category_id` is always present (null when none); `liked` only for a signed-in caller.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(title, forKey: .title)
        try c.encode(summary, forKey: .summary)
        try c.encode(coverURL, forKey: .coverURL)
        try c.encode(content, forKey: .content)
        try c.encode(categoryID, forKey: .categoryID)
        try c.encode(author, forKey: .author)
        try c.encode(views, forKey: .views)
        try c.encode(likesCount, forKey: .likesCount)
        try c.encode(commentsCount, forKey: .commentsCount)
        try c.encodeIfPresent(liked, forKey: .liked)
        try c.encode(publishedAt, forKey: .publishedAt)
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, summary, coverURL, content, categoryID, author, views, likesCount, commentsCount, liked, publishedAt
    }
}

struct ArticleCategoryResponse: Encodable {
    let id: ArticleCategoryID
    let name: String
}

/// A comment with its writer's public name; `reply_to` is null for a top-level comment.
struct CommentResponse: Encodable {
    struct Writer: Encodable {
        let id: UserID
        let nickname: String
        let avatarURL: String
    }

    let comment: Comment

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(comment.id, forKey: .id)
        try c.encode(comment.articleID, forKey: .articleID)
        try c.encode(Writer(id: comment.userID, nickname: comment.nickname, avatarURL: comment.avatarURL), forKey: .user)
        try c.encode(comment.content, forKey: .content)
        try c.encode(comment.replyTo, forKey: .replyTo)
        try c.encode(comment.createdAt, forKey: .createdAt)
    }

    private enum CodingKeys: String, CodingKey { case id, articleID, user, content, replyTo, createdAt }
}

/// `{"items": [...], "next_cursor": "..." | null}`.
struct FeedResponse: Encodable {
    let items: [ArticleResponse]
    let nextCursor: String?

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(items, forKey: .items)
        try c.encode(nextCursor, forKey: .nextCursor)
    }

    private enum CodingKeys: String, CodingKey { case items, nextCursor }
}
