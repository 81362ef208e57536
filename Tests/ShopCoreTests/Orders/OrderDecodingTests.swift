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
        try shop.orderCorrupt(order.id, set: "status = 'lost_in_the_post'")

        let error = try #require(#expect(throws: RowDecodingError.self) {
            try shop.shop.orders.order(order.id, for: buyer.user)
        })
        #expect(error.table == "orders")
        #expect(error.column == "status")
        #expect(error.value == .text("lost_in_the_post"))
    }

    @Test func aTimeThatIsNotSecondsFailsTheReadInsteadOfBecoming1970() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 10)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let order = try shop.orderBuyNow(buyer, [(sku, 1)], key: "k1").order
        try shop.orderCorrupt(order.id, set: "created_at = 'yesterday'")
        let page = try PageRequest(page: 1, perPage: 10)

        let error = try #require(#expect(throws: RowDecodingError.self) {
            try shop.shop.orders.orders(for: buyer.user, status: nil, page: page)
        })
        #expect(error.table == "orders")
        #expect(error.column == "created_at")
        #expect(error.value == .text("yesterday"))
    }
}

extension TestShop {
    /// Writes a value no code path writes, past the CHECK constraints, as a damaged file might hold.
    func orderCorrupt(_ id: OrderID, set assignment: StaticString) throws {
        try pool.write { db in
            try db.run("PRAGMA ignore_check_constraints = ON")
            defer { _ = try? db.run("PRAGMA ignore_check_constraints = OFF") }
            try db.run(SQL(verbatim: "UPDATE orders SET ") + SQL(verbatim: assignment) + " WHERE id = \(id)")
        }
    }
}
