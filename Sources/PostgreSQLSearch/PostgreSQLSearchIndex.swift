import ShopCore
import SQL

/// Keeps `search_grams` and `search_texts` (under a pg_trgm index) in step with `products`: both
/// hold on-sale products only.
extension PostgreSQLSearch {
    /// Products per statement.
    static let productsPerBatch = 1_000
    /// Grams per INSERT.
    static let gramsPerInsert = 20_000

    public func reindex(_ products: [ProductID], _ db: any SQLConnection) throws {
        var pending = Pending()
        var start = 0
        while start < products.count {
            let batch = products[start..<min(start + Self.productsPerBatch, products.count)]
            start += Self.productsPerBatch
            try db.run("DELETE FROM search_grams WHERE product_id IN (\(list: batch))")
            try db.run("DELETE FROM search_texts WHERE product_id IN (\(list: batch))")
            try add(try db.query("""
                SELECT id, title, subtitle, description FROM products WHERE id IN (\(list: batch)) AND status = \(ProductStatus.onSale)
                """), to: &pending, db)
        }
        try pending.flush(db)
        try Self.mergePendingTrigrams(db)
    }

    /// `shop db copy`: the new database's `products` arrive without the index.
    public func rebuild(_ db: any SQLConnection) throws {
        try db.run("DELETE FROM search_grams")
        try db.run("DELETE FROM search_texts")
        var pending = Pending()
        var after: Int64 = 0
        while true {
            let rows = try db.query("""
                SELECT id, title, subtitle, description FROM products
                WHERE status = \(ProductStatus.onSale) AND id > \(after) ORDER BY id LIMIT \(Self.productsPerBatch)
                """)
            guard let last = rows.last else { break }
            try add(rows, to: &pending, db)
            after = try last.decode("id")
        }
        try pending.flush(db)
        try Self.mergePendingTrigrams(db)
        try db.refreshStatistics(of: indexTables)
    }

    public var indexTables: [String] { ["search_grams", "search_texts"] }

    /// New rows of a GIN index wait in its pending list, which every search reads until a vacuum
    /// merges it (and the planner, seeing it, avoids the index): merge them now, once per batch of
    /// writes, far cheaper than entering each row into the index as it comes.
    private static func mergePendingTrigrams(_ db: any SQLConnection) throws {
        _ = try db.query("SELECT gin_clean_pending_list(CAST('search_texts_trgm' AS regclass)) AS merged")
    }

    /// Writes the folded text of these products and queues their grams.
    private func add(_ rows: [Row], to pending: inout Pending, _ db: any SQLConnection) throws {
        var texts: [SQL] = []
        for row in rows {
            let id: Int64 = try row.decode("id")
            let title: String = try row.decode("title")
            let subtitle: String = try row.decode("subtitle")
            let description: String = try row.decode("description")
            texts.append("(\(id), \(SearchText.fold(title)), \(SearchText.fold(subtitle)), \(SearchText.fold(description)))")
            for (gram, field) in SearchText.grams(title: title, subtitle: subtitle, description: description) {
                pending.append(gram: gram, field: field, product: id)
            }
            if pending.count >= Self.gramsPerInsert { try pending.flush(db) }
        }
        guard !texts.isEmpty else { return }
        try db.run("INSERT INTO search_texts (product_id, title, subtitle, description) VALUES \(texts.joined(separator: ", "))")
    }

    /// Grams waiting to be written, as three PostgreSQL array literals: one INSERT … unnest() writes
    /// thousands of rows, where a statement per row made imports crawl. They are inserted in key
    /// order, so the primary key's pages are visited once each, in order (a quarter faster).
    private struct Pending {
        var grams = "{"
        var fields = "{"
        var products = "{"
        var count = 0

        mutating func append(gram: String, field: Int, product: Int64) {
            if count > 0 {
                grams += ","
                fields += ","
                products += ","
            }
            grams += "\""
            for scalar in gram.unicodeScalars {
                if scalar == "\"" || scalar == "\\" { grams += "\\" }
                grams.unicodeScalars.append(scalar)
            }
            grams += "\""
            fields += String(field)
            products += String(product)
            count += 1
        }

        mutating func flush(_ db: any SQLConnection) throws {
            guard count > 0 else { return }
            let literals = (grams: grams + "}", fields: fields + "}", products: products + "}")
            try db.run("""
                INSERT INTO search_grams (gram, field, product_id)
                SELECT * FROM unnest(CAST(\(literals.grams) AS text[]), CAST(\(literals.fields) AS smallint[]),
                                     CAST(\(literals.products) AS bigint[]))
                ORDER BY 1, 2, 3
                """)
            self = Pending()
        }
    }
}
