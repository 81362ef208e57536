import SQL

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
    func ensureCategory(_ path: [String], _ db: any SQLConnection) throws -> CategoryID {
        var parent: CategoryID?
        for depth in 1...path.count {
            let fullPath = path.prefix(depth).joined(separator: "/")
            if let id = try db.scalar("SELECT id FROM categories WHERE path = \(fullPath)", as: CategoryID.self) {
                parent = id
                continue
            }
            let position = try db.scalarInt("SELECT COUNT(*) FROM categories WHERE parent_id IS NOT DISTINCT FROM \(parent)") ?? 0
            parent = try db.insert("INSERT INTO categories (name, parent_id, path, position) VALUES (\(path[depth - 1]), \(parent), \(fullPath), \(position))", returning: CategoryID.self)
        }
        guard let parent else { throw CatalogError.categoryNotFound }
        return parent
    }

    func product(code: String, _ db: any SQLConnection) throws -> (id: ProductID, fields: ProductFields)? {
        guard let row = try db.queryOne("""
            SELECT id, category_id, title, subtitle, description, cover_url, attributes, status FROM products WHERE code = \(code)
            """) else { return nil }
        let id: ProductID = try row.decode("id")
        let images = try db.query("SELECT url FROM product_images WHERE product_id = \(id) ORDER BY position")
            .map { try $0.decode("url", as: String.self) }
        return (id, ProductFields(categoryID: try row.decode("category_id"), title: try row.decode("title"),
                                  subtitle: try row.decode("subtitle"), description: try row.decode("description"),
                                  coverURL: try row.decode("cover_url"), attributes: try row.decode("attributes"),
                                  status: try row.decode("status"), images: images))
    }

    func insertProduct(code: String, _ fields: ProductFields, at now: Int64, _ db: any SQLConnection) throws -> ProductID {
        let id = try db.insert("""
            INSERT INTO products (code, category_id, title, subtitle, description, cover_url, attributes, status, created_at, updated_at)
            VALUES (\(code), \(fields.categoryID), \(fields.title), \(fields.subtitle), \(fields.description), \(fields.coverURL),
                    \(fields.attributes), \(fields.status), \(now), \(now))
            """, returning: ProductID.self)
        try replaceImages(id, fields.images, db)
        return id
    }

    func updateProduct(_ id: ProductID, _ fields: ProductFields, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("""
            UPDATE products SET category_id = \(fields.categoryID), title = \(fields.title), subtitle = \(fields.subtitle),
                description = \(fields.description), cover_url = \(fields.coverURL), attributes = \(fields.attributes),
                status = \(fields.status), updated_at = \(now) WHERE id = \(id)
            """)
        try replaceImages(id, fields.images, db)
    }

    private func replaceImages(_ id: ProductID, _ images: [String], _ db: any SQLConnection) throws {
        try db.run("DELETE FROM product_images WHERE product_id = \(id)")
        for (position, url) in images.enumerated() {
            try db.run("INSERT INTO product_images (product_id, position, url) VALUES (\(id), \(position), \(url))")
        }
    }

    func sku(code: String, _ db: any SQLConnection) throws -> (id: SKUID, fields: SKUFields)? {
        try db.queryOne("SELECT id, product_id, name, price_cents, original_price_cents, stock FROM skus WHERE code = \(code)")
            .map { row in
                (try row.decode("id"),
                 SKUFields(productID: try row.decode("product_id"), name: try row.decode("name"),
                           priceCents: try row.decode("price_cents"), originalPriceCents: try row.decode("original_price_cents"),
                           stock: try row.decode("stock")))
            }
    }

    func insertSKU(code: String, _ fields: SKUFields, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("""
            INSERT INTO skus (product_id, code, name, price_cents, original_price_cents, stock, created_at, updated_at)
            VALUES (\(fields.productID), \(code), \(fields.name), \(fields.priceCents), \(fields.originalPriceCents),
                    \(fields.stock), \(now), \(now))
            """)
    }

    func updateSKU(_ id: SKUID, _ fields: SKUFields, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("""
            UPDATE skus SET product_id = \(fields.productID), name = \(fields.name), price_cents = \(fields.priceCents),
                original_price_cents = \(fields.originalPriceCents), stock = \(fields.stock), updated_at = \(now)
            WHERE id = \(id)
            """)
    }
}
