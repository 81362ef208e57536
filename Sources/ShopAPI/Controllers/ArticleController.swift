import HTTP
import ShopCore

/// Articles, likes, comments and the weekly top 10.
struct ArticleController {
    let articles: ArticleService

    struct ArticleBody: Decodable {
        let title: String?
        let summary: String?
        let coverURL: String?
        let content: String?
        let categoryID: ArticleCategoryID?

        var draft: ArticleDraft {
            ArticleDraft(title: title, summary: summary, coverURL: coverURL, content: content, categoryID: categoryID)
        }
    }

    struct CommentBody: Decodable {
        let content: String
        let replyTo: CommentID?
    }

    func register(public routes: RouteGroup, signedIn: RouteGroup) {
        routes.get("/article-categories", use: categories)
            .get("/articles", use: list)
            .get("/articles/top", use: top)
            .get("/articles/:id", use: show)
            .get("/articles/:id/comments", use: comments)
        signedIn.post("/articles", use: publish)
            .patch("/articles/:id", use: edit)
            .delete("/articles/:id", use: delete)
            .post("/articles/:id/like", use: like)
            .delete("/articles/:id/like", use: unlike)
            .post("/articles/:id/comments", use: comment)
            .delete("/comments/:id", use: deleteComment)
    }

    func categories(_ request: Request, _ context: Context) throws -> Response {
        try .json(ItemsResponse(items: try articles.categories().map { ArticleCategoryResponse(id: $0.id, name: $0.name) }))
    }

    func list(_ request: Request, _ context: Context) throws -> Response {
        let page = try articles.articles(category: try request.queryInt("category_id").map(ArticleCategoryID.init),
                                         page: try request.pageRequest(), viewer: context.optionalUser)
        return try .json(PageResponse(page, ArticleResponse.init))
    }

    /// The week's top 10 (score: 7-day views + 3 × likers + 5 × commenters, each reader once).
    func top(_ request: Request, _ context: Context) throws -> Response {
        try .json(ItemsResponse(items: try articles.top(viewer: context.optionalUser).map(ArticleResponse.init)))
    }

    /// One article; reading it counts a view, once a day per reader (the user, else the client IP).
    func show(_ request: Request, _ context: Context) throws -> Response {
        try .json(ArticleResponse(articles.read(ArticleID(try request.idParameter()), viewer: context.optionalUser,
                                                clientIP: request.clientAddress)))
    }

    func comments(_ request: Request, _ context: Context) throws -> Response {
        let page = try articles.comments(on: ArticleID(try request.idParameter()), page: try request.pageRequest())
        return try .json(PageResponse(page, CommentResponse.init))
    }

    /// Column authors only (others 403).
    func publish(_ request: Request, _ context: Context) throws -> Response {
        let body = try request.decode(ArticleBody.self)
        return try .json(ArticleResponse(articles.publish(body.draft, by: try context.user())), status: .created)
    }

    /// Its author only (others 403).
    func edit(_ request: Request, _ context: Context) throws -> Response {
        let id = ArticleID(try request.idParameter())
        let body = try request.decode(ArticleBody.self)
        return try .json(ArticleResponse(articles.edit(id, body.draft, by: try context.user())))
    }

    func delete(_ request: Request, _ context: Context) throws -> Response {
        try articles.delete(ArticleID(try request.idParameter()), by: try context.user())
        return .empty()
    }

    func like(_ request: Request, _ context: Context) throws -> Response {
        try articles.like(ArticleID(try request.idParameter()), by: try context.user())
        return .empty()
    }

    func unlike(_ request: Request, _ context: Context) throws -> Response {
        try articles.unlike(ArticleID(try request.idParameter()), by: try context.user())
        return .empty()
    }

    func comment(_ request: Request, _ context: Context) throws -> Response {
        let id = ArticleID(try request.idParameter())
        let body = try request.decode(CommentBody.self)
        let created = try articles.comment(on: id, content: body.content, replyTo: body.replyTo, by: try context.user())
        return try .json(CommentResponse(created), status: .created)
    }

    /// Its writer only (others 403).
    func deleteComment(_ request: Request, _ context: Context) throws -> Response {
        try articles.deleteComment(CommentID(try request.idParameter()), by: try context.user())
        return .empty()
    }
}
