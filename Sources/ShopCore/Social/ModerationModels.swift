import Foundation

/// A comment as moderators see it: with the article it is on and its writer.
public struct ModeratedComment: Sendable, Equatable, Codable {
    public let id: CommentID
    public let articleID: ArticleID
    public let articleTitle: String
    /// Whether moderation has hidden the article (its comments are then out of buyers' sight too).
    public let articleHidden: Bool
    public let userID: UserID
    public let nickname: String
    public let content: String
    public let replyTo: CommentID?
    public let createdAt: Int64
}

/// An article's moderation state, as the audit log records a hide.
public struct ModeratedArticle: Sendable, Equatable, Codable {
    public let id: ArticleID
    public let authorID: UserID
    public let title: String
    public let hiddenAt: Int64?
}

/// A user's column-author role, as the audit log records a grant or revoke.
public struct AuthorRole: Sendable, Equatable, Codable {
    public let userID: UserID
    public let isAuthor: Bool
}
