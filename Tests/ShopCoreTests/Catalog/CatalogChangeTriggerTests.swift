import SQL
@testable import ShopCore
import ShopTestSupport
import Testing

/// Migration 0041's UPDATE triggers name the columns whose change moves `catalog_changes`; the
/// rest are per-click counters. A column added to `products` or `skus` must join one list or the
/// other (in a new migration that rewrites the trigger): until then this test fails, so no column
/// can silently stop reaching the kept pages.
@Suite("Catalogue change triggers cover every column")
struct CatalogChangeTriggerTests {
    static let watched: [String: Set<String>] = [
        "products": ["id", "code", "category_id", "title", "subtitle", "description", "cover_url", "attributes", "status",
                     "price_cents", "original_price_cents", "created_at", "updated_at", "delivery"],
        "skus": ["id", "product_id", "code", "name", "price_cents", "original_price_cents", "status", "created_at", "updated_at"],
    ]
    /// Counters: their changes move nothing, except stock reaching or leaving zero.
    static let counters: [String: Set<String>] = ["products": ["sales", "total_stock"], "skus": ["stock"]]

    @Test(arguments: ["products", "skus"])
    func everyColumnIsEitherWatchedByTheTriggerOrACounter(table: String) throws {
        let shop = try TestShop()
        let columns = try shop.pool.read { db -> Set<String> in
            let sql: SQL = db.dialect == .sqlite
                ? "SELECT name FROM pragma_table_info(\(table))"
                : "SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = \(table)"
            return Set(try db.query(sql).map { try $0.decode("name", as: String.self) })
        }
        let known = Self.watched[table, default: []].union(Self.counters[table, default: []])
        #expect(columns.subtracting(known).isEmpty, "columns no trigger decides about: \(columns.subtracting(known).sorted())")
        #expect(known.subtracting(columns).isEmpty, "columns the lists name that are gone: \(known.subtracting(columns).sorted())")
    }
}
