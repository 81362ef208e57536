import Foundation
import SQL
import SQLite
import ShopCore
import ShopTestSupport

extension TestShop {
    /// Registers `phone` and answers the new user's id.
    func cartUser(_ phone: String) throws -> UserID {
        try register(phone).user.id
    }

    /// The raw `cart_items` rows of `user` (timestamps included), to prove a refused change wrote nothing.
    func cartRows(of user: UserID) throws -> [String] {
        try pool.read { db in
            try db.query("""
                SELECT id, sku_id, quantity, selected, created_at, updated_at FROM cart_items WHERE user_id = \(user) ORDER BY id
                """).map { row in
                try ["id", "sku_id", "quantity", "selected", "created_at", "updated_at"]
                    .map { String(try row.decode($0, as: Int64.self)) }.joined(separator: " ")
            }
        }
    }

    /// The raw `addresses` rows of `user`, timestamps included.
    func cartAddressRows(of user: UserID) throws -> [String] {
        try pool.read { db in
            let columns = ["id", "user_id", "recipient", "phone", "province", "city", "district", "detail", "postal_code",
                           "is_default", "created_at", "updated_at"]
            return try db.query("SELECT * FROM addresses WHERE user_id = \(user) ORDER BY id").map { row in
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
typealias CartOutcomes = Outcomes<String>
