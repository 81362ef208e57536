import HTTP
import ShopCore

extension ErrorMapping {
    /// Social: profiles, authors, articles, comments, the feed cursor.
    @Sendable static func social(_ error: any Error) -> HTTPError? {
        guard let error = error as? SocialError else { return nil }
        switch error {
        case .userNotFound: return .notFound("No such user.")
        case .authorNotFound: return .notFound("No such column author.")
        case .articleNotFound: return .notFound("No such article.")
        case .commentNotFound: return .notFound("No such comment.")
        case .articleCategoryNotFound: return .notFound("No such article category.")
        case .cannotFollowSelf:
            return HTTPError(.unprocessableEntity, code: "cannot_follow_self", message: "You cannot follow yourself.")
        case .forbidden(let message):
            return HTTPError(.forbidden, code: "forbidden", message: message)
        case .notAnAuthor:
            return HTTPError(.forbidden, code: "not_an_author", message: "Only column authors can publish or edit articles.")
        case .invalidReplyTo:
            return HTTPError(.unprocessableEntity, code: "invalid_reply_to",
                             message: "reply_to must be a comment on the same article.", field: "reply_to")
        case .titleTaken:
            return HTTPError(.conflict, code: "title_taken", message: "You already have an article with this title.",
                             field: "title")
        case .invalidCursor:
            return .validation("cursor is not one this server gave out.", field: "cursor")
        }
    }
}
