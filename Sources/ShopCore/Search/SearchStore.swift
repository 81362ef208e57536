import SQLite

/// SQL for suggestions, the search log and the gram table.
struct SearchStore {
    /// Up to `limit` titles and category names containing `text`, those starting with it first.
    /// (Only the shop's own words: what other people typed is never suggested.)
    func suggestions(_ text: String, limit: Int, _ db: Connection) throws -> [String] {
        let prefix = SearchText.likePrefix(text)
        let contains = SearchText.likeContains(text)
        let rows = try db.query("""
            SELECT term, MIN(rank) AS rank, MAX(weight) AS weight FROM (
                SELECT name AS term, CASE WHEN name LIKE ? ESCAPE '\\' THEN 0 ELSE 1 END AS rank, 1000000 AS weight
                FROM categories WHERE name LIKE ? ESCAPE '\\'
                UNION ALL
                SELECT title, CASE WHEN title LIKE ? ESCAPE '\\' THEN 0 ELSE 1 END, sales
                FROM products WHERE status = 'on_sale' AND title LIKE ? ESCAPE '\\'
            )
            GROUP BY term ORDER BY rank, LENGTH(term), weight DESC, term LIMIT ?
            """, prefix, contains, prefix, contains, limit)
        return try rows.map { try $0.string("term") }
    }

    func record(_ keyword: String, at now: Int64, _ db: Connection) throws {
        try db.run("INSERT INTO search_queries (keyword, searched_at) VALUES (?, ?)", keyword, now)
    }

    func hot(since: Int64, limit: Int, _ db: Connection) throws -> [HotKeyword] {
        try db.query("""
            SELECT keyword, COUNT(*) AS n FROM search_queries WHERE searched_at > ?
            GROUP BY keyword ORDER BY n DESC, MAX(searched_at) DESC, keyword LIMIT ?
            """, since, limit).map { HotKeyword(keyword: try $0.string("keyword"), count: try $0.int("n")) }
    }

    /// Rewrites a product's grams from its title (field 0) and subtitle (field 1).
    func indexGrams(product: ProductID, title: String, subtitle: String, _ db: Connection) throws {
        try db.run("DELETE FROM product_grams WHERE product_id = ?", product.rawValue)
        let titleGrams = SearchText.grams(title)
        for gram in titleGrams {
            try db.run("INSERT INTO product_grams (gram, product_id, field) VALUES (?, ?, 0)", gram, product.rawValue)
        }
        for gram in SearchText.grams(subtitle).subtracting(titleGrams) {
            try db.run("INSERT INTO product_grams (gram, product_id, field) VALUES (?, ?, 1)", gram, product.rawValue)
        }
    }

    func purge(before: Int64, _ db: Connection) throws {
        try db.run("DELETE FROM search_queries WHERE searched_at < ?", before)
    }
}
