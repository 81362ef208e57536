import ShopCore
import SQL

/// Product search on SQLite: the FTS5 table `search_fts` (the `shop_grams` tokenizer makes every
/// substring findable, from one character), and `lower()`, which folds as the index does.
public struct SQLiteSearch: SearchEngine {
    public init() {}

    /// Products per statement.
    static let productsPerBatch = 1_000

    public func reindex(_ products: [ProductID], _ db: any SQLConnection) throws {
        var start = 0
        while start < products.count {
            let batch = products[start..<min(start + Self.productsPerBatch, products.count)]
            start += Self.productsPerBatch
            try db.run("DELETE FROM search_fts WHERE rowid IN (\(list: batch))")
            try db.run("""
                INSERT INTO search_fts (rowid, title, subtitle, description)
                SELECT id, title, subtitle, description FROM products WHERE id IN (\(list: batch)) AND status = \(ProductStatus.onSale)
                """)
        }
    }

    /// The index travels with the database file.
    public func rebuild(_ db: any SQLConnection) throws {}

    public var indexTables: [String] { ["search_fts"] }

    /// The FTS5 table's matches joined to their products (other columns of `p` may be read only
    /// from `products_listing`).
    public func source(of match: SearchMatch, in scope: SearchMatch.Scope) -> (from: SQL, condition: SQL) {
        if let candidates = Self.candidates(match) {
            // The product's own row is read for its text: the listing index would only add a lookup.
            return ("""
                 (SELECT rowid AS pid FROM search_fts WHERE search_fts MATCH \(candidates)) m
                 CROSS JOIN products p ON p.id = m.pid
                 """, "p.status = \(ProductStatus.onSale) AND \(match.predicate(scope, alias: "p"))")
        }
        return ("""
         (SELECT rowid AS pid FROM search_fts WHERE search_fts MATCH \(Self.ftsQuery(match, scope))) m
         CROSS JOIN products p INDEXED BY products_listing ON p.id = m.pid
         """, "p.status = \(ProductStatus.onSale)")
    }

    /// `alias` names the product's own row.
    public func contains(_ match: SearchMatch, _ field: SearchMatch.Field, in alias: String) -> SQL {
        let column = SQL(stringLiteral: "\(alias).\(field.column)")
        // Folding changes only ASCII letters: a query without any matches the text as it is, and
        // a walk then copies no row through lower().
        if !match.text.utf8.contains(where: { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) {
            return "instr(\(column), \(match.text)) > 0"
        }
        return "instr(lower(\(column)), \(match.text)) > 0"
    }

    public func countsByField(_ match: SearchMatch, _ db: any SQLConnection) throws -> [Int] {
        if let candidates = Self.candidates(match) {
            // One pass over the candidates, each given the first field that holds the text (NULL:
            // none), so each field is read at most once (a WHERE on any field read the title and the
            // subtitle twice), then summed. Not GROUP BY on that CASE: SQLite's sorter then carries
            // the columns the CASE reads, the three texts of every candidate, which spilled to a
            // temporary file (5 MB written for a care-text query's 25,000 candidates: 66 → 31 ms
            // CPU in the sqlite3 shell). `LIMIT -1` keeps the subquery a co-routine that yields the
            // field alone (flattened, each SUM would read the fields again).
            let title = contains(match, .title, in: "p"), subtitle = contains(match, .subtitle, in: "p")
            let description = contains(match, .description, in: "p")
            guard let row = try db.queryOne("""
                SELECT SUM(field = 0) AS title, SUM(field = 1) AS subtitle, SUM(field = 2) AS description FROM (
                    SELECT CASE WHEN \(title) THEN 0 WHEN \(subtitle) THEN 1 WHEN \(description) THEN 2 END AS field
                    FROM (SELECT rowid AS pid FROM search_fts WHERE search_fts MATCH \(candidates)) m
                    CROSS JOIN products p ON p.id = m.pid
                    WHERE p.status = \(ProductStatus.onSale)
                    LIMIT -1)
                """) else { return [0, 0, 0] }
            return try SearchMatch.Field.allCases.map { Int(try row.decode($0.column, as: Int64?.self) ?? 0) }
        }
        // Title, title or subtitle, any: one phrase each (cheaper for FTS5 than the NOTs that
        // name a tier exactly), then the differences.
        let phrase = SearchText.ftsPhrase(match.text)
        let cumulative = try ["{title} : \(phrase)", "{title subtitle} : \(phrase)", phrase].map { query in
            Int(try db.scalarInt("SELECT COUNT(*) FROM search_fts WHERE search_fts MATCH \(query)") ?? 0)
        }
        return [cumulative[0], cumulative[1] - cumulative[0], cumulative[2] - cumulative[1]]
    }

    /// A walked row (the product's text) costs a little more than an indexed match.
    public func walkIsCheaper(rows: Int, indexed: Int) -> Bool { 3 * rows < 2 * indexed }

    /// The product's own row.
    public var walkedText: (columns: SQL, join: SQL, alias: String) { (", p.title, p.subtitle, p.description", "", "w") }

    /// Walks the best sellers' index against the tier's ids from the FTS5 table: reads no text
    /// and stops at the page wherever it is.
    public func bestSellersWalk(of match: SearchMatch, in scope: SearchMatch.Scope, conditions: [SQL], offset: Int, limit: Int) -> SQL? {
        let candidates = Self.candidates(match)
        let ids: SQL = "SELECT rowid FROM search_fts WHERE search_fts MATCH \(candidates ?? Self.ftsQuery(match, scope))"
        let exact: [SQL] = candidates == nil ? [] : [match.predicate(scope, alias: "p")]
        let all = (["p.status = \(ProductStatus.onSale)", "p.id IN (\(ids))"] + exact + conditions).joined(separator: " AND ")
        return "SELECT p.id FROM products p INDEXED BY products_by_sales WHERE \(all) ORDER BY p.sales DESC, p.id DESC LIMIT \(limit) OFFSET \(offset)"
    }

    /// SQLite walks the best sellers' index against the FTS matches (`bestSellersWalk`).
    public func ranking(_ ids: [ProductID], order: SQL, offset: Int, limit: Int) -> SQL? { nil }

    public var foldedName: SQL { "lower(name)" }
    public var foldedTitle: SQL { "lower(title)" }
    /// (Without statistics SQLite prefers the status index and folds every title: name the index.)
    public var titlesByFoldedTitle: SQL { "products INDEXED BY products_by_search_title" }
    public func nameContains(_ folded: String) -> SQL { "instr(lower(name), \(folded)) > 0" }

    public var laterFoundAt: SQL { "max(last_found_at, excluded.last_found_at)" }
    public func containsWord(of wordsJSON: String) -> SQL {
        "SELECT 1 FROM json_each(\(wordsJSON)) WHERE instr(replace(keyword, ' ', ''), value) > 0"
    }

    /// Phrases of more trigrams than this are found as candidates, then checked in the text.
    static let phraseTrigrams = 2
    /// At most this many of a long query's trigrams are looked up for its candidates.
    static let candidateTrigrams = 4

    /// For a query of more than `phraseTrigrams` trigrams (5 characters or more): an FTS5 query for
    /// a superset of its matches, some of its trigrams anywhere in the product (each quoted, so
    /// nothing is syntax), to be checked against the text (`SearchMatch.predicate`); nil for a
    /// shorter query, which its phrase answers exactly.
    ///
    /// FTS5 matches a phrase by reading the position list of each of its trigrams in every product
    /// that holds them all: a 40-character run of the care text every description repeats was 38
    /// position lists in 25,000 products, three times over for the counts (1.8 s cold in a debug
    /// build on a busy machine). Looking up a few of its trigrams, anywhere, reads a fraction of
    /// that without positions, and checking the text of each candidate costs less than one list.
    /// (Which trigrams: any will do for the answer, since the text decides; spread ones for a rare one.)
    static func candidates(_ match: SearchMatch) -> String? {
        guard match.text.unicodeScalars.count - 2 > phraseTrigrams else { return nil }
        return candidateTrigrams(of: match.text).map(SearchText.ftsPhrase).joined(separator: " AND ")
    }

    /// The text's different trigrams, in order, at most `candidateTrigrams` of them: the first,
    /// the last and others spread evenly between them. (A repeated text, `no.no.no.`, has few,
    /// and one that straddles the repeat, `o.n`, is often the rarest.)
    static func candidateTrigrams(of text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var trigrams: [String] = []
        for start in 0..<max(0, scalars.count - 2) {
            var trigram = String.UnicodeScalarView()
            trigram.append(contentsOf: scalars[start..<start + 3])
            let text = String(trigram)
            if !trigrams.contains(where: { $0.utf8.elementsEqual(text.utf8) }) { trigrams.append(text) }
        }
        return SearchPiece.spread(trigrams, count: candidateTrigrams)
    }

    /// The trigrams `candidates` looks up, anywhere in the product; for a text of three or four
    /// characters, its phrase's (which the matches hold in a row: the candidates are about the matches).
    public func candidatePieces(of text: String) -> [SearchPiece] {
        Self.candidateTrigrams(of: text).map { SearchPiece($0) }
    }

    /// The FTS5 query for `scope`: the text as one quoted string, so nothing in it is syntax.
    static func ftsQuery(_ match: SearchMatch, _ scope: SearchMatch.Scope) -> String {
        let phrase = SearchText.ftsPhrase(match.text)
        switch scope {
        case .any: return phrase
        case .field(.title): return "{title} : \(phrase)"
        case .field(.subtitle): return "{subtitle} : \(phrase) NOT {title} : \(phrase)"
        case .field(.description): return "{description} : \(phrase) NOT {title subtitle} : \(phrase)"
        }
    }
}
