import SQL

/// A product search's page and total, found without ranking every match.
///
/// Relevance ranks in tiers: first the products whose category (or a parent category) the query
/// names, then, in each of those two groups, title matches, subtitle matches, description matches;
/// within a tier best sellers first (then newest id). Each tier's size comes from the index (and is
/// cached per catalogue version), which tells which tiers the page falls in and where. Each tier's
/// slice is then read one of two ways, whichever touches fewer rows:
///
/// - from the index, ranking the tier's matches (few matches);
/// - walking on-sale products best-selling first and keeping the tier's, stopping at the page
///   (many matches: for a two-character query with thousands of hits, page 1 is a few hundred
///   rows in).
///
/// Other sorts rank all matches as one tier: best sellers first is read like a relevance tier,
/// the rest from the index.
struct ProductSearch {
    let totals: SearchTotals
    let engine: any SearchEngine
    /// The on-sale products' texts in memory, for the counts of dense queries.
    let texts = SearchTextCopy()

    /// Where the request wants its matches.
    struct Request {
        /// The folded query.
        let text: String
        /// Conditions on `p` besides the search (category, price); `key` names them for the cache.
        let filters: [SQL]
        let key: ProductFilter
        /// `nil` for relevance, else the order of all matches on `p`.
        let order: SQL?
        let page: PageRequest
    }

    /// One tier: which products (by first matching field, by named category).
    struct Tier: Equatable {
        let scope: SearchMatch.Scope
        /// Whether the product is in a named category; `nil`: either.
        let named: Bool?
    }

    static let relevanceOrder: SQL = "p.sales DESC, p.id DESC"

    /// A query's matches as the in-memory copy of the texts finds them.
    struct Copied {
        let texts: SearchTextCopy.Texts
        let matches: SearchTextCopy.Texts.Matches
    }

    /// The copy's matches of one request, looked up at most once, when first needed.
    final class CopiedLookup {
        private var looked = false
        private var found: Copied?
        private let look: () -> Copied?

        init(_ look: @escaping () -> Copied?) { self.look = look }

        var value: Copied? {
            if !looked {
                found = look()
                looked = true
            }
            return found
        }

        /// Takes what the counting found (it looked), or leaves the lookup for later.
        func keep(_ copied: Copied??) {
            guard let copied else { return }
            found = copied
            looked = true
        }
    }

    /// The relevance tiers, best first.
    static func tiers(named: [CategoryID]) -> [Tier] {
        let fields = SearchMatch.Field.allCases.map { SearchMatch.Scope.field($0) }
        if named.isEmpty { return fields.map { Tier(scope: $0, named: nil) } }
        return [true, false].flatMap { isNamed in fields.map { Tier(scope: $0, named: isNamed) } }
    }

    /// The ids of the page, in order, and how many products match in all.
    /// `version`: `catalog_version` when the caller has read it in this transaction.
    func page(_ request: Request, at version: Int64? = nil, _ db: any SQLConnection) throws -> (ids: [ProductID], total: Int) {
        let match = SearchMatch(text: request.text, engine: engine)
        let version = try version ?? CatalogChanges().indexVersion(db)
        var copied: Copied??
        let counts = try self.counts(match, request, version: version, copied: &copied, db)
        let total = counts.tiers.reduce(0, +)
        guard request.page.offset < total else { return ([], total) }

        // The copy's matches, for tiers a walk of the best sellers misses (where the engine ranks them).
        let lookup = CopiedLookup { [texts, engine] in
            guard engine.ranking([], order: Self.relevanceOrder, offset: 0, limit: 1) != nil else { return nil }
            return Self.copyMatches(of: match.text, named: counts.named, request, in: texts.texts(at: version), engine: engine)
        }
        lookup.keep(copied)
        let reader = TierReader(match: match, filters: request.filters, named: counts.named,
                                onSale: try onSale(version: version, db), copied: lookup)
        guard let order = request.order else {
            var ids: [ProductID] = []
            var skip = request.page.offset
            let tiers = Self.tiers(named: counts.named)
            for (index, (tier, count)) in zip(tiers, counts.tiers).enumerated() {
                if skip >= count {
                    skip -= count
                    continue
                }
                let take = min(request.page.perPage - ids.count, count - skip)
                // A named-category tier is read from its field's matches, the other group's too.
                let indexed = tier.named == nil ? count : counts.tiers[index % 3] + counts.tiers[index % 3 + 3]
                ids += try reader.read(tier, count: count, indexed: indexed, offset: skip, limit: take, db)
                skip = 0
                if ids.count == request.page.perPage { break }
            }
            return (ids, total)
        }
        let ids = try reader.read(Tier(scope: .any, named: nil), count: total, indexed: total, offset: request.page.offset,
                                  limit: request.page.perPage, order: order, db)
        return (ids, total)
    }

    /// How many products the search finds, given `catalog_version` as the caller read it
    /// (counted only when not remembered at it).
    func total(_ request: Request, at version: Int64, _ db: any SQLConnection) throws -> Int {
        let match = SearchMatch(text: request.text, engine: engine)
        var copied: Copied??
        return try counts(match, request, version: version, copied: &copied, db).tiers.reduce(0, +)
    }

    /// `total` when the counts are remembered at `version`, else nil (no statement).
    func cachedTotal(_ request: Request, at version: Int64) -> Int? {
        totals.counts(for: request.key, at: version)?.tiers.reduce(0, +)
    }

    /// The titles of up to `limit` on-sale products whose title contains the folded `text`, best
    /// sellers first (for suggestions).
    func titleMatches(_ text: String, limit: Int, _ db: any SQLConnection) throws -> [String] {
        let match = SearchMatch(text: text, engine: engine)
        let version = try CatalogChanges().indexVersion(db)
        let request = Request(text: text, filters: [], key: ProductFilter(text: text),
                              order: nil, page: try PageRequest(page: 1, perPage: limit))
        var copied: Copied??
        let counts = try self.counts(match, request, version: version, copied: &copied, db)
        let titles = counts.named.isEmpty ? counts.tiers[0] : counts.tiers[0] + counts.tiers[3]
        let reader = TierReader(match: match, filters: [], named: [], onSale: try onSale(version: version, db),
                                copied: CopiedLookup { nil })
        let ids = try reader.read(Tier(scope: .field(.title), named: nil), count: titles, indexed: titles, offset: 0, limit: limit, db)
        guard !ids.isEmpty else { return [] }
        var byID: [ProductID: String] = [:]
        for row in try db.query("SELECT id, title FROM products WHERE id IN (\(list: ids))") {
            byID[try row.decode("id")] = try row.decode("title")
        }
        return ids.compactMap { byID[$0] }
    }

    /// `copied`: the copy's matches when counting looked for them (nil inside: it found none).
    private func counts(_ match: SearchMatch, _ request: Request, version: Int64, copied: inout Copied??,
                        _ db: any SQLConnection) throws -> SearchTotals.Counts {
        if let cached = totals.counts(for: request.key, at: version) { return cached }
        let counts = try count(match, request, version: version, copied: &copied, db)
        totals.remember(counts, for: request.key, at: version)
        return counts
    }

    private func onSale(version: Int64, _ db: any SQLConnection) throws -> Int {
        if let cached = totals.onSale(at: version) { return cached }
        let onSale = Int(try db.scalarInt("SELECT COUNT(*) FROM products WHERE status = \(ProductStatus.onSale)") ?? 0)
        totals.remember(onSale: onSale, at: version)
        return onSale
    }

    /// The categories the query names and the size of each relevance tier.
    private func count(_ match: SearchMatch, _ request: Request, version: Int64, copied: inout Copied??,
                       _ db: any SQLConnection) throws -> SearchTotals.Counts {
        let named = try namedCategories(match, db)
        // A text with a byte no on-sale text holds finds nothing (`’🌹No'‘🌷`: pg_trgm takes its
        // trigrams from `no` alone, every product, and checked each: 15–25 ms on PostgreSQL).
        if let kept = texts.texts(at: version), kept.holdsAbsentByte(match.text) {
            return SearchTotals.Counts(named: named, tiers: [Int](repeating: 0, count: Self.tiers(named: named).count))
        }
        // Without filters, a dense query or one naming a category: from the texts in memory, when
        // they are kept at this version.
        copied = .some(Self.copyMatches(of: match.text, named: named, request, in: texts.texts(at: version), engine: engine))
        if let found = copied ?? nil {
            return SearchTotals.Counts(named: named, tiers: found.texts.tiers(of: found.matches, named: named))
        }
        var counts: [Int]
        if request.filters.isEmpty {
            counts = try match.countsByField(db)
        } else {
            counts = try SearchMatch.Field.allCases.map { field in
                try joinedCount(match, .field(field), request.filters, db)
            }
        }
        if !named.isEmpty {
            let inNamed: SQL = "p.category_id IN (\(list: named))"
            let namedCounts = try SearchMatch.Field.allCases.map { field in
                try joinedCount(match, .field(field), request.filters + [inNamed], db)
            }
            counts = namedCounts + zip(counts, namedCounts).map { $0 - $1 }
        }
        return SearchTotals.Counts(named: named, tiers: counts)
    }

    /// The matches of `text` in the copy when the request has no filters and the copy counts it
    /// for less than the indexes: a dense text (`denseMatches`), or one naming a category, of any
    /// length (the indexes count a named category's tiers by joining each match to its product:
    /// `花束`, 3,172 matches, 37–47 ms on PostgreSQL).
    static func copyMatches(of text: String, named: [CategoryID], _ request: Request,
                            in texts: SearchTextCopy.Texts?, engine: any SearchEngine) -> Copied? {
        guard request.filters.isEmpty, let texts, texts.count > 0 else { return nil }
        let matches = named.isEmpty ? texts.denseMatches(of: text, in: engine)
            : texts.matches(of: text)
        return matches.map { Copied(texts: texts, matches: $0) }
    }

    private func joinedCount(_ match: SearchMatch, _ scope: SearchMatch.Scope, _ filters: [SQL], _ db: any SQLConnection) throws -> Int {
        let (from, condition) = match.source(scope)
        let conditions = ([condition] + filters).joined(separator: " AND ")
        return Int(try db.scalarInt("SELECT COUNT(*) FROM \(from) WHERE \(conditions)") ?? 0)
    }

    /// Categories whose name is the query (folded), and every category under them.
    private func namedCategories(_ match: SearchMatch, _ db: any SQLConnection) throws -> [CategoryID] {
        try db.query("""
            WITH RECURSIVE named(id) AS (
                SELECT id FROM categories WHERE \(engine.foldedName) = \(match.text)
                UNION SELECT c.id FROM categories c JOIN named ON c.parent_id = named.id)
            SELECT id FROM named ORDER BY id
            """).map { try $0.decode("id") }
    }
}

/// Reads a slice of one tier, from the index or by walking the best sellers.
private struct TierReader {
    let match: SearchMatch
    let filters: [SQL]
    let named: [CategoryID]
    let onSale: Int
    /// The copy's matches, for a tier the walk misses.
    let copied: ProductSearch.CopiedLookup

    /// A tier of at most one product in this many, when the copy holds its matches, is ranked
    /// from them without a walk.
    static let copiedShare = 8

    /// The products of `tier` ranked `offset ..< offset + limit` by `order` (relevance: best
    /// sellers first), given that the tier holds `count` of them and that reading it from the
    /// index goes through `indexed` matches.
    func read(_ tier: ProductSearch.Tier, count: Int, indexed: Int, offset: Int, limit: Int,
              order: SQL = ProductSearch.relevanceOrder, _ db: any SQLConnection) throws -> [ProductID] {
        guard order == ProductSearch.relevanceOrder, count > 0 else {
            return try fromIndex(tier, offset: offset, limit: limit, order: order, db)
        }
        // A walk keeps about count/onSale of the products it passes; reading the tier from the
        // index costs about one row per indexed match. Walk when that costs less (the engine
        // weighs a walked row against an indexed match).
        let expected = Double(offset + limit) * Double(max(onSale, count)) / Double(count)
        let rows = Int((expected * 1.5).rounded(.up)) + 32
        guard match.engine.walkIsCheaper(rows: rows, indexed: indexed), rows < onSale else {
            // The copy's matches are the tier's exactly; the index reads its candidates (a
            // care-text phrase's 200 matches were 3,000 candidates rechecked on PostgreSQL).
            if let ranked = try rankedFromCopy(tier, offset: offset, limit: limit, db) { return ranked }
            return try fromIndex(tier, offset: offset, limit: limit, order: order, db)
        }
        // A tier of at most one product in `copiedShare` whose matches the copy holds, and no more
        // than twice the walk's rows: ranked from them, not walked first (`No.4`'s 1,111 matches
        // are the least sold: its first walk, 707 rows, 1.2 ms, came back short before they were
        // ranked, 2 ms). A ranked id (a key looked up) costs about what a walked row does; past a
        // few thousand ids PostgreSQL hashes every product instead (`花篮造型`'s 3,110: 16–20 ms,
        // where its 272-row walk finds the page in 0.5 ms).
        if count * Self.copiedShare <= onSale, count <= 2 * rows,
           let ranked = try rankedFromCopy(tier, offset: offset, limit: limit, db) {
            return ranked
        }
        var window = rows
        var found = try walking(tier, rows: window, offset: offset, limit: limit, db)
        // The best sellers can be other products (a shop's own best sellers above an imported
        // range that sells little): walk further, four times as far each time, while that still
        // costs less than the index. (On PostgreSQL, ranking a care-text query's 25,000
        // description matches took 106 ms when the first 62 best sellers held none of them.)
        // Or, when the copy holds the tier's matches and they are fewer than the next walk's rows,
        // rank them by id instead (`No.4`: 1,111 matches, all among the least sold; the walks
        // came back short and PostgreSQL ranked them by walking 20,000 best sellers: 25–38 ms).
        while found.count < limit, window < onSale, match.engine.walkIsCheaper(rows: window * 4, indexed: indexed) {
            if count <= window * 4, let ranked = try rankedFromCopy(tier, offset: offset, limit: limit, db) { return ranked }
            window *= 4
            found = try walking(tier, rows: window, offset: offset, limit: limit, db)
        }
        // Past every on-sale product the walk has seen the whole tier.
        guard found.count < limit, window < onSale else { return found }
        if let ranked = try rankedFromCopy(tier, offset: offset, limit: limit, db) { return ranked }
        // The matches are not spread evenly (similar products imported together sell alike): walk
        // the best sellers' index against the tier's ids where the engine can, else rank the tier.
        let conditions = filters + [namedCondition(tier.named, alias: "p")].compactMap { $0 }
        guard let walk = match.engine.bestSellersWalk(of: match, in: tier.scope, conditions: conditions, offset: offset, limit: limit) else {
            return try fromIndex(tier, offset: offset, limit: limit, order: order, db)
        }
        return try db.query(walk).map { try $0.decode("id") }
    }

    /// The tier's slice ranked from the copy's matches, where the engine ranks ids (nil otherwise).
    private func rankedFromCopy(_ tier: ProductSearch.Tier, offset: Int, limit: Int, _ db: any SQLConnection) throws -> [ProductID]? {
        guard filters.isEmpty, let copied = copied.value else { return nil }
        let ids = copied.texts.ids(of: copied.matches, in: tier, named: named)
        guard let ranking = match.engine.ranking(ids, order: ProductSearch.relevanceOrder, offset: offset, limit: limit) else { return nil }
        return try db.query(ranking).map { try $0.decode("id") }
    }

    private func namedCondition(_ named: Bool?, alias: String) -> SQL? {
        guard let named, !self.named.isEmpty else { return nil }
        let column = SQL(stringLiteral: "\(alias).category_id")
        return named ? "\(column) IN (\(list: self.named))" : "\(column) NOT IN (\(list: self.named))"
    }

    private func fromIndex(_ tier: ProductSearch.Tier, offset: Int, limit: Int, order: SQL, _ db: any SQLConnection) throws -> [ProductID] {
        let (from, condition) = match.source(tier.scope)
        let conditions = ([condition] + filters + [namedCondition(tier.named, alias: "p")].compactMap { $0 })
            .joined(separator: " AND ")
        return try db.query("SELECT p.id FROM \(from) WHERE \(conditions) ORDER BY \(order) LIMIT \(limit) OFFSET \(offset)")
            .map { try $0.decode("id") }
    }

    /// The tier's products among the `rows` best-selling on-sale products that pass the filters.
    private func walking(_ tier: ProductSearch.Tier, rows: Int, offset: Int, limit: Int, _ db: any SQLConnection) throws -> [ProductID] {
        let walked = (["p.status = \(ProductStatus.onSale)"] + filters).joined(separator: " AND ")
        // The text read, as the engine keeps it.
        let (columns, text, alias) = match.engine.walkedText
        let kept = ([match.predicate(tier.scope, alias: alias)] + [namedCondition(tier.named, alias: "w")].compactMap { $0 })
            .joined(separator: " AND ")
        return try db.query("""
            SELECT w.id FROM (
                SELECT p.id, p.sales, p.category_id\(columns) FROM products p
                WHERE \(walked) ORDER BY p.sales DESC, p.id DESC LIMIT \(rows)) w \(text)
            WHERE \(kept) ORDER BY w.sales DESC, w.id DESC LIMIT \(limit) OFFSET \(offset)
            """).map { try $0.decode("id") }
    }
}
