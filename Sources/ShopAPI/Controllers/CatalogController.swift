import HTTP
import ShopCore

/// Categories, product lists and pages, search suggestions and hot keywords (all public).
struct CatalogController {
    let catalog: CatalogService

    /// `personalised`: routes where a valid token names the caller (a search counts per person).
    func register(_ routes: RouteGroup, personalised: RouteGroup) {
        personalised.get("/products", use: products)
        routes.get("/categories", use: categories)
            .get("/products/:id", use: product)
            .get("/search/suggestions", use: suggestions)
            .get("/search/hot", use: hot)
    }

    /// The whole category tree.
    func categories(_ request: Request, _ context: Context) throws -> Response {
        try .json(ItemsResponse(items: try catalog.categoryTree().map(CategoryResponse.init)))
    }

    /// On-sale products filtered, searched, sorted and paged; the searcher is the user, else the client IP.
    func products(_ request: Request, _ context: Context) throws -> Response {
        let query = ProductQuery(categoryID: try request.queryInt("category_id").map(CategoryID.init),
                                 text: request.query["q"],
                                 minPriceCents: try request.queryInt("min_price_cents"),
                                 maxPriceCents: try request.queryInt("max_price_cents"),
                                 sort: try request.queryEnum("sort", ProductSort.self),
                                 page: try request.pageRequest(),
                                 searcher: Visitor(user: context.optionalUser, clientIP: request.clientAddress))
        return try .json(PageResponse(try catalog.products(query), ProductSummaryResponse.init))
    }

    /// One on-sale product with its SKUs and images.
    func product(_ request: Request, _ context: Context) throws -> Response {
        try .json(ProductDetailResponse(try catalog.product(ProductID(try request.idParameter()))))
    }

    /// Terms for the search box.
    func suggestions(_ request: Request, _ context: Context) throws -> Response {
        try .json(ItemsResponse(items: try catalog.suggestions(request.query["q"])))
    }

    /// The keywords the most people searched (and found something) in the last 7 days.
    func hot(_ request: Request, _ context: Context) throws -> Response {
        try .json(ItemsResponse(items: try catalog.hotKeywords().map { HotKeywordResponse(keyword: $0.keyword, count: $0.count) }))
    }
}
