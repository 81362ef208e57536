import Foundation

/// Why a social request was refused.
public enum SocialError: Error, Equatable, Sendable {
    case userNotFound
    /// Unknown id, or the user is not a column author.
    case authorNotFound
    case articleNotFound
    case commentNotFound
    case cannotFollowSelf
    /// Only the author may edit or delete an article; only the writer may delete a comment.
    case forbidden(Forbidden)
    /// Publishing and editing need the column-author role, which may have been revoked.
    case notAnAuthor
    /// `reply_to` names a comment of another article (or none).
    case invalidReplyTo
    case invalidCursor
    /// The author already has an article with this title (titles identify articles in imports).
    case titleTaken
    case articleCategoryNotFound
    /// An article's body names a category that does not exist.
    case unknownArticleCategory
    /// The text of `field` contains one of `search.blocked_words`.
    case contentBlocked(field: String)

    /// What someone tried that only another user may do.
    public enum Forbidden: Sendable, CaseIterable {
        case deleteOthersComment
        case changeOthersArticle
    }
}
