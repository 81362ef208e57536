import SQLite

/// SQL writes of the catalogue, used by the import: categories by path, products and SKUs by code.
struct CatalogWriteStore {
    struct ProductFields: Equatable {
        var categoryID: CategoryID
        var title: String
        var subtitle: String
        var description: String
        var coverURL: String
        var attributes: String
        var status: ProductStatus
        var images: [String]
    }

    struct SKUFields: Equatable {
        var productID: ProductID
        var name: String
        var priceCents: Int64
        var originalPriceCents: Int64
        var stock: Int64
    }

    /// The id of the category at `path`, creating it and any missing ancestors.
    func ensureCategory(_ path: [String], _ db: Connection) throws -> CategoryID {
        var parent: CategoryID?
        for depth in 1...path.count {
            let fullPath = path.prefix(depth).joined(separator: "/")
            if let id = try db.legacyScalarInt("SELECT id FROM categories WHERE path = ?", fullPath) {
                parent = CategoryID(id)
                continue
            }
            let position = try db.legacyScalarInt("SELECT COUNT(*) FROM categories WHERE parent_id IS ?", parent?.rawValue) ?? 0
            try db.legacyRun("INSERT INTO categories (name, parent_id, path, position) VALUES (?, ?, ?, ?)",
                       path[depth - 1], parent?.rawValue, fullPath, position)
            parent = CategoryID(db.lastInsertRowID)
        }
        guard let parent else { throw CatalogError.categoryNotFound }
        return parent
    }

    func product(code: String, _ db: Connection) throws -> (id: ProductID, fields: ProductFields)? {
        guard let row = try db.legacyQueryOne("""
            SELECT id, category_id, title, subtitle, description, cover_url, attributes, status FROM products WHERE code = ?
            """, code) else { return nil }
        let id = ProductID(try row.int64("id"))
        let images = try db.legacyQuery("SELECT url FROM product_images WHERE product_id = ? ORDER BY position", id.rawValue)
            .map { try $0.string("url") }
        return (id, ProductFields(categoryID: CategoryID(try row.int64("category_id")), title: try row.string("title"),
                                  subtitle: try row.string("subtitle"), description: try row.string("description"),
                                  coverURL: try row.string("cover_url"), attributes: try row.string("attributes"),
                                  status: ProductStatus(rawValue: try row.string("status")) ?? .offSale, images: images))
    }

    func insertProduct(code: String, _ fields: ProductFields, at now: Int64, _ db: Connection) throws -> ProductID {
        try db.legacyRun("""
            INSERT INTO products (code, category_id, title, subtitle, description, cover_url, attributes, status, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, code, fields.categoryID.rawValue, fields.title, fields.subtitle, fields.description, fields.coverURL,
            fields.attributes, fields.status.rawValue, now, now)
        let id = ProductID(db.lastInsertRowID)
        try replaceImages(id, fields.images, db)
        return id
    }

    func updateProduct(_ id: ProductID, _ fields: ProductFields, at now: Int64, _ db: Connection) throws {
        try db.legacyRun("""
            UPDATE products SET category_id = ?, title = ?, subtitle = ?, description = ?, cover_url = ?, attributes = ?,
                status = ?, updated_at = ? WHERE id = ?
            """, fields.categoryID.rawValue, fields.title, fields.subtitle, fields.description, fields.coverURL,
            fields.attributes, fields.status.rawValue, now, id.rawValue)
        try replaceImages(id, fields.images, db)
    }

    private func replaceImages(_ id: ProductID, _ images: [String], _ db: Connection) throws {
        try db.legacyRun("DELETE FROM product_images WHERE product_id = ?", id.rawValue)
        for (position, url) in images.enumerated() {
            try db.legacyRun("INSERT INTO product_images (product_id, position, url) VALUES (?, ?, ?)", id.rawValue, position, url)
        }
    }

    func sku(code: String, _ db: Connection) throws -> (id: SKUID, fields: SKUFields)? {
        try db.legacyQueryOne("SELECT id, product_id, name, price_cents, original_price_cents, stock FROM skus WHERE code = ?", code)
            .map { row in
                (SKUID(try row.int64("id")),
                 SKUFields(productID: ProductID(try row.int64("product_id")), name: try row.string("name"),
                           priceCents: try row.int64("price_cents"), originalPriceCents: try row.int64("original_price_cents"),
                           stock: try row.int64("stock")))
            }
    }

    func insertSKU(code: String, _ fields: SKUFields, at now: Int64, _ db: Connection) throws {
        try db.legacyRun("""
            INSERT INTO skus (product_id, code, name, price_cents, original_price_cents, stock, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, fields.productID.rawValue, code, fields.name, fields.priceCents, fields.originalPriceCents, fields.stock, now, now)
    }

    func updateSKU(_ id: SKUID, _ fields: SKUFields, at now: Int64, _ db: Connection) throws {
        try db.legacyRun("""
            UPDATE skus SET product_id = ?, name = ?, price_cents = ?, original_price_cents = ?, stock = ?, updated_at = ?
            WHERE id = ?
            """, fields.productID.rawValue, fields.name, fields.priceCents, fields.originalPriceCents, fields.stock, now, id.rawValue)
    }
}
