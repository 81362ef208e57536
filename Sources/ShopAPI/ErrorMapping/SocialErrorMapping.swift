import HTTP
import ShopCore

extension ErrorMapping {
    /// Social: profiles, authors, articles, comments, the feed cursor.
    @Sendable static func social(_ error: any Error) -> HTTPError? {
        guard let error = error as? SocialError else { return nil }
        switch error {
        case .userNotFound: return HTTPError(.userNotFound)
        case .authorNotFound: return HTTPError(.authorNotFound)
        case .articleNotFound: return HTTPError(.articleNotFound)
        case .commentNotFound: return HTTPError(.commentNotFound)
        case .articleCategoryNotFound: return HTTPError(.articleCategoryNotFound)
        case .unknownArticleCategory: return HTTPError(.unknownArticleCategory, field: "category_id")
        case .cannotFollowSelf: return HTTPError(.cannotFollowSelf)
        case .forbidden(.deleteOthersComment): return HTTPError(.deleteOthersComment)
        case .forbidden(.changeOthersArticle): return HTTPError(.changeOthersArticle)
        case .notAnAuthor: return HTTPError(.notAnAuthor)
        case .invalidReplyTo: return HTTPError(.invalidReplyTo, field: "reply_to")
        case .titleTaken: return HTTPError(.titleTaken, field: "title")
        case .invalidCursor: return HTTPError(.invalidCursor, field: "cursor")
        case .contentBlocked(let field): return HTTPError(.contentBlocked, field: field)
        }
    }
}
