import Bulkheads
import HTTP
import ShopCore

/// `/favorites`: the signed-in user's favourites (收藏). `PUT` keeps a product or article and
/// `DELETE` lets it go; both are idempotent and answer the state after the call.
struct FavoriteController {
    let favorites: FavoriteService

    func register(_ signedIn: RouteGroup) {
        signedIn.put("/favorites/products/:id", on: .writes, use: addProduct)
            .delete("/favorites/products/:id", on: .writes, use: removeProduct)
            .get("/favorites/products", use: products)
            .put("/favorites/articles/:id", on: .writes, use: addArticle)
            .delete("/favorites/articles/:id", on: .writes, use: removeArticle)
            .get("/favorites/articles", use: articles)
    }

    /// A product's favourite state: the caller's and how many keep it.
    struct ProductFavoriteResponse: Codable {
        let productID: ProductID
        let isFavorite: Bool
        let favoritesCount: Int64

        init(_ state: FavoriteService.ProductState) {
            productID = state.productID
            isFavorite = state.isFavorite
            favoritesCount = state.favoritesCount
        }
    }

    struct ArticleFavoriteResponse: Codable {
        let articleID: ArticleID
        let isFavorite: Bool
    }

    func addProduct(_ request: Request, _ context: Context) throws -> Response {
        let state = try favorites.add(product: ProductID(try request.idParameter()), by: try context.user())
        return try .json(ProductFavoriteResponse(state))
    }

    func removeProduct(_ request: Request, _ context: Context) throws -> Response {
        let state = try favorites.remove(product: ProductID(try request.idParameter()), by: try context.user())
        return try .json(ProductFavoriteResponse(state))
    }

    /// Favourite products still on sale, the newest favourite first.
    func products(_ request: Request, _ context: Context) throws -> Response {
        let page = try favorites.products(of: try context.user(), page: try request.pageRequest())
        return try .json(PageResponse(page, ProductSummaryResponse.init))
    }

    func addArticle(_ request: Request, _ context: Context) throws -> Response {
        let id = ArticleID(try request.idParameter())
        try favorites.add(article: id, by: try context.user())
        return try .json(ArticleFavoriteResponse(articleID: id, isFavorite: true))
    }

    func removeArticle(_ request: Request, _ context: Context) throws -> Response {
        let id = ArticleID(try request.idParameter())
        try favorites.remove(article: id, by: try context.user())
        return try .json(ArticleFavoriteResponse(articleID: id, isFavorite: false))
    }

    /// Favourite published articles, the newest favourite first.
    func articles(_ request: Request, _ context: Context) throws -> Response {
        let page = try favorites.articles(of: try context.user(), page: try request.pageRequest())
        return try .json(PageResponse(page, ArticleResponse.init))
    }
}
