import Foundation
import SQL

/// SQL reads of the catalogue: the tree, product lists and product pages.
struct CatalogStore {
    /// Shared by the stores of one shop: list totals cached per catalogue version.
    var totals = ListTotals()

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

    /// One page of on-sale products matching the query, and the total count.
    func products(_ query: ProductQuery, _ db: any SQLConnection) throws -> Page<ProductSummary> {
        // With a search, the matches drive the query (`CROSS JOIN` fixes that order in SQLite):
        // left to the planner, FTS5 would be re-run for every product row.
        var source: SQL = "products p"
        var conditions: [SQL] = ["p.status = \(ProductStatus.onSale)"]
        var relevance = Self.newestFirst

        if let text = query.text {
            (source, relevance) = Self.matches(text, db.dialect)
        }
        if let category = query.categoryID {
            conditions.append("""
                p.category_id IN (WITH RECURSIVE sub(id) AS (
                    SELECT \(category) UNION ALL SELECT c.id FROM categories c JOIN sub ON c.parent_id = sub.id)
                SELECT id FROM sub)
                """)
        }
        if let min = query.minPriceCents {
            conditions.append("p.price_cents >= \(min)")
        }
        if let max = query.maxPriceCents {
            conditions.append("p.price_cents <= \(max)")
        }
        let order: SQL
        switch query.sort ?? (query.text == nil ? .newest : .relevance) {
        case .relevance: order = relevance
        case .newest: order = Self.newestFirst
        case .priceAscending: order = "p.price_cents ASC, p.id ASC"
        case .priceDescending: order = "p.price_cents DESC, p.id DESC"
        case .sales: order = "p.sales DESC, p.id DESC"
        }

        let from: SQL = "FROM \(source) WHERE \(conditions.joined(separator: " AND "))"
        let limits: SQL = "LIMIT \(query.page.perPage) OFFSET \(query.page.offset)"
        if query.text != nil {
            // A search ranks its matches and counts them in one pass over what the index holds,
            // then reads the summaries of just the page.
            let ranked = try db.query("SELECT p.id, COUNT(*) OVER () AS total \(from) ORDER BY \(order) \(limits)")
            let total = try ranked.first.map { try $0.decode("total", as: Int64.self) }
                ?? db.scalarInt("SELECT COUNT(*) \(from)") ?? 0
            let items = try summaries(ranked.map { try $0.decode("id") }, db)
            return Page(items: items, page: query.page.page, perPage: query.page.perPage, total: Int(total))
        }
        let key = ListTotals.Key(category: query.categoryID, minPrice: query.minPriceCents, maxPrice: query.maxPriceCents)
        let version = try db.scalarInt("SELECT version FROM catalog_version WHERE id = 1") ?? 0
        let total: Int64
        if let cached = totals.total(for: key, at: version) {
            total = cached
        } else {
            total = try db.scalarInt("SELECT COUNT(*) \(from)") ?? 0
            totals.remember(total, for: key, at: version)
        }
        let rows = try db.query("SELECT \(Self.summaryColumns) \(from) ORDER BY \(order) \(limits)")
        return Page(items: try rows.map(Self.summary), page: query.page.page, perPage: query.page.perPage, total: Int(total))
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

    /// The products matching a search, as a FROM source `m` joined to `p`, and their ranking.
    /// Short queries (one or two characters) read the gram table on both engines; longer ones use
    /// SQLite's FTS5 trigram index, or PostgreSQL's pg_trgm GIN indexes on the lowered fields
    /// (which serve exactly `lower(field) LIKE lower(pattern)`).
    static func matches(_ text: String, _ dialect: SQLDialect) -> (source: SQL, relevance: SQL) {
        if SearchText.isShort(text) {
            let grams: SQL = """
                (SELECT product_id AS pid, MIN(field) AS tier, 0.0 AS score FROM product_grams
                 WHERE gram = \(text.lowercased()) GROUP BY product_id) m
                """
            let join: SQL = switch dialect {
            case .sqlite: "CROSS JOIN products p INDEXED BY products_listing ON p.id = m.pid"
            case .postgresql: "JOIN products p ON p.id = m.pid"
            }
            return (grams + " " + join, "m.tier, m.score, p.sales DESC, p.id DESC")
        }
        let pattern = SearchText.likeContains(text)
        let tier = fieldTier(matching: pattern)
        switch dialect {
        case .sqlite:
            return ("""
                (SELECT rowid AS pid, bm25(products_fts, 10.0, 4.0, 1.0) AS score FROM products_fts
                 WHERE products_fts MATCH \(SearchText.ftsPhrase(text))) m CROSS JOIN products p ON p.id = m.pid
                """, "\(tier), m.score, p.sales DESC, p.id DESC")
        case .postgresql:
            return ("""
                (SELECT id AS pid FROM products
                 WHERE lower(title) LIKE lower(\(pattern)) ESCAPE '\\' OR lower(subtitle) LIKE lower(\(pattern)) ESCAPE '\\'
                    OR lower(description) LIKE lower(\(pattern)) ESCAPE '\\') m JOIN products p ON p.id = m.pid
                """, "\(tier), p.sales DESC, p.id DESC")
        }
    }

    /// Title hits first, then subtitle hits, then the rest (description): bm25 orders within a tier.
    static func fieldTier(matching pattern: String) -> SQL {
        """
        CASE WHEN lower(p.title) LIKE lower(\(pattern)) ESCAPE '\\' THEN 0
             WHEN lower(p.subtitle) LIKE lower(\(pattern)) ESCAPE '\\' THEN 1 ELSE 2 END
        """
    }

    /// A product page, or nil when the product is unknown or off sale.
    func product(_ id: ProductID, _ db: any SQLConnection) throws -> ProductDetail? {
        guard let row = try db.queryOne("""
            SELECT \(Self.summaryColumns), p.description, p.category_id, p.attributes
            FROM products p WHERE p.id = \(id) AND p.status = \(ProductStatus.onSale)
            """) else { return nil }
        let images = try db.query("SELECT url FROM product_images WHERE product_id = \(id) ORDER BY position")
            .map { try $0.decode("url", as: String.self) }
        let skus = try db.query("""
            SELECT id, code, name, price_cents, original_price_cents, stock FROM skus WHERE product_id = \(id) ORDER BY price_cents, id
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
                             categoryID: try row.decode("category_id"), attributes: attributes, skus: skus)
    }
}

/// Stored as its raw value (`on_sale`, `off_sale`).
extension ProductStatus: SQLCodable {}
