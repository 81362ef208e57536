import DatabaseCopy
import Foundation
import PostgreSQL
import PostgreSQLSearch
import SQL
import SQLite
import ShopCore
import ShopMigrations
import ShopTestSupport
import Testing

/// `shop db copy`: a SQLite shop with orders, payments and articles moved into PostgreSQL.
/// Needs a server: runs only when SHOP_TEST_POSTGRES_URL is set.
@Suite(.enabled(if: TestDatabase.isPostgreSQL), .serialized)
struct DatabaseCopyTests {
    @Test func everyTableArrivesRowForRowAndTheShopGoesOnFromThere() throws {
        let lite = try SourceShop()
        let target = try TargetSchema()
        let copied = try target.copy(from: lite)

        #expect(copied.map(\.name).contains("orders"))
        #expect(!copied.map(\.name).contains { $0.hasPrefix("products_fts") || $0 == "schema_migrations" })
        for table in copied {
            #expect(try target.rows(of: table.name) == lite.rows(of: table.name), "\(table.name)")
        }
        #expect(copied.first { $0.name == "payments" }?.rows ?? 0 > 0)
        #expect(copied.first { $0.name == "comments" }?.rows ?? 0 > 1)

        // The copied order reads the same through a shop on PostgreSQL, and new ids follow the copied ones.
        let pgShop = try target.shop(config: lite.test.config, clock: lite.test.clock)
        #expect(try pgShop.shop.orders.order(lite.order, for: lite.buyer) == lite.test.shop.orders.order(lite.order, for: lite.buyer))
        let largestUser = try lite.test.pool.read { try $0.scalarInt("SELECT MAX(id) FROM users") } ?? 0
        let newcomer = try pgShop.register("13700000099")
        #expect(newcomer.rawValue == largestUser + 1)
    }

    @Test func aTargetWithRowsIsRefusedAndLeftAsItWas() throws {
        let lite = try SourceShop()
        let target = try TargetSchema()
        try target.copy(from: lite)
        let before = try target.everyRow()

        #expect(throws: DatabaseCopyError.self) { try target.copy(from: lite) }
        #expect(try target.everyRow() == before)
    }

    @Test func aCopyThatFailsHalfwayLeavesTheTargetEmpty() throws {
        let lite = try SourceShop()
        // A row SQLite was told to take (its checks off) and PostgreSQL's CHECK (found <= searches)
        // refuses, in a table copied midway.
        _ = try lite.test.pool.write { db in
            try db.execute(script: "PRAGMA ignore_check_constraints = ON")
            try db.run("INSERT INTO search_counts (day, keyword, searches, found) VALUES (0, '玫瑰', 1, 2)")
            try db.execute(script: "PRAGMA ignore_check_constraints = OFF")
        }
        let target = try TargetSchema()
        #expect(throws: PostgreSQLError.self) { try target.copy(from: lite) }

        let rows = try target.everyRow()
        #expect(rows.filter { !DatabaseCopy.seededByMigrations.contains($0.key) && $0.key != "schema_migrations" }
            .allSatisfy { $0.value.isEmpty })
        #expect(rows["catalog_version"] == [[.integer(1), .integer(0)]])
        #expect(rows["catalog_changes"]?.count == 64)
        #expect(rows["catalog_changes"]?.allSatisfy { $0.last == .integer(0) } == true)
        // The triggers are on again (the ALTERs were rolled back with the rest).
        let disabled = try target.pool.read { db in
            try db.scalarInt("""
                SELECT COUNT(*) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
                WHERE c.relnamespace = current_schema()::regnamespace AND NOT t.tgisinternal AND t.tgenabled = 'D'
                """)
        }
        #expect(disabled == 0)
    }

    @Test func aSourceBehindTheMigrationsIsRefusedBeforeTheTargetIsTouched() throws {
        let lite = try SourceShop()
        _ = try lite.test.pool.write { db in
            try db.run("DELETE FROM schema_migrations WHERE version = (SELECT MAX(version) FROM schema_migrations)")
        }
        let target = try TargetSchema()
        #expect(throws: DatabaseCopyError.self) { try target.copy(from: lite) }
        #expect(try target.everyRow().isEmpty)
    }
}

/// A SQLite shop filled through the services: the demo catalogue, authors and articles, a buyer
/// with a paid order and a pending one, likes, a follow, and comments (one replying to a later one).
final class SourceShop: @unchecked Sendable {
    let test: TestShop
    let buyer: UserID
    let order: OrderID

    init() throws {
        test = try TestShop(directoryPrefix: "copy-tests") { $0.database.url = "" }
        let shop = test.shop
        _ = try shop.demo.seed(from: Repository.root().appendingPathComponent("Examples").path)
        buyer = try test.register("13900000001", nickname: "买花人").user.id
        let address = try shop.addresses.create(
            AddressFields(recipient: "王小花", phone: "13800138000", province: "浙江省", city: "杭州市", district: "西湖区",
                          detail: "人民路1号", postalCode: "310000"), for: buyer)
        let skus = try test.pool.read { db in
            try db.query("SELECT id FROM skus WHERE stock > 5 ORDER BY id LIMIT 2").map { try $0.decode("id", as: SKUID.self) }
        }
        try #require(skus.count == 2)
        order = try shop.orders.checkout(CheckoutRequest(addressID: address.id, note: "生日快乐",
                                                         items: [.init(skuID: skus[0], quantity: 2), .init(skuID: skus[1], quantity: 1)]),
                                         idempotencyKey: try IdempotencyKey("copy-1"), for: buyer, clientIP: "127.0.0.1").order.id
        #expect(try shop.payments.simulateMockpay(order, succeeded: true, for: buyer) == .paid)
        _ = try shop.orders.checkout(CheckoutRequest(addressID: address.id, items: [.init(skuID: skus[1], quantity: 1)]),
                                     idempotencyKey: try IdempotencyKey("copy-2"), for: buyer, clientIP: "127.0.0.1")
        _ = try shop.carts.add(skus[0], quantity: 1, for: buyer)

        let (author, article) = try test.pool.read { db in
            (try db.scalar("SELECT author_id FROM articles ORDER BY id LIMIT 1", as: UserID.self),
             try db.scalar("SELECT id FROM articles ORDER BY id LIMIT 1", as: ArticleID.self))
        }
        let (authorID, articleID) = (try #require(author), try #require(article))
        try shop.social.follow(authorID, by: buyer)
        try shop.articles.like(articleID, by: buyer)
        _ = try shop.articles.read(articleID, viewer: buyer, clientIP: "10.0.0.1")
        let first = try shop.articles.comment(on: articleID, content: "真好看", replyTo: nil, by: buyer)
        let second = try shop.articles.comment(on: articleID, content: "同感", replyTo: first.id, by: authorID)
        // A reply that points forward (edited by hand): the copy must not need parents first within a table.
        _ = try test.pool.write { db in try db.run("UPDATE comments SET reply_to = \(second.id) WHERE id = \(first.id)") }
    }

    func rows(of table: String) throws -> [[SQLValue]] {
        try test.pool.read { db in try Tables.rows(of: table, in: db) }
    }
}

/// A fresh PostgreSQL schema to copy into.
struct TargetSchema {
    let url: String
    let pool: PostgreSQL.Pool

    init() throws {
        let server = try #require(TestDatabase.postgresURL)
        let schema = "ts_copy" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try TestDatabase.createSchema(schema, on: server)
        url = TestDatabase.url(server, searchPath: schema)
        pool = try PostgreSQL.Pool(url: url, size: 2)
    }

    @discardableResult
    func copy(from source: SourceShop) throws -> [CopiedTable] {
        try DatabaseCopy(from: source.test.pool, to: pool, targetMigrator: try Migrator(files: ShopMigrations.postgresql)).run()
    }

    func rows(of table: String) throws -> [[SQLValue]] {
        try pool.read { db in try Tables.rows(of: table, in: db) }
    }

    /// Every row of every table of the schema, by table.
    func everyRow() throws -> [String: [[SQLValue]]] {
        try pool.read { db in
            var all: [String: [[SQLValue]]] = [:]
            for name in try db.query("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()") {
                let table = try name.string("table_name")
                all[table] = try Tables.rows(of: table, in: db)
            }
            return all
        }
    }

    /// A shop over the target, with a code sender of its own so it can register someone.
    func shop(config: Config, clock: ManualClock) throws -> PostgreSQLShop {
        var config = config
        config.database.url = url
        let sender = CapturingCodeSender()
        let shop = try Shop(pool: pool, search: PostgreSQLSearch(), config: config, notifyURL: TestShop.notifyURL, clock: clock.clock, logger: .silent,
                            migrator: try Migrator(files: ShopMigrations.postgresql), codeSender: sender)
        return PostgreSQLShop(shop: shop, sender: sender)
    }
}

struct PostgreSQLShop {
    let shop: Shop
    let sender: CapturingCodeSender

    func register(_ phone: String) throws -> UserID {
        _ = try shop.verification.requestCode(phone: phone, purpose: .register, clientIP: "10.0.0.2")
        let code = try #require(sender.lastCode(to: try PhoneNumber.normalize(phone), for: .register))
        return try shop.accounts.register(phone: phone, code: code, credential: Credential(passwordMD5: nil, password: TestShop.password),
                                          nickname: nil, clientIP: "10.0.0.2").user.id
    }
}

/// A table's rows in a fixed order, whatever the engine: the columns both engines give it (the
/// PostgreSQL table may be wider than SQLite's), sorted by every column.
enum Tables {
    static func rows(of table: String, in db: any SQLConnection) throws -> [[SQLValue]] {
        let names: [String] = switch db.dialect {
        case .sqlite: try db.query("SELECT name FROM pragma_table_info(\(table)) ORDER BY cid").map { try $0.string("name") }
        case .postgresql:
            try db.query("""
                SELECT column_name FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = \(table) ORDER BY ordinal_position
                """).map { try $0.string("column_name") }
        }
        let columns = names.filter { $0 != "applied_at" }.sorted()
        let list = columns.map { SQL("\(SQLIdentifier($0))") }.joined(separator: ", ")
        let rows = try db.query("SELECT \(list) FROM \(SQLIdentifier(table))")
        return rows.map { row in columns.indices.map { row[$0] } }.sorted { "\($0)" < "\($1)" }
    }
}
