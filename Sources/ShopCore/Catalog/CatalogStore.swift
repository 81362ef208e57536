import Foundation
import SQL

/// SQL reads of the catalogue: the tree, product lists and product pages.
struct CatalogStore {
    /// Shared by the stores of one shop: list totals cached per catalogue version.
    var totals = ListTotals()
    /// Search totals, cached the same way.
    let search: ProductSearch
    /// Synonyms and pinyin: what else a search finds after its own matches.
    let expansion: QueryExpansion

    init(search engine: any SearchEngine, synonyms: SynonymDictionary = .shipped) {
        search = ProductSearch(totals: SearchTotals(), engine: engine)
        expansion = QueryExpansion(configured: synonyms)
    }

    static let summaryColumns: SQL = """
        p.id, p.title, p.subtitle, p.cover_url, p.price_cents, p.original_price_cents, p.sales, p.total_stock
        """

    static func summary(_ row: Row) throws -> ProductSummary {
        ProductSummary(id: try row.decode("id"), title: try row.decode("title"), subtitle: try row.decode("subtitle"),
                       coverURL: try row.decode("cover_url"), priceCents: try row.decode("price_cents"),
                       originalPriceCents: try row.decode("original_price_cents"), sales: try row.decode("sales"),
                       inStock: try row.decode("total_stock", as: Int64.self) > 0)
    }

    /// Every category as a tree, ordered by position then id.
    func categoryTree(_ db: any SQLConnection) throws -> [CategoryNode] {
        let rows = try db.query("SELECT id, name, parent_id FROM categories ORDER BY position, id")
        var children: [CategoryID?: [CategoryNode]] = [:]
        for row in rows {
            let node = CategoryNode(id: try row.decode("id"), name: try row.decode("name"),
                                    parentID: try row.decode("parent_id"), children: [])
            children[node.parentID, default: []].append(node)
        }
        func build(_ parent: CategoryID?) -> [CategoryNode] {
            (children[parent] ?? []).map { node in
                var node = node
                node.children = build(node.id)
                return node
            }
        }
        return build(nil)
    }

    func hasProducts(_ db: any SQLConnection) throws -> Bool {
        try db.scalarInt("SELECT COUNT(*) FROM (SELECT 1 FROM products LIMIT 1) AS any_product") == 1
    }

    func categoryExists(_ id: CategoryID, _ db: any SQLConnection) throws -> Bool {
        try db.scalarInt("SELECT COUNT(*) FROM categories WHERE id = \(id)") == 1
    }

    /// How many on-sale products a search finds, from the index's counts kept at `catalog_version`
    /// = `indexVersion` (as the caller read it), counted only when none are kept.
    func searchTotal(_ query: ProductQuery, indexVersion: Int64, _ db: any SQLConnection) throws -> Int {
        guard let request = Self.searchRequest(query, filters: Self.filters(query), order: Self.order(query)) else { return 0 }
        if let merged = try expandedMatches(request, at: indexVersion, db) { return merged.count }
        return try search.total(request, at: indexVersion, db)
    }

    /// `searchTotal` when what it needs is remembered at `indexVersion` (the expanded matches, or
    /// the terms and the search's counts), else nil: no statement.
    func cachedSearchTotal(_ query: ProductQuery, indexVersion: Int64) -> Int? {
        guard let request = Self.searchRequest(query, filters: Self.filters(query), order: Self.order(query)) else { return 0 }
        if let merged = expansion.merged(Self.mergedKey(request), at: indexVersion) { return merged.count }
        guard let terms = expansion.keptTerms(for: request.text, at: indexVersion), terms.isEmpty else { return nil }
        return search.cachedTotal(request, at: indexVersion)
    }

    /// Everything `query`'s text finds with the terms it stands for, whatever its category and
    /// price filters (what its facets count); nil when it has no text or no such terms.
    func expandedMatchesOfText(_ query: ProductQuery, at version: Int64, _ db: any SQLConnection) throws -> [ProductID]? {
        guard query.text != nil else { return nil }
        let text = ProductQuery(text: query.text, page: query.page)
        guard let request = Self.searchRequest(text, filters: Self.filters(text), order: Self.order(text)) else { return nil }
        return try expandedMatches(request, at: version, db)
    }

    static func searchRequest(_ query: ProductQuery, filters: [SQL], order: SQL?) -> ProductSearch.Request? {
        guard let text = query.text else { return nil }
        let folded = SearchText.fold(text)
        let key = ProductFilter(query, text: folded)
        return ProductSearch.Request(text: folded, filters: filters, key: key, order: order, page: query.page)
    }

    /// One page of on-sale products matching the query, and the total count.
    func products(_ query: ProductQuery, _ db: any SQLConnection) throws -> Page<ProductSummary> {
        let filters = Self.filters(query)
        let order = Self.order(query)
        if let request = Self.searchRequest(query, filters: filters, order: order) {
            // A query with synonyms or a pinyin spelling: its own matches, then the terms'.
            let version = try CatalogChanges().indexVersion(db)
            if let merged = try expandedMatches(request, at: version, db) {
                let slice = Array(merged.dropFirst(query.page.offset).prefix(query.page.perPage))
                return Page(items: try summaries(slice, db), page: query.page.page, perPage: query.page.perPage, total: merged.count)
            }
            // A search: the index says how many match and where the page is; only the page's
            // summaries are read.
            let found = try search.page(request, at: version, db)
            return Page(items: try summaries(found.ids, db), page: query.page.page, perPage: query.page.perPage, total: found.total)
        }
        let from: SQL = "FROM products p WHERE \((["p.status = \(ProductStatus.onSale)"] + filters).joined(separator: " AND "))"
        let limits: SQL = "LIMIT \(query.page.perPage) OFFSET \(query.page.offset)"
        let key = ProductFilter(query, text: nil)
        let version = try CatalogChanges().indexVersion(db)
        let total: Int64
        if let cached = totals.total(for: key, at: version) {
            total = cached
        } else {
            total = try db.scalarInt("SELECT COUNT(*) \(from)") ?? 0
            totals.remember(total, for: key, at: version)
        }
        let rows = try db.query("SELECT \(Self.summaryColumns) \(from) ORDER BY \(order ?? Self.newestFirst) \(limits)")
        return Page(items: try rows.map(Self.summary), page: query.page.page, perPage: query.page.perPage, total: Int(total))
    }

    /// Conditions on `p` besides the search: category (and the categories under it), price range.
    private static func filters(_ query: ProductQuery) -> [SQL] {
        var filters: [SQL] = []
        if let category = query.categoryID {
            filters.append("""
                p.category_id IN (WITH RECURSIVE sub(id) AS (
                    SELECT \(category) UNION ALL SELECT c.id FROM categories c JOIN sub ON c.parent_id = sub.id)
                SELECT id FROM sub)
                """)
        }
        if let min = query.minPriceCents {
            filters.append("p.price_cents >= \(min)")
        }
        if let max = query.maxPriceCents {
            filters.append("p.price_cents <= \(max)")
        }
        return filters
    }

    /// The order a query asks for; `nil` is relevance (a search's tiers).
    private static func order(_ query: ProductQuery) -> SQL? {
        switch query.sort ?? (query.text == nil ? .newest : .relevance) {
        case .relevance: return nil
        case .newest: return Self.newestFirst
        case .priceAscending: return "p.price_cents ASC, p.id ASC"
        case .priceDescending: return "p.price_cents DESC, p.id DESC"
        case .sales: return ProductSearch.relevanceOrder
        }
    }

    /// The summaries of these products, in this order.
    private func summaries(_ ids: [ProductID], _ db: any SQLConnection) throws -> [ProductSummary] {
        guard !ids.isEmpty else { return [] }
        let rows = try db.query("SELECT \(Self.summaryColumns) FROM products p WHERE p.id IN (\(list: ids))")
        var byID: [ProductID: ProductSummary] = [:]
        for row in rows { byID[try row.decode("id")] = try Self.summary(row) }
        return ids.compactMap { byID[$0] }
    }

    static let newestFirst: SQL = "p.created_at DESC, p.id DESC"

    /// A product page, or nil when the product is unknown or off sale.
    static func product(_ id: ProductID, _ db: any SQLConnection) throws -> ProductDetail? {
        guard let row = try db.queryOne("""
            SELECT \(Self.summaryColumns), p.description, p.category_id, p.attributes,
                   COALESCE((SELECT favorites_count FROM product_favorite_counts WHERE product_id = p.id), 0) AS favorites_count
            FROM products p WHERE p.id = \(id) AND p.status = \(ProductStatus.onSale)
            """) else { return nil }
        let images = try db.query("SELECT url FROM product_images WHERE product_id = \(id) ORDER BY position")
            .map { try $0.decode("url", as: String.self) }
        let skus = try db.query("""
            SELECT id, code, name, price_cents, original_price_cents, stock FROM skus WHERE product_id = \(id) AND status = 'on_sale'
            ORDER BY price_cents, id
            """)
            .map { row in
                SKU(id: try row.decode("id"), code: try row.decode("code"), name: try row.decode("name"),
                    priceCents: try row.decode("price_cents"), originalPriceCents: try row.decode("original_price_cents"),
                    stock: try row.decode("stock"))
            }
        let attributesText: String = try row.decode("attributes")
        guard let attributes = JSONValue.object(parsing: attributesText) else {
            throw RowDecodingError(table: "products", column: "attributes", value: .text(attributesText),
                                   reason: "expected a JSON object")
        }
        return ProductDetail(summary: try Self.summary(row), description: try row.decode("description"), images: images,
                             categoryID: try row.decode("category_id"), attributes: attributes, skus: skus,
                             favoritesCount: try row.decode("favorites_count"))
    }
}

/// Stored as its raw value (`on_sale`, `off_sale`).
extension ProductStatus: SQLCodable {}
