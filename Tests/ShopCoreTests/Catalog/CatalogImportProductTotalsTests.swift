import Foundation
import SQL
@testable import ShopCore
import ShopTestSupport
import Testing

/// A product's list price, original price and total stock come from its SKUs: the cheapest SKU on
/// sale (any SKU when none is on sale) by price then id, and the stock on sale. On PostgreSQL the
/// import inserts a new product with these values at once (`StagedCatalogWrite`) and the SKUs'
/// trigger then leaves it as it is (migration 0045 writes only products whose values change);
/// these tests hold the values to the rule in the cases where the file alone does not give them:
/// an off-sale SKU, an existing SKU moved into the new product (its older id wins a tie on price),
/// and an existing SKU that `keepExisting` leaves with its product.
@Suite("Catalog import: a new product's price and stock are its SKUs' from the start")
struct CatalogImportProductTotalsTests {
    private static let header = "product_code,sku_code,sku_name,title,category,price,original_price,stock,sku_status"

    /// (code, price, original price, total stock) of every product, and the same recomputed from
    /// its SKUs by the rule.
    private func totals(_ fixture: TestShop) throws -> [String: [Int64]] {
        try fixture.pool.read { db in
            var totals: [String: [Int64]] = [:]
            for row in try db.query("""
                SELECT p.code, p.price_cents, p.original_price_cents, p.total_stock,
                       COALESCE((SELECT s.price_cents FROM skus s WHERE s.product_id = p.id
                                 ORDER BY s.status <> 'on_sale', s.price_cents, s.id LIMIT 1), 0) AS price,
                       COALESCE((SELECT s.original_price_cents FROM skus s WHERE s.product_id = p.id
                                 ORDER BY s.status <> 'on_sale', s.price_cents, s.id LIMIT 1), 0) AS original,
                       COALESCE((SELECT SUM(CASE WHEN s.status = 'on_sale' THEN s.stock ELSE 0 END) FROM skus s
                                 WHERE s.product_id = p.id), 0) AS stock
                FROM products p ORDER BY p.code
                """) {
                let stored: [Int64] = [try row.decode("price_cents"), try row.decode("original_price_cents"),
                                       try row.decode("total_stock")]
                let recomputed: [Int64] = [try row.decode("price"), try row.decode("original"), try row.decode("stock")]
                let code: String = try row.decode("code")
                #expect(stored == recomputed, "\(code)")
                totals[code] = stored
            }
            return totals
        }
    }

    @Test func aNewProductTakesItsPriceAndStockFromItsSKUsOnSaleAndAMovedSKUsOlderIdWinsATie() throws {
        let fixture = try TestShop()
        try fixture.importCatalogCSV("""
            \(Self.header)
            OLD,X,小束,旧款,花束,20.00,30.00,3,on_sale
            OLD,Y,大束,旧款,花束,60.00,,4,on_sale
            """ + "\n")
        #expect(try totals(fixture)["OLD"] == [2_000, 3_000, 7])
        let outcome = try fixture.importCatalogCSV("""
            \(Self.header)
            NEW,N-OFF,试用装,新款,花束,1.00,,100,off_sale
            NEW,N-A,标准,新款,花束,20.00,25.00,2,
            NEW,X,小束,新款,花束,20.00,30.00,5,
            ALLOFF,F-1,一,全下架,花束,7.00,,3,off_sale
            ALLOFF,F-2,二,全下架,花束,5.00,9.00,4,off_sale
            """ + "\n")
        #expect(outcome.summary.products.created == 2)
        let totals = try totals(fixture)
        // X (moved, older id) and N-A tie on 20.00: X's original price; the off-sale 1.00 neither
        // gives the price nor counts its stock.
        #expect(totals["NEW"] == [2_000, 3_000, 7])
        #expect(totals["OLD"] == [6_000, 6_000, 4])
        // No SKU on sale: the cheapest of the others gives the price, and nothing is in stock.
        #expect(totals["ALLOFF"] == [500, 900, 0])
    }

    @Test func aSKUThatKeepExistingLeavesWithItsProductDoesNotCountForTheNewOne() throws {
        let fixture = try TestShop()
        try fixture.importCatalogCSV("""
            \(Self.header)
            KEEP,K,小束,留下,花束,10.00,,9,on_sale
            """ + "\n")
        try fixture.importCatalogCSV("""
            \(Self.header)
            NEW,K,小束,新款,花束,1.00,,50,on_sale
            NEW,N-1,标准,新款,花束,40.00,,6,on_sale
            """ + "\n", .init(keepExisting: true))
        let totals = try totals(fixture)
        #expect(totals["KEEP"] == [1_000, 1_000, 9])
        #expect(totals["NEW"] == [4_000, 4_000, 6])
    }

    /// PostgreSQL's products_refresh_from_skus (0045) writes a product only when a value changes.
    @Test func theRefreshMendsAWrongTotalAndLeavesARightOneUnwritten() throws {
        let fixture = try TestShop()
        try fixture.importCatalogCSV("""
            \(Self.header)
            P,A,小束,玫瑰,花束,10.00,,5,on_sale
            P,B,大束,玫瑰,花束,20.00,,7,on_sale
            """ + "\n")
        try fixture.pool.write { db in
            guard db.dialect == .postgresql else { return }
            let id = try #require(try db.scalarInt("SELECT id FROM products WHERE code = 'P'"))
            let place: SQL = "SELECT CAST(ctid AS text) FROM products WHERE id = \(id)"
            let before = try db.scalar(place, as: String.self)
            _ = try db.query("SELECT products_refresh_from_skus(ARRAY[CAST(\(id) AS bigint)]) AS done")
            #expect(try db.scalar(place, as: String.self) == before)
            _ = try db.run("UPDATE products SET total_stock = 99, price_cents = 1 WHERE id = \(id)")
            _ = try db.query("SELECT products_refresh_from_skus(ARRAY[CAST(\(id) AS bigint)]) AS done")
            #expect(try db.scalarInt("SELECT total_stock FROM products WHERE id = \(id)") == 12)
            #expect(try db.scalarInt("SELECT price_cents FROM products WHERE id = \(id)") == 1_000)
        }
        #expect(try totals(fixture)["P"] == [1_000, 1_000, 12])
    }
}
