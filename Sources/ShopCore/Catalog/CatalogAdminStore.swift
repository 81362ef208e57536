import Foundation
import SQL

/// SQL of the staff's catalogue: every product whatever its status, with SKUs and category paths;
/// single-row edits of products, SKUs and categories. Every statement runs in a caller's transaction.
struct CatalogAdminStore {
    static let productColumns: SQL = """
        p.id, p.code, p.title, p.subtitle, p.description, p.category_id, c.path AS category_path, p.status, p.cover_url,
        p.attributes, p.delivery, p.price_cents, p.total_stock, p.sales, p.created_at, p.updated_at
        """

    /// A page of products matching `query`, newest first.
    func products(_ query: AdminProductQuery, _ db: any SQLConnection) throws -> Page<AdminProduct> {
        var conditions: [SQL] = []
        if let status = query.status { conditions.append("p.status = \(status)") }
        if let category = query.categoryID {
            conditions.append("""
                p.category_id IN (WITH RECURSIVE sub(id) AS (
                    SELECT \(category) UNION ALL SELECT k.id FROM categories k JOIN sub ON k.parent_id = sub.id)
                SELECT id FROM sub)
                """)
        }
        if let text = query.text {
            let pattern = "%" + Self.likeEscaped(text.lowercased()) + "%"
            conditions.append("""
                (lower(p.title) LIKE \(pattern) ESCAPE '\\' OR lower(p.code) LIKE \(pattern) ESCAPE '\\'
                 OR EXISTS (SELECT 1 FROM skus s WHERE s.product_id = p.id AND lower(s.code) LIKE \(pattern) ESCAPE '\\'))
                """)
        }
        if let low = query.lowStock {
            conditions.append("EXISTS (SELECT 1 FROM skus s WHERE s.product_id = p.id AND s.stock <= \(low))")
        }
        let filter: SQL = conditions.isEmpty ? .empty : "WHERE \(conditions.joined(separator: " AND "))"
        return try db.page(query.page, count: "SELECT COUNT(*) FROM products p \(filter)", rows: """
            SELECT \(Self.productColumns) FROM products p JOIN categories c ON c.id = p.category_id \(filter)
            ORDER BY p.created_at DESC, p.id DESC
            """) { rows in try assemble(rows, db) }
    }

    func product(_ id: ProductID, _ db: any SQLConnection) throws -> AdminProduct? {
        try assemble(db.query("""
            SELECT \(Self.productColumns) FROM products p JOIN categories c ON c.id = p.category_id WHERE p.id = \(id)
            """), db).first
    }

    /// Every product, by code: what `shop products export` writes.
    func allProducts(_ db: any SQLConnection) throws -> [AdminProduct] {
        try assemble(db.query("""
            SELECT \(Self.productColumns) FROM products p JOIN categories c ON c.id = p.category_id ORDER BY p.code
            """), db)
    }

    /// Products from their rows, with their SKUs (cheapest first) and images, read for all of them at once.
    private func assemble(_ rows: [Row], _ db: any SQLConnection) throws -> [AdminProduct] {
        let ids: [ProductID] = try rows.map { try $0.decode("id") }
        guard !ids.isEmpty else { return [] }
        var skus: [ProductID: [AdminSKU]] = [:]
        for row in try db.query("""
            SELECT id, product_id, code, name, price_cents, original_price_cents, stock, status FROM skus
            WHERE product_id IN (\(list: ids)) ORDER BY price_cents, id
            """) {
            skus[try row.decode("product_id"), default: []].append(try Self.sku(row))
        }
        var images: [ProductID: [String]] = [:]
        for row in try db.query("SELECT product_id, url FROM product_images WHERE product_id IN (\(list: ids)) ORDER BY product_id, position") {
            images[try row.decode("product_id"), default: []].append(try row.decode("url"))
        }
        return try rows.map { row in
            let id: ProductID = try row.decode("id")
            let attributesText: String = try row.decode("attributes")
            guard let attributes = JSONValue.object(parsing: attributesText) else {
                throw RowDecodingError(table: "products", column: "attributes", value: .text(attributesText), reason: "expected a JSON object")
            }
            return AdminProduct(
                id: id, code: try row.decode("code"), title: try row.decode("title"), subtitle: try row.decode("subtitle"),
                description: try row.decode("description"), categoryID: try row.decode("category_id"),
                categoryPath: try row.decode("category_path"), status: try row.decode("status"), coverURL: try row.decode("cover_url"),
                imageURLs: images[id] ?? [], attributes: attributes, delivery: try row.decode("delivery"),
                priceCents: try row.decode("price_cents"), totalStock: try row.decode("total_stock"), sales: try row.decode("sales"),
                skus: skus[id] ?? [], createdAt: try row.decode("created_at"), updatedAt: try row.decode("updated_at"))
        }
    }

    static func sku(_ row: Row) throws -> AdminSKU {
        AdminSKU(id: try row.decode("id"), code: try row.decode("code"), name: try row.decode("name"),
                 priceCents: try row.decode("price_cents"), originalPriceCents: try row.decode("original_price_cents"),
                 stock: try row.decode("stock"), status: try row.decode("status"))
    }

    /// `text` with LIKE's wildcards and the escape character taken literally.
    static func likeEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if character == "\\" || character == "%" || character == "_" { out.append("\\") }
            out.append(character)
        }
        return out
    }

    // MARK: Locks

    /// Takes the product's row for this transaction (PostgreSQL: a checkout waits; SQLite's writer
    /// holds everything already), so what is read next stays true until the commit. False when unknown.
    func lockProduct(_ id: ProductID, at now: Int64, _ db: any SQLConnection) throws -> Bool {
        try db.run("UPDATE products SET updated_at = \(now) WHERE id = \(id)") == 1
    }

    /// Takes the SKU's row for this transaction; its product id, nil when unknown.
    func lockSKU(_ id: SKUID, at now: Int64, _ db: any SQLConnection) throws -> ProductID? {
        guard try db.run("UPDATE skus SET updated_at = \(now) WHERE id = \(id)") == 1 else { return nil }
        return try db.scalar("SELECT product_id FROM skus WHERE id = \(id)", as: ProductID.self)
    }

    func skuID(code: String, _ db: any SQLConnection) throws -> SKUID? {
        try db.scalar("SELECT id FROM skus WHERE code = \(code)", as: SKUID.self)
    }

    func sku(_ id: SKUID, _ db: any SQLConnection) throws -> AdminSKU? {
        try db.queryOne("SELECT id, code, name, price_cents, original_price_cents, stock, status FROM skus WHERE id = \(id)").map(Self.sku)
    }

    func productCodeTaken(_ code: String, except id: ProductID?, _ db: any SQLConnection) throws -> Bool {
        try db.scalarInt("SELECT COUNT(*) FROM products WHERE code = \(code) AND id IS DISTINCT FROM \(id)") ?? 0 > 0
    }

    /// Which of `codes` some SKU has already.
    func takenSKUCodes(_ codes: [String], _ db: any SQLConnection) throws -> Set<String> {
        guard !codes.isEmpty else { return [] }
        return Set(try db.query("SELECT code FROM skus WHERE code IN (\(list: codes))").map { try $0.decode("code", as: String.self) })
    }

    func setProductCode(_ code: String, of id: ProductID, _ db: any SQLConnection) throws {
        try db.run("UPDATE products SET code = \(code) WHERE id = \(id)")
    }

    /// A SKU's name and prices (the stock is changed on its own, relative to what is there).
    func updateSKU(_ id: SKUID, name: String, priceCents: Int64, originalPriceCents: Int64, at now: Int64,
                   _ db: any SQLConnection) throws {
        try db.run("""
            UPDATE skus SET name = \(name), price_cents = \(priceCents), original_price_cents = \(originalPriceCents),
                updated_at = \(now)
            WHERE id = \(id)
            """)
    }

    func setStock(_ stock: Int64, of id: SKUID, _ db: any SQLConnection) throws {
        try db.run("UPDATE skus SET stock = \(stock) WHERE id = \(id)")
    }

    /// Moves the stock by `delta` unless that leaves it below 0; whether it did.
    func moveStock(of id: SKUID, by delta: Int64, _ db: any SQLConnection) throws -> Bool {
        try db.run("UPDATE skus SET stock = stock + \(delta) WHERE id = \(id) AND stock + \(delta) >= 0") == 1
    }

    func setStatus(_ status: ProductStatus, of id: ProductID, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("UPDATE products SET status = \(status), updated_at = \(now) WHERE id = \(id)")
    }

    /// A SKU's own sale status (its product's list price and stock follow, by trigger).
    func setSKUStatus(_ status: ProductStatus, of id: SKUID, _ db: any SQLConnection) throws {
        try db.run("UPDATE skus SET status = \(status) WHERE id = \(id)")
    }

    /// Whether another SKU of the product has this name.
    func skuNameTaken(_ name: String, product: ProductID, except id: SKUID, _ db: any SQLConnection) throws -> Bool {
        try db.scalarInt("SELECT COUNT(*) FROM skus WHERE product_id = \(product) AND name = \(name) AND id <> \(id)") ?? 0 > 0
    }
}
