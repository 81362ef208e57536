import ShopCore
import SQL

/// Product search on PostgreSQL: `search_gram_sets` (every one- and two-character string of a
/// product's folded fields, one array per product under a GIN index, and how many products hold
/// each in `search_gram_counts`) answers queries that short; the pg_trgm index on `search_texts`
/// (the folded text) answers longer ones. A walk reads a product's `search_texts` row, already folded.
public struct PostgreSQLSearch: SearchEngine {
    public init() {}

    /// Whether the query is answered from `search_gram_sets`.
    static func usesGrams(_ match: SearchMatch) -> Bool { match.text.unicodeScalars.count <= 2 }

    /// A condition on a `search_gram_sets` row (`alias`): the product holds `gram` and its first
    /// field holding it is in `fields`. An element is that field's digit followed by the gram.
    static func holds(_ gram: String, in fields: [SearchMatch.Field], alias: String) -> SQL {
        let elements = fields.map { field -> SQL in "CAST(\(String(field.rawValue) + gram) AS text)" }
        let column = SQL(stringLiteral: "\(alias).grams")
        return fields.count == 1 ? "\(column) @> ARRAY[\(elements[0])] COLLATE \"C\""
            : "\(column) && ARRAY[\(elements.joined(separator: ", "))] COLLATE \"C\""
    }

    public func source(of match: SearchMatch, in scope: SearchMatch.Scope) -> (from: SQL, condition: SQL) {
        if Self.usesGrams(match) {
            let fields: [SearchMatch.Field] = if case .field(let field) = scope { [field] } else { SearchMatch.Field.allCases }
            return ("search_gram_sets g JOIN products p ON p.id = g.product_id",
                    "\(Self.holds(match.text, in: fields, alias: "g")) AND p.status = \(ProductStatus.onSale)")
        }
        return ("search_texts t JOIN products p ON p.id = t.product_id",
                "p.status = \(ProductStatus.onSale) AND \(Self.candidates(match)) AND \(match.predicate(scope, alias: "t"))")
    }

    /// At most this many of a query's two-character strings are looked up for its candidates.
    static let candidateGrams = 4

    /// A condition on `search_texts t` that holds for every product whose text contains the query
    /// (of three characters or more), and for few others: the pg_trgm index's trigrams when the
    /// query has a letter or a digit, else the products that hold some of its two-character
    /// strings in `search_gram_sets`. pg_trgm takes trigrams only from runs of letters and digits:
    /// from `，。！` none, and its index then reads every entry and rechecks every product (a
    /// sequential scan of `search_texts`: 56 ms over the bench's 25,000 products, 0.4 ms from the
    /// grams). (Not for every query: the products of two common grams, `no` and `o.` in `no.26`,
    /// are the whole catalogue each, 478 ms to intersect where pg_trgm takes 0.5 ms.)
    static func candidates(_ match: SearchMatch) -> SQL {
        if match.text.unicodeScalars.contains(where: SearchPiece.isWordCharacter) {
            return "\(document(of: "t")) LIKE \(SearchText.likeContains(match.text)) ESCAPE '\\'"
        }
        let held = candidateGrams(of: match.text).map { holds($0, in: SearchMatch.Field.allCases, alias: "g") }
        return "t.product_id IN (SELECT g.product_id FROM search_gram_sets g WHERE \(held.joined(separator: " AND ")))"
    }

    /// The two-character strings `candidates` looks up for a text with no letter or digit: its
    /// different ones, at most `candidateGrams`, spread over it.
    static func candidateGrams(of text: String) -> [String] {
        let scalars = Array(text.unicodeScalars)
        var grams: [String] = []
        for start in 0..<max(0, scalars.count - 1) {
            var gram = String.UnicodeScalarView()
            gram.append(contentsOf: scalars[start..<start + 2])
            let text = String(gram)
            if !grams.contains(where: { $0.utf8.elementsEqual(text.utf8) }) { grams.append(text) }
        }
        return SearchPiece.spread(grams, count: candidateGrams)
    }

    /// pg_trgm's trigrams of the LIKE pattern `candidates` writes (its `generate_wildcard_trgm`),
    /// which a product's document must all hold to be a candidate: the trigrams of each run of
    /// letters and digits, padded with two spaces before it when something precedes it in the
    /// query and one space after it when something follows (a padded trigram is held where its
    /// letters begin or end a word). The punctuation between runs is in no trigram: `养护：每天换水，`
    /// is `养护` ending a word, `每天换水` as a word, and thousands of products hold those where
    /// hundreds hold the text. For a text without letters or digits, the grams of `candidateGrams`.
    public func candidatePieces(of text: String) -> [SearchPiece] {
        let scalars = Array(text.unicodeScalars)
        guard scalars.contains(where: SearchPiece.isWordCharacter) else {
            return Self.candidateGrams(of: text).map { SearchPiece($0) }
        }
        var pieces: [SearchPiece] = []
        var start = 0
        while start < scalars.count {
            guard SearchPiece.isWordCharacter(scalars[start]) else {
                start += 1
                continue
            }
            var end = start
            while end < scalars.count, SearchPiece.isWordCharacter(scalars[end]) { end += 1 }
            // nil: a padding space.
            let padded: [Unicode.Scalar?] = (start > 0 ? [nil, nil] : []) + scalars[start..<end].map { $0 }
                + (end < scalars.count ? [nil] : [])
            for first in 0..<max(0, padded.count - 2) {
                let trigram = padded[first..<first + 3]
                var letters = String.UnicodeScalarView()
                letters.append(contentsOf: trigram.compactMap { $0 })
                let piece = SearchPiece(String(letters), startsWord: trigram.first! == nil, endsWord: trigram.last! == nil)
                if !pieces.contains(piece) { pieces.append(piece) }
            }
            start = end
        }
        return pieces
    }

    /// A product's folded fields as one text, what the pg_trgm index on `search_texts` holds. (A
    /// line break cannot be in a query: a match never spans two fields.)
    static func document(of alias: String) -> SQL {
        let alias = SQL(stringLiteral: alias)
        return "(\(alias).title || E'\\n' || \(alias).subtitle || E'\\n' || \(alias).description)"
    }

    /// `alias` names the product's `search_texts` row.
    public func contains(_ match: SearchMatch, _ field: SearchMatch.Field, in alias: String) -> SQL {
        "strpos(\(SQL(stringLiteral: "\(alias).\(field.column)")), \(match.text)) > 0"
    }

    public func countsByField(_ match: SearchMatch, _ db: any SQLConnection) throws -> [Int] {
        if Self.usesGrams(match) {
            let counts = SearchMatch.Field.allCases.map { field -> SQL in
                let element = String(field.rawValue) + match.text
                return "COALESCE((SELECT products FROM search_gram_counts WHERE element = \(element)), 0) AS \(SQL(stringLiteral: field.column))"
            }
            guard let row = try db.queryOne("SELECT \(counts.joined(separator: ", "))") else { return [0, 0, 0] }
            return try SearchMatch.Field.allCases.map { Int(try row.decode($0.column, as: Int64.self)) }
        }
        // One pass, each match counted under the first field that holds the text (each strpos
        // read at most once: three FILTERs read the title three times). A LIKE on the document
        // finds exactly the products with a field that holds the text, unless the text holds a
        // line break (the document's separator); the grams' candidates need the check.
        let title = contains(match, .title, in: "t")
        let subtitle = contains(match, .subtitle, in: "t")
        let exact = Self.documentIsExact(match) ? "" : " AND \(match.predicate(.any, alias: "t"))" as SQL
        var counts = [0, 0, 0]
        for row in try db.query("""
            SELECT CASE WHEN \(title) THEN 0 WHEN \(subtitle) THEN 1 ELSE 2 END AS field, COUNT(*) AS n
            FROM search_texts t WHERE \(Self.candidates(match))\(exact)
            GROUP BY field
            """) {
            counts[Int(try row.decode("field", as: Int64.self))] = Int(try row.decode("n", as: Int64.self))
        }
        return counts
    }

    /// Whether `candidates` is a LIKE on the document that finds exactly the matches: the query
    /// has a letter or a digit (pg_trgm's path) and no line break.
    static func documentIsExact(_ match: SearchMatch) -> Bool {
        !match.text.unicodeScalars.contains("\n")
            && match.text.unicodeScalars.contains(where: { $0.properties.isAlphabetic || $0.properties.numericType != nil })
    }

    /// A walked row costs less than an indexed match: a match from pg_trgm is rechecked, one from
    /// `search_gram_sets` joined row by row.
    public func walkIsCheaper(rows: Int, indexed: Int) -> Bool { rows < 4 * indexed }

    /// The product's folded copy in `search_texts`.
    public var walkedText: (columns: SQL, join: SQL, alias: String) { ("", "JOIN search_texts t ON t.product_id = w.id", "t") }

    /// PostgreSQL plans a walk of the best sellers against the tier's ids as a probe of each
    /// product's text (thousands of rows read): the tier is ranked from the index instead.
    public func bestSellersWalk(of match: SearchMatch, in scope: SearchMatch.Scope, conditions: [SQL], offset: Int, limit: Int) -> SQL? {
        nil
    }

    /// The ids as one array parameter, joined to `products` by its key: PostgreSQL plans `p.id =
    /// ANY (…)` with `ORDER BY p.sales` as a walk of the best sellers that checks each against the
    /// array, and the matches of `No.4` (1,111 among 25,000) are the least sold: 20,000 rows walked.
    public func ranking(_ ids: [ProductID], order: SQL, offset: Int, limit: Int) -> SQL? {
        let array = "{" + ids.map { String($0.rawValue) }.joined(separator: ",") + "}"
        return """
            SELECT p.id FROM unnest(CAST(\(array) AS bigint[])) AS m(id) JOIN products p ON p.id = m.id
            WHERE p.status = \(ProductStatus.onSale) ORDER BY \(order) LIMIT \(limit) OFFSET \(offset)
            """
    }

    public var foldedName: SQL { "search_fold(name)" }
    public var foldedTitle: SQL { "search_fold(title) COLLATE \"C\"" }
    public var titlesByFoldedTitle: SQL { "products" }
    public func nameContains(_ folded: String) -> SQL { "strpos(search_fold(name), \(folded)) > 0" }

    public var laterFoundAt: SQL { "GREATEST(search_searchers.last_found_at, excluded.last_found_at)" }
    public func containsWord(of wordsJSON: String) -> SQL {
        """
        SELECT 1 FROM jsonb_array_elements_text(CAST(\(wordsJSON) AS jsonb)) AS words(value)
        WHERE strpos(replace(keyword, ' ', ''), value) > 0
        """
    }
}
