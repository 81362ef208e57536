import Foundation
import ShopCore

/// A public profile; `is_following` only when the caller is signed in.
struct PublicProfileResponse: Codable {
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

/// `Article`: `category_id` is always present (null when none); `liked` and `is_favorite` only
/// for a signed-in caller (a plain optional, which synthesized `Encodable` leaves out when nil).
struct ArticleResponse: Codable {
    let id: ArticleID
    let title: String
    let summary: String
    let coverURL: String
    let content: String
    @ExplicitNull var categoryID: ArticleCategoryID?
    let author: PublicProfileResponse
    let views: Int64
    let likesCount: Int64
    let commentsCount: Int64
    let liked: Bool?
    let isFavorite: Bool?
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
        isFavorite = a.isFavorite
        publishedAt = a.publishedAt
    }
}

struct ArticleCategoryResponse: Codable {
    let id: ArticleCategoryID
    let name: String
}

/// A comment with its writer's public name; `reply_to` is null for a top-level comment.
struct CommentResponse: Codable {
    struct Writer: Codable {
        let id: UserID
        let nickname: String
        let avatarURL: String
    }

    let id: CommentID
    let articleID: ArticleID
    let user: Writer
    let content: String
    @ExplicitNull var replyTo: CommentID?
    let createdAt: Date

    init(_ comment: Comment) {
        id = comment.id
        articleID = comment.articleID
        user = Writer(id: comment.userID, nickname: comment.nickname, avatarURL: comment.avatarURL)
        content = comment.content
        replyTo = comment.replyTo
        createdAt = comment.createdAt
    }
}

/// `{"items": [...], "next_cursor": "..." | null}`.
struct FeedResponse: Codable {
    let items: [ArticleResponse]
    @ExplicitNull var nextCursor: String?
}
