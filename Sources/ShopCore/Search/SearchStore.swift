import Foundation
import SQL

/// SQL for suggestions and the search counts behind hot keywords.
struct SearchStore {
    let engine: any SearchEngine

    /// Up to `limit` category names and on-sale product titles containing `text` (folded), those
    /// starting with it first: categories (shortest first), then titles (in folded order), then the
    /// other categories, then the other titles (best sellers first). Each part comes from an index,
    /// so a common character costs no more than a rare one.
    /// (Only the shop's own words: what other people typed is never suggested.)
    func suggestions(_ text: String, limit: Int, titles search: ProductSearch, _ db: any SQLConnection) throws -> [String] {
        let folded = SearchText.fold(text)
        let key = Array(folded.utf8)
        func startsWithQuery(_ term: String) -> Bool { SearchText.fold(term).utf8.starts(with: key) }

        let foldedTitle = engine.foldedTitle
        let categories = try db.query("SELECT DISTINCT name, \(engine.foldedName) AS folded FROM categories WHERE \(engine.nameContains(folded))")
            .map { (name: try $0.decode("name", as: String.self), folded: try $0.decode("folded", as: String.self)) }
            .sorted { first, second in
                let lengths = (first.folded.unicodeScalars.count, second.folded.unicodeScalars.count)
                return lengths.0 != lengths.1 ? lengths.0 < lengths.1 : Array(first.name.utf8).lexicographicallyPrecedes(second.name.utf8)
            }
            .map(\.name)
        // Titles starting with the text: a range of the index on the folded title (every string
        // that starts with it sorts below it followed by U+10FFFF).
        let upper = folded + "\u{10FFFF}"
        let prefixed = try db.query("""
            SELECT title FROM \(engine.titlesByFoldedTitle)
            WHERE status = 'on_sale' AND \(foldedTitle) >= \(folded) AND \(foldedTitle) < \(upper)
            ORDER BY \(foldedTitle), title LIMIT \(3 * limit)
            """).map { try $0.decode("title", as: String.self) }
        let containing = try search.titleMatches(folded, limit: 3 * limit, db)

        var terms: [String] = []
        var seen = Set<[UInt8]>()
        func add(_ candidates: [String]) {
            for term in candidates where terms.count < limit && seen.insert(Array(term.utf8)).inserted {
                terms.append(term)
            }
        }
        add(categories.filter(startsWithQuery))
        add(prefixed)
        add(categories.filter { !startsWithQuery($0) })
        add(containing.filter { !startsWithQuery($0) })
        return terms
    }

    /// At most this many different people are kept per keyword and day (a keyword searched by
    /// more is hot anyway; the hot list's count then says "at least").
    static let maxSearchersPerDay = 1_000

    /// Adds a node's tally to the shared counts: searches per keyword and day, and who found
    /// something. On PostgreSQL the count's row is locked first, so nodes adding the same keyword
    /// and day queue there and the cap on its searchers holds across them.
    func add(_ tally: SearchTally, _ db: any SQLConnection) throws {
        let later = engine.laterFoundAt
        for (key, counts) in tally.ordered {
            try db.run("""
                INSERT INTO search_counts (day, keyword, searches, found) VALUES (\(key.day), \(key.keyword), \(counts.searches), \(counts.found))
                ON CONFLICT (day, keyword) DO UPDATE
                SET searches = search_counts.searches + excluded.searches, found = search_counts.found + excluded.found
                """)
            for (searcher, at) in counts.searchers.sorted(by: { Array($0.key.utf8).lexicographicallyPrecedes($1.key.utf8) }) {
                try db.run("""
                    INSERT INTO search_searchers (keyword, day, searcher, last_found_at)
                    SELECT CAST(\(key.keyword) AS TEXT), \(key.day), CAST(\(searcher) AS TEXT), \(at)
                    WHERE EXISTS (SELECT 1 FROM search_searchers WHERE keyword = \(key.keyword) AND day = \(key.day) AND searcher = \(searcher))
                       OR (SELECT COUNT(*) FROM search_searchers WHERE keyword = \(key.keyword) AND day = \(key.day)) < \(Self.maxSearchersPerDay)
                    ON CONFLICT (keyword, day, searcher) DO UPDATE SET last_found_at = \(later)
                    """)
            }
        }
    }

    /// Keywords that found something, by distinct searchers (at least `minSearchers`), leaving out any
    /// containing a blocked word (spaces ignored, so `加 微 信` is caught too).
    func hot(since: Int64, minSearchers: Int, blocked: [String], limit: Int, _ db: any SQLConnection) throws -> [HotKeyword] {
        let blockedJSON = String(decoding: try JSONSerialization.data(withJSONObject: blocked), as: UTF8.self)
        // The blocked words arrive as one JSON array; each engine has its own way to unpack it and
        // to find a word inside a keyword.
        let containsBlocked = engine.containsWord(of: blockedJSON)
        // Rows per keyword, day and searcher whose last finding search is this week: the distinct
        // searchers are the number of different people.
        return try db.query("""
            SELECT keyword, COUNT(DISTINCT searcher) AS n FROM search_searchers
            WHERE last_found_at > \(since)
            GROUP BY keyword
            HAVING COUNT(DISTINCT searcher) >= \(minSearchers)
               AND NOT EXISTS (\(containsBlocked))
            ORDER BY n DESC, MAX(last_found_at) DESC, keyword LIMIT \(limit)
            """).map { HotKeyword(keyword: try $0.decode("keyword"), count: try $0.decode("n")) }
    }

    /// Drops the counts of days before the one `counts` falls in, and searchers last seen before `searchers`.
    func purge(counts: Int64, searchers: Int64, _ db: any SQLConnection) throws {
        try db.run("DELETE FROM search_counts WHERE day < \(counts / 86_400)")
        try db.run("DELETE FROM search_searchers WHERE last_found_at < \(searchers)")
    }
}
