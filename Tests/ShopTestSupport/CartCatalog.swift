import Foundation
import SQL
import SQLite
import ShopCore

/// One SKU row of a small catalogue CSV for the cart and address tests.
public struct CartCatalogRow {
    public var product: String
    public var sku: String
    public var price: String
    public var stock: Int
    public var status: String

    public init(product: String, sku: String, price: String = "10.00", stock: Int = 200, status: String = "on_sale") {
        self.product = product
        self.sku = sku
        self.price = price
        self.stock = stock
        self.status = status
    }
}

extension TestShop {
    /// Imports `rows` through the catalogue importer (a temp `.csv`) and answers every SKU id by code.
    @discardableResult
    public func cartSeed(_ rows: [CartCatalogRow]) throws -> [String: SKUID] {
        let header = "product_code,sku_code,sku_name,title,subtitle,category,price,original_price,stock,description,cover_url,image_urls,attributes,status"
        let lines = rows.map { row in
            [row.product, row.sku, "规格\(row.sku)", "花束\(row.product)", "", "花束/玫瑰", row.price, "", String(row.stock),
             "", "https://img.floral.example/\(row.product).jpg", "", "", row.status].joined(separator: ",")
        }
        let path = directory.appendingPathComponent("cart-catalog-\(UUID().uuidString).csv").path
        try ([header] + lines).joined(separator: "\n").appending("\n").write(toFile: path, atomically: true, encoding: .utf8)
        _ = try shop.catalogImporter.importFile(at: path, options: .init())
        return try pool.read { db in
            var ids: [String: SKUID] = [:]
            for row in try db.query("SELECT id, code FROM skus") { ids[try row.decode("code")] = try row.decode("id") }
            return ids
        }
    }
}
