import SQL

extension CatalogStore {
    /// The ids of everything a search finds when its query has synonyms or spells words in pinyin:
    /// its own matches in their order, then each term's (`QueryExpansion.terms`) in theirs, no
    /// product twice; nil when the query has no such terms, or finds more than
    /// `QueryExpansion.maxMatchesPerTerm` products itself (it is then searched as it is). Each term
    /// adds at most that many products. Remembered per query, filters, order and `catalog_version`.
    func expandedMatches(_ request: ProductSearch.Request, at version: Int64, _ db: any SQLConnection) throws -> [ProductID]? {
        let key = Self.mergedKey(request)
        if let kept = expansion.merged(key, at: version) { return kept }
        let terms = try expansion.terms(for: request.text, at: version, db)
        guard !terms.isEmpty else { return nil }
        let limit = QueryExpansion.maxMatchesPerTerm
        guard try search.total(request, at: version, db) <= limit else { return nil }
        var merged: [ProductID] = []
        var seen = Set<ProductID>()
        for id in try matches(of: request.text, like: request, limit: limit, db) where seen.insert(id).inserted {
            merged.append(id)
        }
        for term in terms {
            let found = try named(term, in: try matches(of: SearchText.fold(term), like: request, limit: limit, db), db)
            for id in found where seen.insert(id).inserted { merged.append(id) }
        }
        expansion.remember(merged, for: key, at: version)
        return merged
    }

    static func mergedKey(_ request: ProductSearch.Request) -> QueryExpansion.MergedKey {
        QueryExpansion.MergedKey(filter: request.key, order: request.order.map { String(describing: $0) } ?? "")
    }

    /// Those of `ids` (in their order) whose title holds `term` (folded) or whose category `term`
    /// names (or one above it): a term stands for a kind of product, and a mention in another
    /// product's description (白茶 "不是玫瑰") is not that kind.
    private func named(_ term: String, in ids: [ProductID], _ db: any SQLConnection) throws -> [ProductID] {
        guard !ids.isEmpty else { return [] }
        let folded = Array(SearchText.fold(term).utf8)
        var categories: [Int64: (name: String, parent: Int64?)] = [:]
        for row in try db.query("SELECT id, name, parent_id FROM categories") {
            categories[try row.decode("id")] = (SearchText.fold(try row.decode("name")), try row.decode("parent_id"))
        }
        var kept = Set<ProductID>()
        for row in try db.query("SELECT id, title, category_id FROM products WHERE id IN (\(list: ids))") {
            // Bytes, as the engines compare (Swift's `contains` would compare canonically).
            let title = Array(SearchText.fold(try row.decode("title", as: String.self)).utf8)
            var named = title.firstRange(of: folded) != nil
            var current: Int64? = try row.decode("category_id")
            var steps = 0
            while !named, let id = current, let node = categories[id], steps < 64 {
                named = Array(node.name.utf8) == folded
                current = node.parent
                steps += 1
            }
            if named { kept.insert(try row.decode("id")) }
        }
        return ids.filter { kept.contains($0) }
    }

    /// Up to `limit` products `text` finds with `request`'s filters and order, in that order, read
    /// as one page of `limit`. (Read 100 at a time, each page walked the best sellers again from
    /// the top, up to 10 pages for the query and for each of its terms: `mgh`, three pinyin words,
    /// took 100-150 ms on PostgreSQL, 39 ms as one page on the same busy machine.)
    private func matches(of text: String, like request: ProductSearch.Request, limit: Int, _ db: any SQLConnection) throws -> [ProductID] {
        let term = ProductSearch.Request(text: text, filters: request.filters, key: ProductFilter(request.key, text: text),
                                         order: request.order, page: PageRequest(unchecked: 1, perPage: limit))
        return try search.page(term, db).ids
    }
}

extension ProductFilter {
    /// `filter`'s category and prices with another (folded) query.
    init(_ filter: ProductFilter, text: String) {
        self.text = Array(text.utf8)
        category = filter.category
        minPrice = filter.minPrice
        maxPrice = filter.maxPrice
    }
}
