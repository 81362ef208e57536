import Foundation
import SQL
import SQLite
@testable import ShopCore
import ShopTestSupport

/// One SKU of the small catalogue the order tests seed (each SKU its own product unless `product` is shared).
struct OrderSeedSKU {
    var code: String
    var product: String? = nil
    var price = "10.00"
    var stock = 100
    var status = "on_sale"
    /// The import's `delivery` column: `same_day`, `next_day`, or empty for the default.
    var delivery = ""
}

/// What an order test starts from: a buyer with an address, and the seeded SKUs by code.
struct OrderBuyer {
    let user: UserID
    let address: AddressID
    /// The client address its checkouts come from (refused coupon codes are counted per address too).
    var ip = "127.0.0.1"
}

extension TestShop {
    /// Imports `skus` as CSV through the catalogue importer and answers every SKU id by code.
    @discardableResult
    func orderSeed(_ skus: [OrderSeedSKU]) throws -> [String: SKUID] {
        let header = "product_code,sku_code,sku_name,title,subtitle,category,price,original_price,stock,description,"
            + "cover_url,image_urls,attributes,status,delivery"
        let lines = skus.map { sku in
            let product = sku.product ?? "P-\(sku.code)"
            return [product, sku.code, "规格\(sku.code)", "花束\(product)", "", "花束/玫瑰", sku.price, "", String(sku.stock),
                    "", "https://img.floral.example/\(product).jpg", "", "", sku.status, sku.delivery].joined(separator: ",")
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

    /// Registers `phone` and gives the new user one address.
    func orderBuyer(_ phone: String, recipient: String = "王小花") throws -> OrderBuyer {
        let user = try register(phone).user.id
        let address = try shop.addresses.create(
            AddressFields(recipient: recipient, phone: "13800138000", province: "浙江省", city: "杭州市", district: "西湖区",
                          detail: "人民路1号", postalCode: "310000"), for: user)
        return OrderBuyer(user: user, address: address.id)
    }

    /// "Buy now" of `items` (SKU, quantity) with `key`.
    @discardableResult
    func orderBuyNow(_ buyer: OrderBuyer, _ items: [(SKUID, Int)], key: String, note: String? = nil) throws -> Checkout {
        try shop.orders.checkout(CheckoutRequest(addressID: buyer.address, note: note,
                                                 items: items.map { .init(skuID: $0.0, quantity: $0.1) }),
                                 idempotencyKey: try IdempotencyKey(key), for: buyer.user, clientIP: "127.0.0.1")
    }

    /// The SKU's stock as stored in its row.
    func orderStock(_ sku: SKUID) throws -> Int64 {
        guard let stock = try pool.read({ db in try db.scalarInt("SELECT stock FROM skus WHERE id = \(sku)") }) else {
            throw FixtureError("no SKU \(sku)")
        }
        return stock
    }

    /// Row counts of the order tables: (orders, order_items, idempotency_keys).
    func orderRowCounts() throws -> [Int64] {
        try pool.read { db in
            try ["orders", "order_items", "idempotency_keys"].map { try db.scalarInt("SELECT COUNT(*) FROM \(SQLIdentifier($0))") ?? -1 }
        }
    }

    /// Marks an order paid the way the payment receiver does (inside one write transaction).
    @discardableResult
    func orderMarkPaid(_ id: OrderID) throws -> Bool {
        let now = clock.clock.unixNow
        return try pool.write { db in try OrderLifecycle().markPaid(id, at: now, db) }
    }
}

/// Collects what racing threads saw, from any thread.
typealias OrderOutcomes = Outcomes<String>
