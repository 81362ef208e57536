import Foundation
import SQL
import SQLite
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("shop seed demo: fills an empty shop, adds only what is missing")
struct DemoSeedTests {
    static let examples = Repository.root().appendingPathComponent("Examples").path

    @Test func seedingAgainAfterASaleAndAnOperatorsEditsChangesNothing() throws {
        let fixture = try TestShop()
        let first = try fixture.shop.demo.seed(from: Self.examples)
        #expect(first.catalog.skus.created > 0)
        #expect(first.authorsCreated > 0)
        #expect(first.articles.counts.created > 0)

        let skus = try fixture.orderSeedIDs()
        let rose11 = try #require(skus["FL-ROSE-001-11"])
        let buyer = try fixture.orderBuyer("13900000001")
        try fixture.orderBuyNow(buyer, [(rose11, 4)], key: "seed-sale-1")
        let soldStock = try fixture.orderStock(rose11)
        #expect(soldStock == 128 - 4)
        let operatorEdit = "product_code,sku_code,sku_name,title,category,price,stock\n"
            + "FL-ROSE-001,FL-ROSE-001-19,19枝,红玫瑰花束·热恋,花束/玫瑰,199.00,3\n"
        _ = try fixture.shop.catalogImporter.importData(Array(operatorEdit.utf8), format: .csv, options: .init())
        try fixture.shop.moderation.setAuthor(false, phone: "13700000001", by: .commandLine(user: "test"))
        let before = try fixture.seedSnapshot()

        let second = try fixture.shop.demo.seed(from: Self.examples)

        #expect(second.catalog.skus.created == 0 && second.catalog.skus.updated == 0)
        #expect(second.catalog.products.created == 0 && second.catalog.products.updated == 0)
        #expect(second.authorsCreated == 0)
        #expect(second.articles.counts.created == 0 && second.articles.counts.updated == 0)
        #expect(try fixture.seedSnapshot() == before)
        #expect(try fixture.orderStock(rose11) == soldStock)
    }

    @Test func seedingAddsWhatIsMissingWithoutTouchingTheRest() throws {
        let fixture = try TestShop()
        _ = try fixture.shop.demo.seed(from: Self.examples)
        let rose19 = try #require(try fixture.orderSeedIDs()["FL-ROSE-001-19"])
        try fixture.pool.write { db in
            try db.run("UPDATE skus SET stock = 1 WHERE code = 'FL-ROSE-001-11'")
            try db.run("DELETE FROM cart_items")
            try db.run("DELETE FROM skus WHERE id = \(rose19)")
        }
        let again = try fixture.shop.demo.seed(from: Self.examples)
        #expect(again.catalog.skus.created == 1)
        #expect(try fixture.orderStock(try #require(try fixture.orderSeedIDs()["FL-ROSE-001-11"])) == 1)
        #expect(try fixture.orderSeedIDs()["FL-ROSE-001-19"] != nil)
    }
}

extension TestShop {
    /// Every SKU id by code.
    func orderSeedIDs() throws -> [String: SKUID] {
        try pool.read { db in
            var ids: [String: SKUID] = [:]
            for row in try db.query("SELECT id, code FROM skus") { ids[try row.decode("code")] = try row.decode("id") }
            return ids
        }
    }

    /// What seeding must never change: the catalogue, the users and their roles, the articles.
    func seedSnapshot() throws -> [String: [[SQLValue]]] {
        try pool.read { db in
            var tables: [String: [[SQLValue]]] = [:]
            for table in ["categories", "products", "skus", "product_images", "users", "articles"] {
                tables[table] = try TestDatabase.rows(of: table, db).rows
            }
            return tables
        }
    }
}
