import SQL

/// Favourites (收藏): products and articles a user keeps. Adding and removing are idempotent; a
/// product's `favorites_count` moves in the same transaction, only when the favourite really
/// changed. Everything here is the user's own and is read from the primary.
public struct FavoriteService: Sendable {
    let pool: any Database
    let clock: Clock
    /// Favourites a user may keep of each kind.
    public let maxPerKind: Int
    private let store = FavoriteStore()

    public init(pool: any Database, clock: Clock, maxPerKind: Int = 1_000) {
        self.pool = pool
        self.clock = clock
        self.maxPerKind = maxPerKind
    }

    /// A product's favourite state after a change: the caller's and everyone's.
    public struct ProductState: Sendable, Equatable {
        public let productID: ProductID
        public let isFavorite: Bool
        public let favoritesCount: Int64
    }

    /// Keeps an on-sale product; unknown and off-sale products are `CatalogError.productNotFound`.
    public func add(product: ProductID, by user: UserID) throws -> ProductState {
        let now = clock.unixNow
        return try pool.write { db in
            try db.serialize(on: Self.lockKey(user))
            guard try db.scalarInt("SELECT COUNT(*) FROM products WHERE id = \(product) AND status = \(ProductStatus.onSale)") == 1 else {
                throw CatalogError.productNotFound
            }
            if try !store.isFavorite(product, by: user, db) {
                guard try store.productCount(of: user, db) < maxPerKind else { throw FavoriteError.limitReached(max: maxPerKind) }
                _ = try store.add(product: product, by: user, at: now, db)
            }
            return ProductState(productID: product, isFavorite: true, favoritesCount: try store.favoritesCount(of: product, db))
        }
    }

    /// Lets a product go (also one taken off sale since); unknown products are `productNotFound`.
    public func remove(product: ProductID, by user: UserID) throws -> ProductState {
        try pool.write { db in
            guard try db.scalarInt("SELECT COUNT(*) FROM products WHERE id = \(product)") == 1 else {
                throw CatalogError.productNotFound
            }
            _ = try store.remove(product: product, by: user, db)
            return ProductState(productID: product, isFavorite: false, favoritesCount: try store.favoritesCount(of: product, db))
        }
    }

    /// Keeps a published article; others are `SocialError.articleNotFound`.
    public func add(article: ArticleID, by user: UserID) throws {
        let now = clock.unixNow
        try pool.write { db in
            try db.serialize(on: Self.lockKey(user))
            guard try db.scalarInt("SELECT COUNT(*) FROM articles a WHERE a.id = \(article) AND \(ArticleStore.visible(at: now))") == 1 else {
                throw SocialError.articleNotFound
            }
            if try !store.isFavorite(article, by: user, db) {
                guard try store.articleCount(of: user, db) < maxPerKind else { throw FavoriteError.limitReached(max: maxPerKind) }
                try store.add(article: article, by: user, at: now, db)
            }
        }
    }

    /// Lets an article go; unknown articles are `articleNotFound`.
    public func remove(article: ArticleID, by user: UserID) throws {
        try pool.write { db in
            guard try db.scalarInt("SELECT COUNT(*) FROM articles WHERE id = \(article)") == 1 else {
                throw SocialError.articleNotFound
            }
            try store.remove(article: article, by: user, db)
        }
    }

    /// The user's favourite products still on sale, newest favourite first.
    public func products(of user: UserID, page: PageRequest) throws -> Page<ProductSummary> {
        try pool.read { db in try store.products(of: user, page: page, db) }
    }

    /// The user's favourite published articles, newest favourite first.
    public func articles(of user: UserID, page: PageRequest) throws -> Page<Article> {
        let now = clock.unixNow
        return try pool.read { db in
            let records = try store.articles(of: user, at: now, page: page, db)
            return Page(items: try ArticleAssembler(viewer: user, now: now).assemble(records.items, db),
                        page: records.page, perPage: records.perPage, total: records.total)
        }
    }

    /// A product page as a signed-in user sees it: with whether they keep it (one read of the primary).
    public func product(_ id: ProductID, for user: UserID) throws -> (detail: ProductDetail, isFavorite: Bool) {
        try pool.read { db in
            guard let detail = try CatalogStore.product(id, db) else { throw CatalogError.productNotFound }
            return (detail, try store.isFavorite(id, by: user, db))
        }
    }

    /// Serialises one user's favourite additions, so racing requests cannot pass the limit together.
    static func lockKey(_ user: UserID) -> String { "favorites:\(user)" }
}
