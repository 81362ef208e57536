import SQL

/// Rows of `product_favorites` and `article_favorites` (migration 0016), and the products' counts
/// in `product_favorite_counts` (0024: kept off the `products` row, so a click moves no list's version).
struct FavoriteStore {
    /// Adds a favourite unless it is there; answers whether it was added.
    func add(product: ProductID, by user: UserID, at now: Int64, _ db: any SQLConnection) throws -> Bool {
        let added = try db.run("""
            INSERT INTO product_favorites (user_id, product_id, created_at) VALUES (\(user), \(product), \(now))
            ON CONFLICT DO NOTHING
            """) == 1
        if added {
            try db.run("""
                INSERT INTO product_favorite_counts (product_id, favorites_count) VALUES (\(product), 1)
                ON CONFLICT (product_id) DO UPDATE SET favorites_count = product_favorite_counts.favorites_count + 1
                """)
        }
        return added
    }

    /// Removes a favourite if it is there; answers whether it was.
    func remove(product: ProductID, by user: UserID, _ db: any SQLConnection) throws -> Bool {
        let removed = try db.run("DELETE FROM product_favorites WHERE user_id = \(user) AND product_id = \(product)") == 1
        if removed {
            try db.run("UPDATE product_favorite_counts SET favorites_count = favorites_count - 1 WHERE product_id = \(product)")
        }
        return removed
    }

    func add(article: ArticleID, by user: UserID, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("""
            INSERT INTO article_favorites (user_id, article_id, created_at) VALUES (\(user), \(article), \(now))
            ON CONFLICT DO NOTHING
            """)
    }

    func remove(article: ArticleID, by user: UserID, _ db: any SQLConnection) throws {
        try db.run("DELETE FROM article_favorites WHERE user_id = \(user) AND article_id = \(article)")
    }

    func isFavorite(_ product: ProductID, by user: UserID, _ db: any SQLConnection) throws -> Bool {
        try db.scalarInt("SELECT COUNT(*) FROM product_favorites WHERE user_id = \(user) AND product_id = \(product)") == 1
    }

    func isFavorite(_ article: ArticleID, by user: UserID, _ db: any SQLConnection) throws -> Bool {
        try db.scalarInt("SELECT COUNT(*) FROM article_favorites WHERE user_id = \(user) AND article_id = \(article)") == 1
    }

    func productCount(of user: UserID, _ db: any SQLConnection) throws -> Int {
        Int(try db.scalarInt("SELECT COUNT(*) FROM product_favorites WHERE user_id = \(user)") ?? 0)
    }

    func articleCount(of user: UserID, _ db: any SQLConnection) throws -> Int {
        Int(try db.scalarInt("SELECT COUNT(*) FROM article_favorites WHERE user_id = \(user)") ?? 0)
    }

    func favoritesCount(of product: ProductID, _ db: any SQLConnection) throws -> Int64 {
        try db.scalarInt("SELECT favorites_count FROM product_favorite_counts WHERE product_id = \(product)") ?? 0
    }

    /// A page of the user's on-sale favourite products, the newest favourite first.
    func products(of user: UserID, page: PageRequest, _ db: any SQLConnection) throws -> Page<ProductSummary> {
        let from: SQL = """
            FROM product_favorites f JOIN products p ON p.id = f.product_id
            WHERE f.user_id = \(user) AND p.status = \(ProductStatus.onSale)
            """
        return try db.page(page, count: "SELECT COUNT(*) \(from)",
                           rows: "SELECT \(CatalogStore.summaryColumns) \(from) ORDER BY f.created_at DESC, f.product_id DESC",
                           each: CatalogStore.summary)
    }

    /// A page of the user's favourite published articles, the newest favourite first.
    func articles(of user: UserID, at now: Int64, page: PageRequest, _ db: any SQLConnection) throws -> Page<ArticleStore.ArticleRecord> {
        let from: SQL = """
            FROM article_favorites f JOIN articles a ON a.id = f.article_id
            WHERE f.user_id = \(user) AND \(ArticleStore.visible(at: now))
            """
        return try db.page(page, count: "SELECT COUNT(*) \(from)",
                           rows: "SELECT \(ArticleStore.columns) \(from) ORDER BY f.created_at DESC, f.article_id DESC",
                           each: ArticleStore.article)
    }
}
