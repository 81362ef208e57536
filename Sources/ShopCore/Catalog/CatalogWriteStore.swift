import SQL

/// SQL writes of the catalogue, used by the import: categories by path, products and SKUs by code.
/// Lookups and inserts take a batch of codes at a time: one statement for hundreds of rows, so a
/// PostgreSQL server is not asked once per row across the network.
struct CatalogWriteStore {
    struct ProductFields: Equatable {
        var categoryID: CategoryID
        var title: String
        var subtitle: String
        var description: String
        var coverURL: String
        var attributes: String
        var status: ProductStatus
        var delivery: DeliveryKind
        var images: [String]
    }

    struct SKUFields: Equatable {
        var productID: ProductID
        var name: String
        var priceCents: Int64
        var originalPriceCents: Int64
        var stock: Int64
        var status: ProductStatus
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

    /// The products among `codes` that exist, by code, with their images.
    func products(codes: [String], _ db: any SQLConnection) throws -> [String: (id: ProductID, fields: ProductFields)] {
        guard !codes.isEmpty else { return [:] }
        let rows = try db.query("""
            SELECT id, code, category_id, title, subtitle, description, cover_url, attributes, status, delivery FROM products
            WHERE code IN (\(Self.inList(codes)))
            """)
        guard !rows.isEmpty else { return [:] }
        var found: [String: (id: ProductID, fields: ProductFields)] = [:]
        var codeOfID: [ProductID: String] = [:]
        for row in rows {
            let id: ProductID = try row.decode("id")
            let code: String = try row.decode("code")
            codeOfID[id] = code
            found[code] = (id, ProductFields(categoryID: try row.decode("category_id"), title: try row.decode("title"),
                                             subtitle: try row.decode("subtitle"), description: try row.decode("description"),
                                             coverURL: try row.decode("cover_url"), attributes: try row.decode("attributes"),
                                             status: try row.decode("status"), delivery: try row.decode("delivery"),
                                             images: []))
        }
        for row in try db.query("""
            SELECT product_id, url FROM product_images WHERE product_id IN (\(Self.inList(Array(codeOfID.keys))))
            ORDER BY product_id, position
            """) {
            guard let code = codeOfID[try row.decode("product_id")] else { continue }
            found[code]?.fields.images.append(try row.decode("url"))
        }
        return found
    }

    /// Inserts new products (with their images); answers their ids by code.
    func insertProducts(_ products: [(code: String, fields: ProductFields)], at now: Int64,
                        _ db: any SQLConnection) throws -> [String: ProductID] {
        guard !products.isEmpty else { return [:] }
        var ids: [String: ProductID] = [:]
        for range in Self.chunks(products.count) {
            let values = Self.valuesList(products[range]) { code, fields in
                [code, fields.categoryID, fields.title, fields.subtitle, fields.description, fields.coverURL, fields.attributes,
                 fields.status, fields.delivery, now, now]
            }
            for row in try db.query("""
                INSERT INTO products (code, category_id, title, subtitle, description, cover_url, attributes, status, delivery,
                                      created_at, updated_at)
                VALUES \(values) RETURNING id, code
                """) {
                ids[try row.decode("code")] = try row.decode("id")
            }
        }
        var images: [(ProductID, Int, String)] = []
        for (code, fields) in products {
            guard let id = ids[code] else { throw CatalogError.productNotFound }
            for (position, url) in fields.images.enumerated() { images.append((id, position, url)) }
        }
        try insertImages(images, db)
        return ids
    }

    func updateProduct(_ id: ProductID, _ fields: ProductFields, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("""
            UPDATE products SET category_id = \(fields.categoryID), title = \(fields.title), subtitle = \(fields.subtitle),
                description = \(fields.description), cover_url = \(fields.coverURL), attributes = \(fields.attributes),
                status = \(fields.status), delivery = \(fields.delivery), updated_at = \(now) WHERE id = \(id)
            """)
        try db.run("DELETE FROM product_images WHERE product_id = \(id)")
        try insertImages(fields.images.enumerated().map { (id, $0.offset, $0.element) }, db)
    }

    private func insertImages(_ images: [(ProductID, Int, String)], _ db: any SQLConnection) throws {
        for range in Self.chunks(images.count) {
            let values = Self.valuesList(images[range]) { id, position, url in [id, Int64(position), url] }
            try db.run("INSERT INTO product_images (product_id, position, url) VALUES \(values)")
        }
    }

    /// The SKUs among `codes` that exist, by code.
    func skus(codes: [String], _ db: any SQLConnection) throws -> [String: (id: SKUID, fields: SKUFields)] {
        guard !codes.isEmpty else { return [:] }
        var found: [String: (id: SKUID, fields: SKUFields)] = [:]
        for row in try db.query("""
            SELECT id, code, product_id, name, price_cents, original_price_cents, stock, status FROM skus
            WHERE code IN (\(Self.inList(codes)))
            """) {
            found[try row.decode("code")] = (
                try row.decode("id"),
                SKUFields(productID: try row.decode("product_id"), name: try row.decode("name"),
                          priceCents: try row.decode("price_cents"), originalPriceCents: try row.decode("original_price_cents"),
                          stock: try row.decode("stock"), status: try row.decode("status")))
        }
        return found
    }

    /// Inserts new SKUs in one statement.
    func insertSKUs(_ skus: [(code: String, fields: SKUFields)], at now: Int64, _ db: any SQLConnection) throws {
        for range in Self.chunks(skus.count) {
            let values = Self.valuesList(skus[range]) { code, fields in
                [fields.productID, code, fields.name, fields.priceCents, fields.originalPriceCents, fields.stock, fields.status, now, now]
            }
            try db.run("""
                INSERT INTO skus (product_id, code, name, price_cents, original_price_cents, stock, status, created_at, updated_at)
                VALUES \(values)
                """)
        }
    }

    func updateSKU(_ id: SKUID, _ fields: SKUFields, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("""
            UPDATE skus SET product_id = \(fields.productID), name = \(fields.name), price_cents = \(fields.priceCents),
                original_price_cents = \(fields.originalPriceCents), stock = \(fields.stock), status = \(fields.status),
                updated_at = \(now)
            WHERE id = \(id)
            """)
    }

    // MARK: Statements for many rows

    /// Rows per multi-row statement, at most.
    static let maxRowsPerStatement = 256

    /// `count` rows cut into statements of 256, 128, … 1 rows: every statement text is one of nine,
    /// so each engine prepares it once, however the batches fall.
    static func chunks(_ count: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        while start < count {
            var size = maxRowsPerStatement
            while size > count - start { size /= 2 }
            ranges.append(start..<start + size)
            start += size
        }
        return ranges
    }

    /// `a, b, c` for `IN (…)`, padded with its last value to a power of two (the same rows match)
    /// so that few statement texts cover every list length. Built in one pass.
    static func inList<Value: SQLBindable>(_ values: [Value]) -> SQL {
        guard let last = values.last else { return "NULL" }
        var padded = 1
        while padded < values.count { padded *= 2 }
        var interpolation = SQL.StringInterpolation(literalCapacity: 2 * padded, interpolationCount: padded)
        for index in 0..<padded {
            if index > 0 { interpolation.appendLiteral(", ") }
            interpolation.appendInterpolation(index < values.count ? values[index] : last)
        }
        return SQL(stringInterpolation: interpolation)
    }

    /// `(…), (…)`: the VALUES of a multi-row INSERT, each element's values bound. Built in one pass
    /// (joining `SQL` values one by one copies the statement so far at every step).
    static func valuesList<Elements: Collection>(_ elements: Elements, _ row: (Elements.Element) -> [any SQLBindable]) -> SQL {
        var interpolation = SQL.StringInterpolation(literalCapacity: 4 * elements.count, interpolationCount: 10 * elements.count)
        for (index, element) in elements.enumerated() {
            interpolation.appendLiteral(index == 0 ? "(" : ", (")
            for (column, value) in row(element).enumerated() {
                if column > 0 { interpolation.appendLiteral(", ") }
                interpolation.appendInterpolation(value.sqlValue)
            }
            interpolation.appendLiteral(")")
        }
        return SQL(stringInterpolation: interpolation)
    }
}
