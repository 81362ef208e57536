import Foundation
import ShopCore

/// A comment as moderators see it, with the article it is on and its writer.
struct AdminCommentResponse: Codable {
    struct ArticleRef: Codable {
        let id: ArticleID
        let title: String
        /// Hidden by moderation: buyers no longer see it or its comments.
        let hidden: Bool
    }

    struct Writer: Codable {
        let id: UserID
        let nickname: String
    }

    let id: CommentID
    let content: String
    @ExplicitNull var replyTo: CommentID?
    let createdAt: Date
    let article: ArticleRef
    let author: Writer

    init(_ comment: ModeratedComment) {
        id = comment.id
        content = comment.content
        replyTo = comment.replyTo
        createdAt = Date(timeIntervalSince1970: TimeInterval(comment.createdAt))
        article = ArticleRef(id: comment.articleID, title: comment.articleTitle, hidden: comment.articleHidden)
        author = Writer(id: comment.userID, nickname: comment.nickname)
    }
}

/// `{"user_id", "is_author"}` after a grant or revoke.
struct AuthorRoleResponse: Codable {
    let userID: UserID
    let isAuthor: Bool

    init(_ role: AuthorRole) {
        userID = role.userID
        isAuthor = role.isAuthor
    }
}
