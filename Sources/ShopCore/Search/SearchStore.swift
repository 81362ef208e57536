import Foundation
import SQL

/// SQL for suggestions, the search log and the gram table.
struct SearchStore {
    /// Up to `limit` titles and category names containing `text`, those starting with it first.
    /// (Only the shop's own words: what other people typed is never suggested.)
    func suggestions(_ text: String, limit: Int, _ db: any SQLConnection) throws -> [String] {
        let prefix = SearchText.likePrefix(text)
        let contains = SearchText.likeContains(text)
        let rows = try db.query("""
            SELECT term, MIN(rank) AS rank, MAX(weight) AS weight FROM (
                SELECT name AS term, CASE WHEN lower(name) LIKE lower(\(prefix)) ESCAPE '\\' THEN 0 ELSE 1 END AS rank,
                       1000000 AS weight
                FROM categories WHERE lower(name) LIKE lower(\(contains)) ESCAPE '\\'
                UNION ALL
                SELECT title, CASE WHEN lower(title) LIKE lower(\(prefix)) ESCAPE '\\' THEN 0 ELSE 1 END, sales
                FROM products WHERE status = 'on_sale' AND lower(title) LIKE lower(\(contains)) ESCAPE '\\'
            ) AS terms
            GROUP BY term ORDER BY rank, LENGTH(term), weight DESC, term LIMIT \(limit)
            """)
        return try rows.map { try $0.decode("term") }
    }

    /// One search for the hot keywords: what, by whom (a `Visitor` key) and whether it found anything.
    struct LoggedSearch {
        let keyword: String
        let searcher: String
        let found: Bool
        let at: Int64
    }

    func record(_ search: LoggedSearch, _ db: any SQLConnection) throws {
        try db.run("""
            INSERT INTO search_queries (keyword, searcher, found, searched_at)
            VALUES (\(search.keyword), \(search.searcher), \(search.found), \(search.at))
            """)
    }

    /// Keywords that found something, by distinct searchers (at least `minSearchers`), leaving out any
    /// containing a blocked word (spaces ignored, so `加 微 信` is caught too).
    func hot(since: Int64, minSearchers: Int, blocked: [String], limit: Int, _ db: any SQLConnection) throws -> [HotKeyword] {
        let blockedJSON = String(decoding: try JSONSerialization.data(withJSONObject: blocked), as: UTF8.self)
        // The blocked words arrive as one JSON array; each engine has its own way to unpack it and
        // to find a word inside a keyword.
        let containsBlocked: SQL = switch db.dialect {
        case .sqlite:
            "SELECT 1 FROM json_each(\(blockedJSON)) WHERE instr(replace(keyword, ' ', ''), value) > 0"
        case .postgresql:
            """
            SELECT 1 FROM jsonb_array_elements_text(CAST(\(blockedJSON) AS jsonb)) AS words(value)
            WHERE strpos(replace(keyword, ' ', ''), value) > 0
            """
        }
        return try db.query("""
            SELECT keyword, COUNT(DISTINCT searcher) AS n FROM search_queries
            WHERE searched_at > \(since) AND found = 1
            GROUP BY keyword
            HAVING COUNT(DISTINCT searcher) >= \(minSearchers)
               AND NOT EXISTS (\(containsBlocked))
            ORDER BY n DESC, MAX(searched_at) DESC, keyword LIMIT \(limit)
            """).map { HotKeyword(keyword: try $0.decode("keyword"), count: try $0.decode("n")) }
    }

    /// Rewrites a product's grams from its title (field 0) and subtitle (field 1).
    func indexGrams(product: ProductID, title: String, subtitle: String, _ db: any SQLConnection) throws {
        try db.run("DELETE FROM product_grams WHERE product_id = \(product)")
        let titleGrams = SearchText.grams(title)
        for gram in titleGrams {
            try db.run("INSERT INTO product_grams (gram, product_id, field) VALUES (\(gram), \(product), 0)")
        }
        for gram in SearchText.grams(subtitle).subtracting(titleGrams) {
            try db.run("INSERT INTO product_grams (gram, product_id, field) VALUES (\(gram), \(product), 1)")
        }
    }

    func purge(before: Int64, _ db: any SQLConnection) throws {
        try db.run("DELETE FROM search_queries WHERE searched_at < \(before)")
    }
}
