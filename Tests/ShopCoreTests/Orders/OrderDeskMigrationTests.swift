import Foundation
import SQL
import SQLite
import ShopMigrations
import Testing

@Suite("Migration 0028: the order desk on SQLite")
struct OrderDeskMigrationTests {
    /// SQLite rebuilds `orders` (for `delivered`) and `refunds` (several per payment) with foreign
    /// keys on: every row must come through, the unpaid counts must neither double nor stop being kept.
    @Test func upgradingKeepsEveryRowReferenceIndexAndTheUnpaidCountTriggers() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("desk-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = try DatabasePool(path: directory.appendingPathComponent("shop.sqlite").path, readers: 1,
                                    options: ConnectionOptions(synchronous: .normal))
        let all = try Migrator(files: ShopMigrations.sqlite)
        try Migrator(migrations: all.migrations.filter { $0.version < 28 }).migrate(pool)
        try pool.write { db in
            try db.run("INSERT INTO users (id, phone, nickname, password_hash, password_scheme, created_at, updated_at) VALUES (1, '13800138000', 'n', 'x', 'argon2id', 0, 0)")
            try db.run("INSERT INTO categories (id, name, path) VALUES (1, '花束', '花束')")
            try db.run("INSERT INTO products (id, code, category_id, title, status, created_at, updated_at) VALUES (1, 'P', 1, '玫瑰', 'on_sale', 0, 0)")
            try db.run("INSERT INTO skus (id, product_id, code, name, price_cents, original_price_cents, stock, created_at, updated_at) VALUES (1, 1, 'S', '11枝', 50, 50, 5, 0, 0)")
            for (id, status) in [(7, "refunding"), (8, "pending_payment")] {
                try db.run("""
                    INSERT INTO orders (id, number, user_id, status, total_cents, ship_recipient, ship_phone, ship_province, ship_city,
                                        ship_district, ship_detail, created_at, pay_deadline, delivery_date, delivery_slot, card_message,
                                        discount_cents, coupon_code)
                    VALUES (\(id), \("2026120100000000\(id)"), 1, \(status), 100, 'a', 'b', 'c', 'd', 'e', 'f', 0, 1800, '2026-12-02',
                            'morning', '生日快乐', 5, 'ROSE')
                    """)
                try db.run("INSERT INTO order_items (order_id, sku_id, product_id, title, sku_name, price_cents, quantity) VALUES (\(id), 1, 1, '玫瑰', '11枝', 50, 2)")
                try db.run("INSERT INTO payments (order_id, provider, amount_cents, status, created_at, updated_at) VALUES (\(id), 'alipay', 100, 'succeeded', 0, 0)")
            }
            try db.run("""
                INSERT INTO refunds (number, order_id, payment_id, provider, amount_cents, status, next_attempt_at, created_at, updated_at)
                VALUES ('R20261201000000007-1', 7, 1, 'alipay', 100, 'pending', 0, 0, 0)
                """)
        }

        #expect(try Migrator(migrations: all.migrations.filter { $0.version <= 28 }).migrate(pool) == ["0028_order_desk"])

        let kept = try pool.read { db -> [String] in
            try db.query("SELECT id, status, delivery_slot, card_message, discount_cents, coupon_code FROM orders ORDER BY id").map {
                "\(try $0.decode("id", as: Int64.self)) \(try $0.decode("status", as: String.self)) \(try $0.decode("delivery_slot", as: String.self)) "
                    + "\(try $0.decode("card_message", as: String.self)) \(try $0.decode("discount_cents", as: Int64.self)) \(try $0.decode("coupon_code", as: String.self))"
            }
        }
        #expect(kept == ["7 refunding morning 生日快乐 5 ROSE", "8 pending_payment morning 生日快乐 5 ROSE"])
        let counts = try pool.write { db -> [Int64] in
            [Int64(try db.query("PRAGMA foreign_key_check").count)]
                + (try ["order_items", "payments", "refunds"].map { try db.scalarInt("SELECT COUNT(*) FROM \(SQLIdentifier($0))") ?? -1 })
                + [try db.scalarInt("SELECT unpaid FROM user_unpaid_orders WHERE user_id = 1") ?? -1]
        }
        #expect(counts == [0, 2, 2, 1, 1], "no dangling reference, every row kept, the unpaid count not counted twice")
        let indexes = try pool.read { db in
            try db.query("SELECT name FROM sqlite_master WHERE type IN ('index', 'trigger') AND tbl_name = 'orders' AND sql IS NOT NULL ORDER BY name")
                .map { try $0.decode("name", as: String.self) }
        }
        #expect(indexes == ["orders_by_created", "orders_by_delivery_date", "orders_by_status_deadline", "orders_by_status_shipped",
                            "orders_by_user", "orders_by_user_status", "unpaid_orders_delete", "unpaid_orders_enter",
                            "unpaid_orders_insert", "unpaid_orders_leave"])
        try pool.write { db in
            // the triggers still keep the count: the unpaid order paid, then a second refund of one payment, then delivered
            try db.run("UPDATE orders SET status = 'paid' WHERE id = 8")
            try db.run("""
                INSERT INTO refunds (number, order_id, payment_id, provider, amount_cents, status, next_attempt_at, created_at, updated_at, reason)
                VALUES ('R20261201000000008-2-1', 8, 2, 'alipay', 30, 'pending', 0, 0, 0, '少一枝'),
                       ('R20261201000000008-2-2', 8, 2, 'alipay', 20, 'pending', 0, 0, 0, '再少一枝')
                """)
            try db.run("UPDATE orders SET status = 'shipped' WHERE id = 8")
            try db.run("UPDATE orders SET status = 'delivered', delivered_at = 5, delivery_photo_url = '/media/a.jpg' WHERE id = 8")
        }
        #expect(try pool.read { db in try db.scalarInt("SELECT unpaid FROM user_unpaid_orders WHERE user_id = 1") } == 0)
        #expect(throws: (any Error).self) { try pool.write { db in try db.run("UPDATE orders SET status = 'lost' WHERE id = 8") } }
    }
}
