import HTTP
import ShopCore

/// Moderation: comments (list, delete), articles (hide) and column authors (grant, revoke).
struct AdminModerationController {
    let moderation: ModerationService

    func register(_ admin: AdminRoutes) {
        admin.get("/admin/comments", use: comments)
            .delete("/admin/comments/:id", use: deleteComment)
            .delete("/admin/articles/:id", use: hideArticle)
            .post("/admin/authors/:user_id", use: grantAuthor)
            .delete("/admin/authors/:user_id", use: revokeAuthor)
    }

    /// Comments on every article, newest first, with the article and the writer.
    func comments(_ request: Request, _ context: Context) throws -> Response {
        let page = try moderation.comments(matching: request.query["q"], page: try request.pageRequest())
        return try .json(PageResponse(page, AdminCommentResponse.init))
    }

    /// 204: gone for buyers; the article's count and the top 10 follow.
    func deleteComment(_ request: Request, _ context: Context) throws -> Response {
        try moderation.deleteComment(CommentID(try request.idParameter()), by: try context.staffActor())
        return .empty()
    }

    /// 204: hidden from buyers, kept in the database.
    func hideArticle(_ request: Request, _ context: Context) throws -> Response {
        try moderation.hideArticle(ArticleID(try request.idParameter()), by: try context.staffActor())
        return .empty()
    }

    func grantAuthor(_ request: Request, _ context: Context) throws -> Response {
        try .json(AuthorRoleResponse(moderation.setAuthor(true, user: UserID(try request.idParameter("user_id")),
                                                         by: try context.staffActor())))
    }

    func revokeAuthor(_ request: Request, _ context: Context) throws -> Response {
        try .json(AuthorRoleResponse(moderation.setAuthor(false, user: UserID(try request.idParameter("user_id")),
                                                         by: try context.staffActor())))
    }
}
