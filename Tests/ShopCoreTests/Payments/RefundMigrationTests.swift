import Foundation
import SQL
import SQLite
import ShopMigrations
import Testing

@Suite("Migration 0017: refunds on SQLite")
struct RefundMigrationTests {
    /// SQLite rebuilds `orders` to widen its status check, with foreign keys on: every order, its
    /// lines (which the drop cascades to), payments and idempotency keys must come through.
    @Test func upgradingAShopWithOrdersKeepsEveryRowAndEveryReference() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("refund-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = try DatabasePool(path: directory.appendingPathComponent("shop.sqlite").path, readers: 1,
                                    options: ConnectionOptions(synchronous: .normal))
        let all = try Migrator(files: ShopMigrations.sqlite)
        try Migrator(migrations: all.migrations.filter { $0.version < 17 }).migrate(pool)
        try pool.write { db in
            try db.run("INSERT INTO users (id, phone, nickname, password_hash, password_scheme, created_at, updated_at) VALUES (1, '13800138000', 'n', 'x', 'argon2id', 0, 0)")
            try db.run("INSERT INTO categories (id, name, path) VALUES (1, '花束', '花束')")
            try db.run("INSERT INTO products (id, code, category_id, title, status, created_at, updated_at) VALUES (1, 'P', 1, '玫瑰', 'on_sale', 0, 0)")
            try db.run("INSERT INTO skus (id, product_id, code, name, price_cents, original_price_cents, stock, created_at, updated_at) VALUES (1, 1, 'S', '11枝', 50, 50, 5, 0, 0)")
            for (id, status) in [(7, "paid"), (8, "cancelled")] {
                try db.run("""
                    INSERT INTO orders (id, number, user_id, status, total_cents, ship_recipient, ship_phone, ship_province, ship_city,
                                        ship_district, ship_detail, created_at, pay_deadline)
                    VALUES (\(id), \("2026120100000000\(id)"), 1, \(status), 100, 'a', 'b', 'c', 'd', 'e', 'f', 0, 1800)
                    """)
                try db.run("INSERT INTO order_items (order_id, sku_id, product_id, title, sku_name, price_cents, quantity) VALUES (\(id), 1, 1, '玫瑰', '11枝', 50, 2)")
                try db.run("INSERT INTO payments (order_id, provider, amount_cents, status, created_at, updated_at) VALUES (\(id), 'alipay', 100, 'succeeded', 0, 0)")
                try db.run("INSERT INTO idempotency_keys (user_id, key, request_hash, order_id, created_at) VALUES (1, \("k\(id)"), 'h', \(id), 0)")
            }
        }

        #expect(try Migrator(migrations: all.migrations.filter { $0.version <= 17 }).migrate(pool) == ["0017_refunds"])

        let after = try pool.write { db -> [Int64] in
            [Int64(try db.query("PRAGMA foreign_key_check").count)]
                + (try ["orders", "order_items", "payments", "idempotency_keys"].map {
                    try db.scalarInt("SELECT COUNT(*) FROM \(SQLIdentifier($0))") ?? -1
                })
                + [Int64(try db.run("UPDATE orders SET status = 'refunding' WHERE id = 7"))]
        }
        #expect(after == [0, 2, 2, 2, 2, 1], "no dangling reference, every row kept, the new status allowed")
        // an order that payments refer to still cannot vanish: the references were rebuilt, not lost
        #expect(throws: (any Error).self) { try pool.write { db in try db.run("DELETE FROM orders WHERE id = 8") } }
    }
}
