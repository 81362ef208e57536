import Foundation
import SQL
import SQLite

/// SQL reads of the catalogue: the tree, product lists and product pages.
struct CatalogStore {
    /// Shared by the stores of one shop: list totals cached per catalogue version.
    var totals = ListTotals()

    static let summaryColumns = """
        p.id, p.title, p.subtitle, p.cover_url, p.price_cents, p.original_price_cents, p.sales, p.total_stock
        """

    static func summary(_ row: Row) throws -> ProductSummary {
        ProductSummary(id: ProductID(try row.int64("id")), title: try row.string("title"), subtitle: try row.string("subtitle"),
                       coverURL: try row.string("cover_url"), priceCents: try row.int64("price_cents"),
                       originalPriceCents: try row.int64("original_price_cents"), sales: try row.int64("sales"),
                       inStock: try row.int64("total_stock") > 0)
    }

    /// Every category as a tree, ordered by position then id.
    func categoryTree(_ db: Connection) throws -> [CategoryNode] {
        let rows = try db.legacyQuery("SELECT id, name, parent_id FROM categories ORDER BY position, id")
        var children: [Int64?: [CategoryNode]] = [:]
        for row in rows {
            let node = CategoryNode(id: CategoryID(try row.int64("id")), name: try row.string("name"),
                                    parentID: try row.optionalInt64("parent_id").map(CategoryID.init), children: [])
            children[node.parentID?.rawValue, default: []].append(node)
        }
        func build(_ parent: Int64?) -> [CategoryNode] {
            (children[parent] ?? []).map { node in
                var node = node
                node.children = build(node.id.rawValue)
                return node
            }
        }
        return build(nil)
    }

    func hasProducts(_ db: Connection) throws -> Bool {
        try db.legacyScalarInt("SELECT COUNT(*) FROM (SELECT 1 FROM products LIMIT 1)") == 1
    }

    func categoryExists(_ id: CategoryID, _ db: Connection) throws -> Bool {
        try db.legacyScalarInt("SELECT COUNT(*) FROM categories WHERE id = ?", id.rawValue) == 1
    }

    /// One page of on-sale products matching the query, and the total count.
    func products(_ query: ProductQuery, _ db: Connection) throws -> Page<ProductSummary> {
        // With a search, the matches drive the query (`CROSS JOIN` fixes that order in SQLite):
        // left to the planner, FTS5 would be re-run for every product row.
        var source = "products p"
        var conditions = ["p.status = 'on_sale'"]
        var bindings: [any SQLBindable] = []
        var relevance = "p.created_at DESC, p.id DESC"

        if let text = query.text {
            if SearchText.isShort(text) {
                source = """
                    (SELECT product_id AS pid, MIN(field) AS tier, 0.0 AS score FROM product_grams
                     WHERE gram = ? GROUP BY product_id) m
                    CROSS JOIN products p INDEXED BY products_listing ON p.id = m.pid
                    """
                bindings.append(text.lowercased())
            } else {
                source = """
                    (SELECT rowid AS pid, bm25(products_fts, 10.0, 4.0, 1.0) AS score FROM products_fts
                     WHERE products_fts MATCH ?) m CROSS JOIN products p ON p.id = m.pid
                    """
                bindings.append(SearchText.ftsPhrase(text))
            }
            relevance = "\(SearchText.isShort(text) ? "m.tier" : Self.fieldTier), m.score, p.sales DESC, p.id DESC"
        }
        if let category = query.categoryID {
            conditions.append("""
                p.category_id IN (WITH RECURSIVE sub(id) AS (
                    SELECT ? UNION ALL SELECT c.id FROM categories c JOIN sub ON c.parent_id = sub.id)
                SELECT id FROM sub)
                """)
            bindings.append(category.rawValue)
        }
        if let min = query.minPriceCents {
            conditions.append("p.price_cents >= ?")
            bindings.append(min)
        }
        if let max = query.maxPriceCents {
            conditions.append("p.price_cents <= ?")
            bindings.append(max)
        }
        var orderBindings: [any SQLBindable] = []
        if let text = query.text, !SearchText.isShort(text) {
            let pattern = SearchText.likeContains(text)
            orderBindings = [pattern, pattern]
        }
        let order: String
        switch query.sort ?? (query.text == nil ? .newest : .relevance) {
        case .relevance: order = relevance
        case .newest: order = "p.created_at DESC, p.id DESC"
        case .priceAscending: order = "p.price_cents ASC, p.id ASC"
        case .priceDescending: order = "p.price_cents DESC, p.id DESC"
        case .sales: order = "p.sales DESC, p.id DESC"
        }
        if !order.contains(Self.fieldTier) { orderBindings = [] }

        let from = "FROM \(source) WHERE \(conditions.joined(separator: " AND "))"
        let limits: [any SQLBindable] = [query.page.perPage, query.page.offset]
        if query.text != nil {
            // A search ranks its matches and counts them in one pass over what the index holds,
            // then reads the summaries of just the page.
            let ranked = try db.legacyQuery("SELECT p.id, COUNT(*) OVER () AS total \(from) ORDER BY \(order) LIMIT ? OFFSET ?",
                                      bindings: bindings + orderBindings + limits)
            let total = try ranked.first.map { try $0.int64("total") }
                ?? db.legacyScalarInt("SELECT COUNT(*) \(from)", bindings: bindings) ?? 0
            let items = try summaries(ranked.map { try $0.int64("id") }, db)
            return Page(items: items, page: query.page.page, perPage: query.page.perPage, total: Int(total))
        }
        let key = ListTotals.Key(category: query.categoryID?.rawValue, minPrice: query.minPriceCents,
                                 maxPrice: query.maxPriceCents)
        let version = try db.legacyScalarInt("SELECT version FROM catalog_version WHERE id = 1") ?? 0
        let total: Int64
        if let cached = totals.total(for: key, at: version) {
            total = cached
        } else {
            total = try db.legacyScalarInt("SELECT COUNT(*) \(from)", bindings: bindings) ?? 0
            totals.remember(total, for: key, at: version)
        }
        let rows = try db.legacyQuery("SELECT \(Self.summaryColumns) \(from) ORDER BY \(order) LIMIT ? OFFSET ?",
                                bindings: bindings + orderBindings + limits)
        return Page(items: try rows.map(Self.summary), page: query.page.page, perPage: query.page.perPage, total: Int(total))
    }

    /// The summaries of these products, in this order.
    private func summaries(_ ids: [Int64], _ db: Connection) throws -> [ProductSummary] {
        guard !ids.isEmpty else { return [] }
        let placeholders = Array(repeating: "?", count: ids.count).joined(separator: ",")
        let rows = try db.legacyQuery("SELECT \(Self.summaryColumns) FROM products p WHERE p.id IN (\(placeholders))", bindings: ids)
        var byID: [Int64: ProductSummary] = [:]
        for row in rows { byID[try row.int64("id")] = try Self.summary(row) }
        return ids.compactMap { byID[$0] }
    }

    /// Title hits first, then subtitle hits, then the rest (description): bm25 orders within a tier.
    static let fieldTier = "CASE WHEN p.title LIKE ? ESCAPE '\\' THEN 0 WHEN p.subtitle LIKE ? ESCAPE '\\' THEN 1 ELSE 2 END"

    /// A product page, or nil when the product is unknown or off sale.
    func product(_ id: ProductID, _ db: Connection) throws -> ProductDetail? {
        guard let row = try db.legacyQueryOne("""
            SELECT \(Self.summaryColumns), p.description, p.category_id, p.attributes
            FROM products p WHERE p.id = ? AND p.status = 'on_sale'
            """, id.rawValue) else { return nil }
        let images = try db.legacyQuery("SELECT url FROM product_images WHERE product_id = ? ORDER BY position", id.rawValue)
            .map { try $0.string("url") }
        let skus = try db.legacyQuery("SELECT id, code, name, price_cents, stock FROM skus WHERE product_id = ? ORDER BY price_cents, id",
                                id.rawValue).map { row in
            SKU(id: SKUID(try row.int64("id")), code: try row.string("code"), name: try row.string("name"),
                priceCents: try row.int64("price_cents"), stock: try row.int64("stock"))
        }
        return ProductDetail(summary: try Self.summary(row), description: try row.string("description"), images: images,
                             categoryID: CategoryID(try row.int64("category_id")),
                             attributes: JSONValue.object(parsing: try row.string("attributes")) ?? [:], skus: skus)
    }
}
