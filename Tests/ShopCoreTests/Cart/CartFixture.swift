import Foundation
import SQLite
import ShopCore

/// One SKU row of a small catalogue CSV for the cart and address tests.
struct CartCatalogRow {
    var product: String
    var sku: String
    var price = "10.00"
    var stock = 200
    var status = "on_sale"
}

extension TestShop {
    /// Imports `rows` through the catalogue importer (a temp `.csv`) and answers every SKU id by code.
    @discardableResult
    func cartSeed(_ rows: [CartCatalogRow]) throws -> [String: SKUID] {
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
            for row in try db.query("SELECT id, code FROM skus") { ids[try row.string("code")] = SKUID(try row.int64("id")) }
            return ids
        }
    }

    /// Registers `phone` and answers the new user's id.
    func cartUser(_ phone: String) throws -> UserID {
        try register(phone).user.id
    }

    /// The raw `cart_items` rows of `user` (timestamps included), to prove a refused change wrote nothing.
    func cartRows(of user: UserID) throws -> [String] {
        try pool.read { db in
            try db.query("SELECT id, sku_id, quantity, selected, created_at, updated_at FROM cart_items WHERE user_id = ? ORDER BY id",
                         user.rawValue).map { row in
                "\(try row.int64("id")) \(try row.int64("sku_id")) \(try row.int64("quantity")) \(try row.int64("selected")) "
                    + "\(try row.int64("created_at")) \(try row.int64("updated_at"))"
            }
        }
    }

    /// The raw `addresses` rows of `user`, timestamps included.
    func cartAddressRows(of user: UserID) throws -> [String] {
        try pool.read { db in
            let columns = ["id", "user_id", "recipient", "phone", "province", "city", "district", "detail", "postal_code",
                           "is_default", "created_at", "updated_at"]
            return try db.query("SELECT * FROM addresses WHERE user_id = ? ORDER BY id", user.rawValue).map { row in
                columns.map { "\(row[$0])" }.joined(separator: "|")
            }
        }
    }
}

/// A valid address; override what a test is about.
func cartAddress(_ recipient: String = "王小花", detail: String = "人民路1号", isDefault: Bool? = nil) -> AddressFields {
    AddressFields(recipient: recipient, phone: "13800138000", province: "浙江省", city: "杭州市", district: "西湖区",
                  detail: detail, postalCode: "310000", isDefault: isDefault)
}

/// Collects what racing threads saw, from any thread.
final class CartOutcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [String] = []

    func record(_ result: String) {
        lock.lock()
        results.append(result)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return results
    }

    func count(_ result: String) -> Int { all.filter { $0 == result }.count }
}

/// Runs `body` on `count` threads released together, and waits for all of them.
func cartRace(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for index in 0..<count {
        done.enter()
        let thread = Thread {
            start.wait()
            body(index)
            done.leave()
        }
        thread.start()
    }
    for _ in 0..<count { start.signal() }
    done.wait()
}
