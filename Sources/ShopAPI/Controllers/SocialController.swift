import HTTP
import ShopCore

/// Profiles, column authors, follows and the feed.
struct SocialController {
    let social: SocialService
    let articles: ArticleService

    func register(public routes: RouteGroup, signedIn: RouteGroup) {
        routes.get("/users/:id", use: profile)
            .get("/users/:id/followers", use: followers)
            .get("/authors", use: authors)
            .get("/authors/:id/articles", use: authorArticles)
        signedIn.post("/authors/:id/follow", use: follow)
            .delete("/authors/:id/follow", use: unfollow)
            .get("/me/following", use: following)
            .get("/feed", use: feed)
    }

    /// A public profile with counts (and `is_following` when signed in).
    func profile(_ request: Request, _ context: Context) throws -> Response {
        try .json(PublicProfileResponse(social.profile(UserID(try request.idParameter()), viewer: context.optionalUser)))
    }

    func followers(_ request: Request, _ context: Context) throws -> Response {
        let page = try social.followers(of: UserID(try request.idParameter()), page: try request.pageRequest(),
                                        viewer: context.optionalUser)
        return try .json(PageResponse(page, PublicProfileResponse.init))
    }

    /// Column authors by followers or newest.
    func authors(_ request: Request, _ context: Context) throws -> Response {
        let page = try social.authors(sort: try request.queryEnum("sort", AuthorSort.self) ?? .followers,
                                      page: try request.pageRequest(), viewer: context.optionalUser)
        return try .json(PageResponse(page, PublicProfileResponse.init))
    }

    func authorArticles(_ request: Request, _ context: Context) throws -> Response {
        let page = try articles.articles(by: UserID(try request.idParameter()), page: try request.pageRequest(),
                                         viewer: context.optionalUser)
        return try .json(PageResponse(page, ArticleResponse.init))
    }

    /// 204; following twice is the same as once.
    func follow(_ request: Request, _ context: Context) throws -> Response {
        try social.follow(UserID(try request.idParameter()), by: try context.user())
        return .empty()
    }

    func unfollow(_ request: Request, _ context: Context) throws -> Response {
        try social.unfollow(UserID(try request.idParameter()), by: try context.user())
        return .empty()
    }

    func following(_ request: Request, _ context: Context) throws -> Response {
        try .json(PageResponse(social.following(try context.user(), page: try request.pageRequest()), PublicProfileResponse.init))
    }

    /// Cursor-paged articles of followed authors, newest first.
    func feed(_ request: Request, _ context: Context) throws -> Response {
        let limit = try request.queryInt("limit") ?? 20
        let cursor = request.query["cursor"].flatMap { $0.isEmpty ? nil : $0 }
        let page = try social.feed(for: try context.user(), cursor: cursor, limit: Int(clamping: limit))
        return try .json(FeedResponse(items: page.items.map(ArticleResponse.init), nextCursor: page.nextCursor))
    }
}
