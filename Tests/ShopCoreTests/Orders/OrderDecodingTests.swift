import Foundation
import SQL
import SQLite
@testable import ShopCore
import ShopTestSupport
import Testing

@Suite("Orders: reading a corrupt row")
struct OrderDecodingTests {
    @Test func anUnknownStatusFailsTheReadNamingTableColumnAndValue() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let order = try shop.orderBuyNow(buyer, [(sku, 1)], key: "k1").order
        try shop.orderCorrupt(order.id, column: "status", to: "lost_in_the_post")

        let error = try #require(#expect(throws: RowDecodingError.self) {
            try shop.shop.orders.order(order.id, for: buyer.user)
        })
        #expect(error.table == "orders" || error.table == nil && TestDatabase.isPostgreSQL) // PostgreSQL results name no table
        #expect(error.column == "status")
        #expect(error.value == .text("lost_in_the_post"))
    }

    @Test func aTimeThatIsNotSecondsFailsTheReadInsteadOfBecoming1970() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let order = try shop.orderBuyNow(buyer, [(sku, 1)], key: "k1").order
        try shop.orderCorrupt(order.id, column: "created_at", to: "yesterday")
        let page = try PageRequest(page: 1, perPage: 10)

        let error = try #require(#expect(throws: RowDecodingError.self) {
            try shop.shop.orders.orders(for: buyer.user, status: nil, page: page)
        })
        #expect(error.table == "orders" || error.table == nil && TestDatabase.isPostgreSQL) // PostgreSQL results name no table
        #expect(error.column == "created_at")
        #expect(error.value == .text("yesterday"))
    }
}

extension TestShop {
    /// Writes a text no code path writes, past the CHECK constraints (and, on PostgreSQL, the
    /// column's type), as a damaged file might hold.
    func orderCorrupt(_ id: OrderID, column: String, to value: String) throws {
        try pool.write { db in
            try TestDatabase.corrupting("orders", column: column, db) {
                _ = try db.run("UPDATE orders SET \(SQLIdentifier(column)) = \(value) WHERE id = \(id)")
            }
        }
    }
}
