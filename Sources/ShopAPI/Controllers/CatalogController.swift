import HTTP
import ShopCore

/// Categories, product lists and pages, search suggestions and hot keywords (all public).
///
/// The category tree, product lists and product pages carry a strong `ETag` (a digest of the
/// body) and answer a matching `If-None-Match` with 304. Their encoded bodies are kept in
/// `cache` with the catalogue version they were read at, and served again only while that
/// version (the same on every node) says nothing has changed: read from the database, or on
/// PostgreSQL from the versions the node holds in memory, told of changes within
/// `PushedCatalogVersions.maxStaleness`. Sales and favourites counts do not move the version: a
/// body older than `countersMaxAge` is still served while `refresher` reads it again behind it
/// (never one older than `countersHardMaxAge`). None of these bodies depends on who asks, so one copy serves everyone: a bearer token on
/// `GET /products` only names the searcher of a search (a signed-in product page, which says
/// whether the caller keeps the product, is read per caller and never kept). A search's page is kept like a list's
/// (any change to any product moves the version it is kept at) and is recorded every time.
struct CatalogController {
    let catalog: CatalogService
    let favorites: FavoriteService
    let cache: ResponseCache<CatalogCacheKey>
    let refresher: KeptBodyRefresher<CatalogCacheKey>

    /// Revalidated on every use: pages and lists show stock and prices.
    static let revalidate = "no-cache"
    /// The tree shows no stock or price; a minute-old copy is harmless.
    static let categoryTreeLifetime = "public, max-age=60"
    /// How old the per-click counters of a kept body may be (sales and favourites counts, stock
    /// while it stays above zero): they do not move the catalogue's version (migration 0041), so
    /// a body older than this is read again even at the same version, in the background (the
    /// request is answered with the body held). Price, a stock-out, title and status always move
    /// the version: they are never this stale.
    static let countersMaxAge: Duration = .seconds(5)
    /// A body this old is never served, even at the same version: read on the request instead
    /// (when its background refreshes keep failing or cannot get a place).
    static let countersHardMaxAge: Duration = .seconds(30)

    init(catalog: CatalogService, favorites: FavoriteService, cache: ResponseCache<CatalogCacheKey> = ResponseCache(),
         refresher: KeptBodyRefresher<CatalogCacheKey> = KeptBodyRefresher()) {
        self.catalog = catalog
        self.favorites = favorites
        self.cache = cache
        self.refresher = refresher
    }

    /// `personalised`: routes where a valid token names the caller (a search counts per person).
    func register(_ routes: RouteGroup, personalised: RouteGroup) {
        personalised.get("/products", use: products)
            .get("/products/:id", use: product)
        routes.get("/categories", use: categories)
            .get("/search/suggestions", use: suggestions)
            .get("/search/hot", use: hot)
    }

    /// The whole category tree.
    func categories(_ request: Request, _ context: Context) throws -> Response {
        try answer(request, key: .categories, cacheControl: Self.categoryTreeLifetime,
                   read: { [catalog] in try catalog.categoryTree(unlessAt: $0) },
                   reread: { [catalog] in try catalog.categoryTree(unlessAt: nil) },
                   encode: { try .json(ItemsResponse(items: $0.map(CategoryResponse.init))) })
    }

    /// On-sale products filtered, searched, sorted and paged, with their facets when asked
    /// (`facets=true`); the searcher is the user, else the client IP.
    func products(_ request: Request, _ context: Context) throws -> Response {
        let query = ProductQuery(categoryID: try request.queryInt("category_id").map(CategoryID.init),
                                 text: request.query["q"],
                                 minPriceCents: try request.queryInt("min_price_cents"),
                                 maxPriceCents: try request.queryInt("max_price_cents"),
                                 sort: try request.queryEnum("sort", ProductSort.self),
                                 page: try request.pageRequest(),
                                 searcher: Visitor(user: context.optionalUser, clientIP: request.clientAddress))
        let facets = try request.queryBool("facets") ?? false
        // Keyed by `q` as sent (bytes: canonically equal spellings may search differently).
        let key = CatalogCacheKey.products(ProductFilter(query, text: query.text), sort: query.sort,
                                           page: query.page.page, perPage: query.page.perPage, facets: facets)
        return try answer(request, key: key, cacheControl: Self.revalidate,
                          read: { try catalog.listing(query, facets: facets, unlessAt: $0) },
                          reread: { [catalog] in try catalog.freshListing(query, facets: facets) },
                          encode: { try .json(ProductListResponse($0)) })
    }

    /// One on-sale product with its SKUs and images. Signed in, the page also says whether the
    /// caller keeps it (`is_favorite`): such a body is theirs alone, read fresh from the primary
    /// and sent `private`; everyone else shares one kept body. Both vary by `Authorization`.
    func product(_ request: Request, _ context: Context) throws -> Response {
        let id = ProductID(try request.idParameter())
        guard let user = context.optionalUser else {
            var response = try answer(request, key: .product(id), cacheControl: Self.revalidate,
                                      read: { [catalog] in try catalog.product(id, unlessAt: $0) },
                                      reread: { [catalog] in try catalog.product(id, unlessAt: nil) },
                                      encode: { try .json(ProductDetailResponse($0)) })
            response.headers.set("Vary", "Authorization")
            return response
        }
        let page = try favorites.product(id, for: user)
        var response = try Response.json(ProductDetailResponse(page.detail, isFavorite: page.isFavorite))
        response.headers.set("Cache-Control", "private, no-cache")
        response.headers.set("Vary", "Authorization")
        return .conditional(response, etag: Representation(body: response.body).etag, for: request)
    }

    /// Terms for the search box.
    func suggestions(_ request: Request, _ context: Context) throws -> Response {
        try .json(ItemsResponse(items: try catalog.suggestions(request.query["q"])))
    }

    /// The keywords the most people searched (and found something) in the last 7 days.
    func hot(_ request: Request, _ context: Context) throws -> Response {
        try .json(ItemsResponse(items: try catalog.hotKeywords().map { HotKeywordResponse(keyword: $0.keyword, count: $0.count) }))
    }

    /// The body kept for `key` if `read`, given its version, finds nothing changed; else what
    /// `read` answers, encoded and kept at its version. Then 200 with ETag, or 304. A kept body
    /// older than `countersMaxAge` is served and read again by `reread` in the background (with no
    /// side effect such as counting a search: `read` did that).
    private func answer<Value>(_ request: Request, key: CatalogCacheKey, cacheControl: String,
                               read: (Int64?) throws -> Versioned<Value>,
                               reread: @escaping @Sendable () throws -> Versioned<Value>,
                               encode: @escaping @Sendable (Value) throws -> Response) throws -> Response {
        let held = cache.entry(for: key, maxAge: Self.countersHardMaxAge)
        let representation: Representation
        switch try read(held?.version) {
        case .unchanged:
            guard let held else { preconditionFailure("a read is unchanged only against a version held") }
            representation = held.representation
            if cache.isOlder(held, than: Self.countersMaxAge) {
                refresher.refresh(key) { [cache] in
                    guard case .current(let value, let version)? = try? reread(),
                          let body = try? encode(value).body else { return }
                    cache.store(Representation(body: body), for: key, at: version)
                }
            }
        case .current(let value, let version):
            representation = Representation(body: try encode(value).body)
            cache.store(representation, for: key, at: version)
        }
        var headers = Headers()
        headers.set("Content-Type", "application/json; charset=utf-8")
        headers.set("Cache-Control", cacheControl)
        return .conditional(Response(headers: headers, body: representation.body), etag: representation.etag, for: request)
    }
}

/// What a kept catalogue response answers: the route and every argument that shapes its body.
enum CatalogCacheKey: Hashable, Sendable {
    case categories
    case product(ProductID)
    /// `facets`: the body carries the list's facets (`facets=true`).
    case products(ProductFilter, sort: ProductSort?, page: Int, perPage: Int, facets: Bool)
}
