import SQL

/// The SQL that finds a search's matches, per engine. A product matches when one of its folded
/// fields contains the folded query; its field is the first that does (title, subtitle,
/// description). Two ways to find them, giving the same set:
///
/// - the index: SQLite's FTS5 table (`shop_grams`: every query length); on PostgreSQL
///   `search_grams` for one or two characters, the pg_trgm index on `search_texts` for more;
/// - the text itself (`contains`), for a walk down the best sellers that stops at the page: the
///   product's own row on SQLite (`lower()` folds as the index does), its `search_texts` row
///   (already folded) on PostgreSQL.
struct SearchMatch {
    enum Field: Int, CaseIterable {
        case title, subtitle, description

        var column: String {
            switch self {
            case .title: "title"
            case .subtitle: "subtitle"
            case .description: "description"
            }
        }

        /// The fields ranked above this one.
        var better: [Field] { Field.allCases.filter { $0.rawValue < rawValue } }
    }

    /// Which matches: those whose first matching field is `field`, or any.
    enum Scope: Equatable {
        case field(Field)
        case any
    }

    /// The folded query.
    let text: String
    let dialect: SQLDialect

    /// PostgreSQL answers one- and two-character queries from `search_grams`.
    var usesGrams: Bool { dialect == .postgresql && text.unicodeScalars.count <= 2 }

    /// A source of on-sale products in `scope`, as `FROM` text that names the product `p` (other
    /// columns of `p` may be read only from `products_listing` on SQLite), and its condition.
    func source(_ scope: Scope) -> (from: SQL, condition: SQL) {
        switch dialect {
        case .sqlite:
            return ("""
                (SELECT rowid AS pid FROM search_fts WHERE search_fts MATCH \(ftsQuery(scope))) m
                CROSS JOIN products p INDEXED BY products_listing ON p.id = m.pid
                """, "p.status = \(ProductStatus.onSale)")
        case .postgresql where usesGrams:
            let field: SQL = if case .field(let field) = scope { " AND g.field = \(field.rawValue)" } else { "" }
            return ("search_grams g JOIN products p ON p.id = g.product_id",
                    "g.gram = \(text)\(field) AND p.status = \(ProductStatus.onSale)")
        case .postgresql:
            return ("search_texts t JOIN products p ON p.id = t.product_id",
                    "p.status = \(ProductStatus.onSale) AND \(Self.document(of: "t")) LIKE \(SearchText.likeContains(text)) ESCAPE '\\' AND \(predicate(scope, alias: "t"))")
        }
    }

    /// PostgreSQL: a product's folded fields as one text, what the pg_trgm index on `search_texts`
    /// holds. (A line break cannot be in a query: a match never spans two fields.)
    static func document(of alias: String) -> SQL {
        let alias = SQL(stringLiteral: alias)
        return "(\(alias).title || E'\\n' || \(alias).subtitle || E'\\n' || \(alias).description)"
    }

    /// SQLite: the ids of the on-sale products in `scope`, from the FTS5 table alone.
    func ids(_ scope: Scope) -> SQL {
        "SELECT rowid FROM search_fts WHERE search_fts MATCH \(ftsQuery(scope))"
    }

    /// Whether the product is in `scope`, read from its text (no index): `alias` names the
    /// product's row on SQLite, its `search_texts` row on PostgreSQL.
    func predicate(_ scope: Scope, alias: String) -> SQL {
        switch scope {
        case .field(let field):
            ([contains(field, in: alias)] + field.better.map { "NOT \(contains($0, in: alias))" }).joined(separator: " AND ")
        case .any:
            "(" + Field.allCases.map { contains($0, in: alias) }.joined(separator: " OR ") + ")"
        }
    }

    /// The field holds the query: `alias` names the product's row on SQLite, its `search_texts`
    /// row on PostgreSQL.
    func contains(_ field: Field, in alias: String) -> SQL {
        let column = SQL(stringLiteral: "\(alias).\(field.column)")
        return switch dialect {
        case .sqlite: "instr(lower(\(column)), \(text)) > 0"
        case .postgresql: "strpos(\(column), \(text)) > 0"
        }
    }

    /// The FTS5 query for `scope`: the text as one quoted string, so nothing in it is syntax.
    func ftsQuery(_ scope: Scope) -> String {
        let phrase = SearchText.ftsPhrase(text)
        switch scope {
        case .any: return phrase
        case .field(.title): return "{title} : \(phrase)"
        case .field(.subtitle): return "{subtitle} : \(phrase) NOT {title} : \(phrase)"
        case .field(.description): return "{description} : \(phrase) NOT {title subtitle} : \(phrase)"
        }
    }

    /// Matches per field (in `Field` order) among all on-sale products, from the index alone.
    func countsByField(_ db: any SQLConnection) throws -> [Int] {
        switch dialect {
        case .sqlite:
            // Title, title or subtitle, any: one phrase each (cheaper for FTS5 than the NOTs that
            // name a tier exactly), then the differences.
            let phrase = SearchText.ftsPhrase(text)
            let cumulative = try ["{title} : \(phrase)", "{title subtitle} : \(phrase)", phrase].map { query in
                Int(try db.scalarInt("SELECT COUNT(*) FROM search_fts WHERE search_fts MATCH \(query)") ?? 0)
            }
            return [cumulative[0], cumulative[1] - cumulative[0], cumulative[2] - cumulative[1]]
        case .postgresql where usesGrams:
            var counts = [0, 0, 0]
            for row in try db.query("SELECT field, COUNT(*) AS n FROM search_grams WHERE gram = \(text) GROUP BY field") {
                counts[Int(try row.decode("field", as: Int64.self))] = Int(try row.decode("n", as: Int64.self))
            }
            return counts
        case .postgresql:
            let title = contains(.title, in: "t")
            let subtitle = contains(.subtitle, in: "t")
            guard let row = try db.queryOne("""
                SELECT COUNT(*) FILTER (WHERE \(title)) AS title,
                       COUNT(*) FILTER (WHERE NOT \(title) AND \(subtitle)) AS subtitle,
                       COUNT(*) FILTER (WHERE NOT \(title) AND NOT \(subtitle)) AS description
                FROM search_texts t WHERE \(Self.document(of: "t")) LIKE \(SearchText.likeContains(text)) ESCAPE '\\'
                """) else { return [0, 0, 0] }
            return try Field.allCases.map { Int(try row.decode($0.column, as: Int64.self)) }
        }
    }
}
