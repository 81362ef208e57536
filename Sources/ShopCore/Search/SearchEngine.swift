import SQL

/// The engine's half of product search: the index and the SQL that differ between SQLite (FTS5)
/// and PostgreSQL (pg_trgm and a gram table); `SQLiteSearch` and `PostgreSQLSearch` implement it,
/// and the composition root gives the shop the one that matches its database.
///
/// Whoever changes a product's title, subtitle, description or status calls `reindex` in the same
/// transaction, once for all the products it changed (the catalogue import does); `shop db copy`
/// calls `rebuild` on the new PostgreSQL database, whose `products` arrive without the index.
/// (Not triggers: SQLite's FTS5 writes a segment per statement that touches it, so a trigger per
/// product turned an import into thousands of tiny segments and their merging.)
public protocol SearchEngine: Sendable {
    /// Rewrites the index entries of these products from what `products` holds now (none for a
    /// product that is off sale or gone).
    func reindex(_ products: [ProductID], _ db: any SQLConnection) throws
    /// Every on-sale product's entries, from nothing (a no-op where the index travels with the file).
    func rebuild(_ db: any SQLConnection) throws
    /// The tables of the index, for `refreshStatistics` after a bulk change.
    var indexTables: [String] { get }

    /// A source of on-sale products in `scope`, as `FROM` text that names the product `p`, and its
    /// condition.
    func source(of match: SearchMatch, in scope: SearchMatch.Scope) -> (from: SQL, condition: SQL)
    /// The field holds the query, read from the text (no index): `alias` names the row that
    /// `walkedText` joins.
    func contains(_ match: SearchMatch, _ field: SearchMatch.Field, in alias: String) -> SQL
    /// Matches per field (in `Field` order) among all on-sale products, from the index alone.
    func countsByField(_ match: SearchMatch, _ db: any SQLConnection) throws -> [Int]
    /// The strings a product must hold, every one, for the index to give it as a candidate of the
    /// folded `text` (three characters or more), as the index looks them up: what decides how
    /// many products `source` reads and checks (`SearchTextCopy` counts them on a sample). Empty:
    /// every on-sale product is a candidate.
    func candidatePieces(of text: String) -> [SearchPiece]

    /// Whether walking `rows` best sellers costs less than reading `indexed` matches from the index.
    func walkIsCheaper(rows: Int, indexed: Int) -> Bool
    /// How a walk over `w` (the best sellers) reaches their text: columns the walk copies, a join,
    /// and the alias `contains` reads.
    var walkedText: (columns: SQL, join: SQL, alias: String) { get }
    /// A query for the ids of `scope` in best-seller order that walks that index and stops at the
    /// page, given the other `conditions` on `p`; nil where the engine plans that badly (the tier
    /// is then ranked from the index).
    func bestSellersWalk(of match: SearchMatch, in scope: SearchMatch.Scope, conditions: [SQL], offset: Int, limit: Int) -> SQL?
    /// A query for the ids of these on-sale products ranked by `order` on `p`, `offset ..< offset +
    /// limit` of them, each product looked up by its id (a tier's matches as the in-memory copy of
    /// the texts finds them); nil where the engine's walk of the best sellers serves better.
    func ranking(_ ids: [ProductID], order: SQL, offset: Int, limit: Int) -> SQL?

    /// A category's `name`, folded as search folds.
    var foldedName: SQL { get }
    /// A product's `title`, folded, in the order of the index `titlesByFoldedTitle` names.
    var foldedTitle: SQL { get }
    /// `products`, read through its index on the folded title.
    var titlesByFoldedTitle: SQL { get }
    /// The folded category name contains `folded`.
    func nameContains(_ folded: String) -> SQL

    /// In an upsert of `search_searchers`: the later of the kept and the new `last_found_at`.
    var laterFoundAt: SQL { get }
    /// A query with a row when the `keyword` column contains (spaces removed) one of the words in
    /// the JSON array `wordsJSON`.
    func containsWord(of wordsJSON: String) -> SQL
}

/// A string an index looks up for a query's candidates: a product is one when a field holds it
/// (where it must begin or end a word, with no letter or digit before or after it there).
public struct SearchPiece: Equatable, Sendable {
    /// Folded text, letters and digits only where it begins or ends a word.
    public let bytes: [UInt8]
    /// Nothing or a character that is not `isWordCharacter` comes before it.
    public let startsWord: Bool
    /// Nothing or a character that is not `isWordCharacter` comes after it.
    public let endsWord: Bool

    public init(_ text: String, startsWord: Bool = false, endsWord: Bool = false) {
        self.bytes = Array(text.utf8)
        self.startsWord = startsWord
        self.endsWord = endsWord
    }

    /// A letter or a digit: what pg_trgm keeps in its words (it cuts the text at anything else).
    public static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        // ASCII, CJK ideographs and CJK or full-width punctuation without a look-up.
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x4E00...0x9FEF: true
        case 0..<0x80, 0x3000...0x3004, 0x3008...0x3020, 0xFF00...0xFF0F, 0xFF1A...0xFF20: false
        default: scalar.properties.isAlphabetic || scalar.properties.numericType != nil
        }
    }

    /// `count` of `pieces`, the first, the last and others spread evenly between them (all when
    /// there are no more).
    public static func spread<Piece>(_ pieces: [Piece], count: Int) -> [Piece] {
        guard pieces.count > count, count > 1 else { return pieces.count > count ? Array(pieces.prefix(count)) : pieces }
        let last = pieces.count - 1
        return (0..<count).map { pieces[$0 * last / (count - 1)] }
    }
}
