import ShopCore
import SQL

/// Keeps `search_grams` and `search_texts` (under a pg_trgm index) in step with `products`: both
/// hold on-sale products only.
///
/// Written by the server from `products` in a few set-based statements: the grams are made in SQL
/// (`search_fold`, `substr` over each position: the one- and two-character strings, by Unicode
/// scalar, each under the first field holding it, exactly `SearchText.grams`), so the rows never
/// travel to the client and back, and all of them go into the gram table's primary key in one
/// sorted pass. (Made in Swift and sent 20,000 grams per INSERT, they were most of a 100,000-SKU
/// import's time on PostgreSQL: 115 of its statements' ~260 seconds on a loaded machine.)
extension PostgreSQLSearch {
    public func reindex(_ products: [ProductID], _ db: any SQLConnection) throws {
        guard !products.isEmpty else { return }
        // One array parameter, whatever the count: `{1,2,3}`.
        let ids = "{" + products.map { String($0.rawValue) }.joined(separator: ",") + "}"
        try db.run("DELETE FROM search_grams WHERE product_id = ANY (CAST(\(ids) AS bigint[]))")
        try db.run("DELETE FROM search_texts WHERE product_id = ANY (CAST(\(ids) AS bigint[]))")
        try write(where: "p.id = ANY (CAST(\(ids) AS bigint[]))", db)
    }

    /// `shop db copy`: the new database's `products` arrive without the index.
    public func rebuild(_ db: any SQLConnection) throws {
        try db.run("DELETE FROM search_grams")
        try db.run("DELETE FROM search_texts")
        try write(where: "TRUE", db)
        try db.refreshStatistics(of: indexTables)
    }

    public var indexTables: [String] { ["search_grams", "search_texts"] }

    /// The folded texts and the grams of the on-sale products matching `condition` (on `p`), which
    /// have none yet.
    private func write(where condition: SQL, _ db: any SQLConnection) throws {
        try db.run("""
            INSERT INTO search_texts (product_id, title, subtitle, description)
            SELECT p.id, search_fold(p.title), search_fold(p.subtitle), search_fold(p.description) FROM products p
            WHERE \(condition) AND p.status = \(ProductStatus.onSale)
            ORDER BY p.id
            """)
        // Sorted by the primary key, so its pages are filled in order. An import's 2 million grams
        // need ~130 MB to be grouped in memory (with 64 MB they spilled to disk in 65 batches); the
        // setting lasts until this transaction ends. JIT compiling the plan cost a second and saved less.
        try db.execute(script: "SET LOCAL work_mem = '128MB'; SET LOCAL jit = off")
        try db.run("""
            INSERT INTO search_grams (gram, field, product_id)
            SELECT g.gram, MIN(g.field), g.id FROM (
                SELECT p.id, f.field, substr(f.folded, i, k.width) COLLATE "C" AS gram
                FROM products p
                CROSS JOIN LATERAL (VALUES (0, search_fold(p.title)), (1, search_fold(p.subtitle)),
                                           (2, search_fold(p.description))) AS f(field, folded)
                CROSS JOIN LATERAL generate_series(1, length(f.folded)) AS i
                CROSS JOIN (VALUES (1), (2)) AS k(width)
                WHERE \(condition) AND p.status = \(ProductStatus.onSale) AND i + k.width - 1 <= length(f.folded)
            ) AS g
            GROUP BY g.gram, g.id
            ORDER BY g.gram, 2, g.id
            """)
        try Self.mergePendingTrigrams(db)
    }

    /// New rows of a GIN index wait in its pending list, which every search reads until a vacuum
    /// merges it (and the planner, seeing it, avoids the index): merge them now, once per batch of
    /// writes, far cheaper than entering each row into the index as it comes.
    private static func mergePendingTrigrams(_ db: any SQLConnection) throws {
        _ = try db.query("SELECT gin_clean_pending_list(CAST('search_texts_trgm' AS regclass)) AS merged")
    }
}
