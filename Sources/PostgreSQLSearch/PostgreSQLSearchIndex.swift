import ShopCore
import SQL

/// Keeps `search_gram_sets` (with `search_gram_counts`) and `search_texts` (under a pg_trgm index)
/// in step with `products`: both hold on-sale products only.
///
/// Written by the server from `products` in a few set-based statements: the folded texts first,
/// then from them each product's grams (`substr` over each position: the one- and two-character
/// strings, by Unicode scalar, each under the first field holding it, exactly `SearchText.grams`)
/// as one array, so nothing travels to the client and back. (One row per gram and product under
/// two B-trees, 2 million rows for a 100,000-SKU import, was most of its time on PostgreSQL; one
/// array per product enters the GIN index in one sorted merge of its pending list.)
extension PostgreSQLSearch {
    public func reindex(_ products: [ProductID], _ db: any SQLConnection) throws {
        guard !products.isEmpty else { return }
        // One array parameter, whatever the count: `{1,2,3}`.
        let ids = "{" + products.map { String($0.rawValue) }.joined(separator: ",") + "}"
        try db.run("""
            WITH gone AS (DELETE FROM search_gram_sets WHERE product_id = ANY (CAST(\(ids) AS bigint[])) RETURNING grams)
            UPDATE search_gram_counts c SET products = c.products - d.products
            FROM (SELECT e AS element, COUNT(*) AS products FROM gone, unnest(gone.grams) AS e GROUP BY e) AS d
            WHERE c.element = d.element
            """)
        try db.run("DELETE FROM search_texts WHERE product_id = ANY (CAST(\(ids) AS bigint[]))")
        try write(where: "p.id = ANY (CAST(\(ids) AS bigint[]))", db)
    }

    /// `shop db copy`: the new database's `products` arrive without the index.
    public func rebuild(_ db: any SQLConnection) throws {
        try db.run("DELETE FROM search_gram_sets")
        try db.run("DELETE FROM search_gram_counts")
        try db.run("DELETE FROM search_texts")
        try write(where: "TRUE", db)
        try db.refreshStatistics(of: indexTables)
    }

    public var indexTables: [String] { ["search_gram_sets", "search_gram_counts", "search_texts"] }

    /// The folded texts and the grams of the on-sale products matching `condition` (on `p`), which
    /// have none yet.
    private func write(where condition: SQL, _ db: any SQLConnection) throws {
        try db.run("""
            INSERT INTO search_texts (product_id, title, subtitle, description)
            SELECT p.id, search_fold(p.title), search_fold(p.subtitle), search_fold(p.description) FROM products p
            WHERE \(condition) AND p.status = \(ProductStatus.onSale)
            ORDER BY p.id
            """)
        // Each element is the digit of the gram's first field and the gram (see migration 0042):
        // each field split into its characters (Unicode scalars, as `substr` counts), zipped with
        // itself one further for the two-character strings, each gram once under its first field.
        // The products holding each element are counted as they are written (a search's tier sizes).
        // JIT compiling the plan costs more than it saves.
        try db.execute(script: "SET LOCAL jit = off")
        try db.run("""
            WITH written AS (
            INSERT INTO search_gram_sets (product_id, grams)
            SELECT t.product_id, ARRAY(
                SELECT DISTINCT ON (g.gram) f.field || g.gram
                FROM (VALUES ('0', string_to_array(t.title, NULL)), ('1', string_to_array(t.subtitle, NULL)),
                             ('2', string_to_array(t.description, NULL))) AS f(field, c)
                CROSS JOIN LATERAL unnest(f.c, f.c[2:]) AS u(a, b)
                CROSS JOIN LATERAL (VALUES (u.a COLLATE "C"), (u.a || u.b COLLATE "C")) AS g(gram)
                WHERE g.gram IS NOT NULL
                ORDER BY g.gram, f.field)
            FROM search_texts t JOIN products p ON p.id = t.product_id
            WHERE \(condition) AND p.status = \(ProductStatus.onSale)
            ORDER BY t.product_id
            RETURNING grams)
            INSERT INTO search_gram_counts (element, products)
            SELECT e, COUNT(*) FROM written, unnest(written.grams) AS e GROUP BY e ORDER BY e
            ON CONFLICT (element) DO UPDATE SET products = search_gram_counts.products + excluded.products
            """)
        try Self.mergePending(db)
    }

    /// New rows of a GIN index wait in its pending list, which every search reads until a vacuum
    /// merges it (and the planner, seeing it, avoids the index): merge them now, once per batch of
    /// writes, far cheaper than entering each row into the index as it comes.
    private static func mergePending(_ db: any SQLConnection) throws {
        _ = try db.query("""
            SELECT gin_clean_pending_list(CAST('search_texts_trgm' AS regclass)) AS texts,
                   gin_clean_pending_list(CAST('search_gram_sets_grams' AS regclass)) AS grams
            """)
    }
}
