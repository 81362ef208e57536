import Foundation
import SQL
@testable import ShopCore
import ShopTestSupport

extension TestShop {
    /// Imports one SKU per `(code, price, category path)` (stock 500 each) and answers the SKU ids by code.
    @discardableResult
    func couponSeed(_ skus: [(code: String, price: String, category: String)]) throws -> [String: SKUID] {
        let header = "product_code,sku_code,sku_name,title,subtitle,category,price,original_price,stock,description,"
            + "cover_url,image_urls,attributes,status"
        let lines = skus.map { sku in
            ["P-\(sku.code)", sku.code, "规格\(sku.code)", "商品\(sku.code)", "", sku.category, sku.price, "", "500", "",
             "https://img.floral.example/\(sku.code).jpg", "", "", "on_sale"].joined(separator: ",")
        }
        let outcome = try shop.catalogImporter.importData(Array(([header] + lines).joined(separator: "\n").utf8) + [10],
                                                          format: .csv, options: .init())
        guard outcome.issues.isEmpty else { throw FixtureError("seed rejected: \(outcome.issues)") }
        return try pool.read { db in
            var ids: [String: SKUID] = [:]
            for row in try db.query("SELECT id, code FROM skus") { ids[try row.decode("code")] = try row.decode("id") }
            return ids
        }
    }

    /// "Buy now" with a coupon code.
    @discardableResult
    func couponBuy(_ buyer: OrderBuyer, _ items: [(SKUID, Int)], coupon: String?, key: String) throws -> Checkout {
        try shop.orders.checkout(CheckoutRequest(addressID: buyer.address, items: items.map { .init(skuID: $0.0, quantity: $0.1) },
                                                 couponCode: coupon),
                                 idempotencyKey: try IdempotencyKey(key), for: buyer.user, clientIP: buyer.ip)
    }

    /// The coupon's stored use count.
    func couponUses(_ code: String) throws -> Int {
        guard let coupon = try shop.coupons.list().first(where: { $0.code == code }) else { throw FixtureError("no coupon \(code)") }
        return coupon.uses
    }
}
