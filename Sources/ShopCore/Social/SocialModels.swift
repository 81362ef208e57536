import Foundation

/// A user as everyone may see them (no phone).
public struct PublicProfile: Sendable, Equatable {
    public let id: UserID
    public let nickname: String
    public let avatarURL: String
    public let signature: String
    public let gender: User.Gender
    public let isAuthor: Bool
    public let followersCount: Int
    public let followingCount: Int
    public let articlesCount: Int
    /// Whether the signed-in caller follows this user; nil when nobody is signed in.
    public let isFollowing: Bool?
}

/// An article (专题) by a column author.
public struct Article: Sendable, Equatable {
    public let id: ArticleID
    public let title: String
    public let summary: String
    public let coverURL: String
    public let content: String
    public let categoryID: ArticleCategoryID?
    public let author: PublicProfile
    public let views: Int64
    public let likesCount: Int64
    public let commentsCount: Int64
    /// Whether the signed-in caller likes it; nil when nobody is signed in.
    public let liked: Bool?
    /// Whether the signed-in caller keeps it in their favourites; nil when nobody is signed in.
    public let isFavorite: Bool?
    public let publishedAt: Date
}

public struct ArticleCategory: Sendable, Equatable {
    public let id: ArticleCategoryID
    public let name: String
}

/// A comment, with its writer's public name.
public struct Comment: Sendable, Equatable {
    public let id: CommentID
    public let articleID: ArticleID
    public let userID: UserID
    public let nickname: String
    public let avatarURL: String
    public let content: String
    public let replyTo: CommentID?
    public let createdAt: Date
}

/// What an author writes; on edit, nil leaves a field as it is.
public struct ArticleDraft: Sendable {
    public var title: String?
    public var summary: String?
    public var coverURL: String?
    public var content: String?
    public var categoryID: ArticleCategoryID?

    public init(title: String? = nil, summary: String? = nil, coverURL: String? = nil, content: String? = nil,
                categoryID: ArticleCategoryID? = nil) {
        self.title = title
        self.summary = summary
        self.coverURL = coverURL
        self.content = content
        self.categoryID = categoryID
    }
}

/// A page of the feed and the opaque cursor of the next one (nil at the end).
public struct FeedPage: Sendable {
    public let items: [Article]
    public let nextCursor: String?
}

/// How the author list is ordered.
public enum AuthorSort: String, Sendable, CaseIterable {
    case followers, newest
}
