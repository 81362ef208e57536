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
