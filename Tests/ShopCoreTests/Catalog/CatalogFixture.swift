import Foundation
import SQL
import SQLite
@testable import ShopCore
import ShopTestSupport

/// One SKU row of a catalogue file, with plausible defaults; `csv` quotes every field.
struct CatalogLine {
    static let header = "product_code,sku_code,sku_name,title,subtitle,category,price,original_price,stock,"
        + "description,cover_url,image_urls,attributes,status"

    var product = "P1"
    var sku = "P1-S1"
    var skuName = "11枝"
    var title = "红玫瑰花束"
    var subtitle = ""
    var category = "花束/玫瑰"
    var price = "129.00"
    var originalPrice = ""
    var stock = "10"
    var description = ""
    var cover = ""
    var images = ""
    var attributes = ""
    var status = ""

    var fields: [String] {
        [product, sku, skuName, title, subtitle, category, price, originalPrice, stock, description, cover, images,
         attributes, status]
    }

    var csv: String {
        fields.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ",")
    }

    /// A CSV file: the header, then each line, LF-terminated.
    static func file(_ lines: [CatalogLine]) -> String {
        ([header] + lines.map(\.csv)).joined(separator: "\n") + "\n"
    }
}

/// Every entry of the search index: (term, product, field, position) of SQLite's FTS5 table, or
/// the rows of PostgreSQL's gram table then of its folded texts. Run it in a write: reading
/// SQLite's index takes a temporary fts5vocab table.
func searchIndexEntries(_ db: any SQLConnection) throws -> [[SQLValue]] {
    switch db.dialect {
    case .sqlite:
        try db.execute(script: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_fts_entries USING fts5vocab(main, search_fts, 'instance')")
        return try db.query("SELECT term, doc, col, \"offset\" FROM temp.search_fts_entries ORDER BY term, doc, col, \"offset\"")
            .map { row in (0..<4).map { row[$0] } }
    case .postgresql:
        // Each element of a product's set: its gram's first field (one digit), then the gram.
        let grams = try db.query("""
            SELECT substr(e, 2) COLLATE "C" AS gram, CAST(substr(e, 1, 1) AS smallint) AS field, product_id
            FROM search_gram_sets, unnest(grams) AS e ORDER BY gram, field, product_id
            """)
            .map { row in (0..<3).map { row[$0] } }
        let counts = try db.query("SELECT element, products FROM search_gram_counts WHERE products > 0 ORDER BY element")
            .map { row in (0..<2).map { row[$0] } }
        let texts = try db.query("SELECT product_id, title, subtitle, description FROM search_texts ORDER BY product_id")
            .map { row in (0..<4).map { row[$0] } }
        return grams + counts + texts
    }
}

/// How many entries of the search index belong to this product.
func searchIndexEntries(of product: ProductID, _ db: any SQLConnection) throws -> Int64 {
    switch db.dialect {
    case .sqlite:
        try db.execute(script: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_fts_entries USING fts5vocab(main, search_fts, 'instance')")
        return try db.scalarInt("SELECT COUNT(*) FROM temp.search_fts_entries WHERE doc = \(product)") ?? 0
    case .postgresql:
        return try db.scalarInt("""
            SELECT (SELECT COALESCE(SUM(cardinality(grams)), 0) FROM search_gram_sets WHERE product_id = \(product))
                 + (SELECT COUNT(*) FROM search_texts WHERE product_id = \(product))
            """) ?? 0
    }
}

/// Every row of the catalogue and search tables: "the database is unchanged" compares two of these.
struct CatalogSnapshot: Equatable {
    let tables: [String: [[SQLValue]]]

    var productCount: Int { tables["products"]?.count ?? 0 }
    var skuCount: Int { tables["skus"]?.count ?? 0 }
    var categoryCount: Int { tables["categories"]?.count ?? 0 }
}

extension TestShop {
    var catalogService: CatalogService { shop.catalog }

    /// Imports CSV text through the same path as a file.
    @discardableResult
    func importCatalogCSV(_ text: String, _ options: CatalogImporter.Options = .init()) throws -> CatalogImporter.Outcome {
        try shop.catalogImporter.importData(Array(text.utf8), format: .csv, options: options)
    }

    @discardableResult
    func importCatalogLines(_ lines: [CatalogLine], _ options: CatalogImporter.Options = .init()) throws -> CatalogImporter.Outcome {
        try importCatalogCSV(CatalogLine.file(lines), options)
    }

    @discardableResult
    func importCatalogJSONLines(_ text: String, _ options: CatalogImporter.Options = .init()) throws -> CatalogImporter.Outcome {
        try shop.catalogImporter.importData(Array(text.utf8), format: .jsonLines, options: options)
    }

    func catalogSnapshot() throws -> CatalogSnapshot {
        try pool.write { db in
            var tables: [String: [[SQLValue]]] = [:]
            for table in ["categories", "products", "skus", "product_images", "search_counts"] {
                tables[table] = try TestDatabase.rows(of: table, db).rows
            }
            tables["search index"] = try searchIndexEntries(db)
            return CatalogSnapshot(tables: tables)
        }
    }

    func catalogProductID(code: String) throws -> ProductID {
        guard let id = try pool.read({ db in try db.scalar("SELECT id FROM products WHERE code = \(code)", as: ProductID.self) }) else {
            throw FixtureError("no product \(code)")
        }
        return id
    }

    func catalogCategoryID(path: String) throws -> CategoryID {
        guard let id = try pool.read({ db in try db.scalar("SELECT id FROM categories WHERE path = \(path)", as: CategoryID.self) }) else {
            throw FixtureError("no category \(path)")
        }
        return id
    }

    /// Sales are counted by orders, not imported: tests set them directly.
    func setCatalogSales(_ sales: Int64, code: String) throws {
        try pool.write { db in _ = try db.run("UPDATE products SET sales = \(sales) WHERE code = \(code)") }
    }

    /// Titles of one page of on-sale products for a query.
    func catalogTitles(_ text: String? = nil, category: CategoryID? = nil, min: Int64? = nil, max: Int64? = nil,
                sort: ProductSort? = nil, page: Int = 1, perPage: Int = 20) throws -> [String] {
        try catalogService.products(ProductQuery(categoryID: category, text: text, minPriceCents: min, maxPriceCents: max, sort: sort,
                                          page: try PageRequest(page: page, perPage: perPage)), unlessAt: nil).current.items.map(\.title)
    }
}
