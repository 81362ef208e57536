import Foundation
import SQL
import ShopCore
import ShopTestSupport
import Testing

@Suite("Cart service")
struct CartServiceTests {
    /// A shop with a roomy catalogue: FL-A (two SKUs), FL-B, FL-LOW (stock 3), FL-OFF (off sale), and ten more for races.
    static func seeded(_ configure: (inout Config) -> Void = { _ in }) throws -> (TestShop, [String: SKUID], UserID) {
        let fixture = try TestShop(configure)
        var rows = [
            CartCatalogRow(product: "FL-A", sku: "A-1", price: "12.50"),
            CartCatalogRow(product: "FL-A", sku: "A-2", price: "20.00"),
            CartCatalogRow(product: "FL-B", sku: "B-1", price: "99.99"),
            CartCatalogRow(product: "FL-LOW", sku: "LOW-1", price: "5.00", stock: 3),
            CartCatalogRow(product: "FL-OFF", sku: "OFF-1", status: "off_sale"),
        ]
        rows += (0..<10).map { CartCatalogRow(product: "FL-R\($0)", sku: "R-\($0)") }
        let skus = try fixture.cartSeed(rows)
        let user = try fixture.cartUser("13800138000")
        return (fixture, skus, user)
    }

    /// A database that records the durability each write asked for, then runs it on `base`. On
    /// PostgreSQL it also records, after each cart function's call, `reading` in the same
    /// transaction (by default the `synchronous_commit` the transaction will commit with; the call
    /// runs as an ordinary statement there, so a reading can follow it inside the transaction), or
    /// with `counting` how much the reading (a count) grew across the call.
    final class DurabilityRecorder: Database, @unchecked Sendable {
        let base: any Database
        let reading: SQL
        let counting: Bool
        let asked = Outcomes<Durability>()
        let readings = Outcomes<String>()
        init(_ base: any Database, reading: SQL = "SELECT current_setting('synchronous_commit')", counting: Bool = false) {
            self.base = base
            self.reading = reading
            self.counting = counting
        }
        var dialect: SQLDialect { base.dialect }
        func write<T>(_ body: (any SQLConnection) throws -> T) throws -> T { try write(durability: .powerLoss, body) }
        func write<T>(durability: Durability, _ body: (any SQLConnection) throws -> T) throws -> T {
            asked.record(durability)
            return try base.write(durability: durability) { db in
                try body(db.dialect == .postgresql ? SettingProbe(db, reading: reading, counting: counting, readings: readings) : db)
            }
        }
        func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T { try base.read(body) }
    }

    /// A connection that runs a transaction's ending statement (`queryEnding`) and held writes
    /// (`runLater`) at once, then runs `reading` (one value) in the same transaction and records
    /// it, or with `counting` records how much it grew since just before the statement.
    final class SettingProbe: SQLConnection {
        let base: any SQLConnection
        let reading: SQL
        let counting: Bool
        let readings: Outcomes<String>
        init(_ base: any SQLConnection, reading: SQL, counting: Bool, readings: Outcomes<String>) {
            self.base = base
            self.reading = reading
            self.counting = counting
            self.readings = readings
        }
        var dialect: SQLDialect { base.dialect }
        func run(_ sql: SQL) throws -> Int { try base.run(sql) }
        func query(_ sql: SQL) throws -> [Row] { try base.query(sql) }
        func queryOne(_ sql: SQL) throws -> Row? { try base.queryOne(sql) }
        func execute(script: String) throws { try base.execute(script: script) }
        func serialize(onKeys keys: [String]) throws { try base.serialize(onKeys: keys) }
        func refreshStatistics(of tables: [String]) throws { try base.refreshStatistics(of: tables) }
        func runLater(_ sql: SQL) throws {
            let before = try count()
            try base.run(sql)
            try read(since: before)
        }
        func queryEnding(_ sql: SQL) throws -> [Row] {
            let before = try count()
            let rows = try base.query(sql)
            try read(since: before)
            return rows
        }
        private func count() throws -> Int? { counting ? try base.scalar(reading, as: Int.self) : nil }
        private func read(since before: Int?) throws {
            if let before, let after = try count() {
                readings.record("\(after - before)")
            } else {
                readings.record(try base.scalar(reading, as: String.self) ?? "?")
            }
        }
    }

    /// SQLite: each change asks for `.processCrash`. PostgreSQL: each change is one cart function
    /// whose transaction asks for nothing, and the function itself turns `synchronous_commit` off
    /// for that transaction (the server's default is on): the same durability, one statement.
    @Test func cartChangesCommitWithoutWaitingForTheDiskButKeepEveryRule() throws {
        let (fixture, skus, user) = try Self.seeded()
        let recorder = DurabilityRecorder(fixture.pool)
        let carts = CartService(pool: recorder, maxItems: 99, clock: fixture.shop.clock,
                                couponAttempts: fixture.shop.couponAttempts)
        let postgres = fixture.pool.dialect == .postgresql
        let cart = try carts.add(try #require(skus["A-1"]), quantity: 2, for: user)
        let line = try #require(cart.lines.first)
        _ = try carts.update(line.id, quantity: 3, selected: false, for: user)
        #expect(throws: CartError.self) { try carts.add(try #require(skus["LOW-1"]), quantity: 4, for: user) }
        _ = try carts.remove(line.id, for: user)
        _ = try carts.clear(for: user)
        #expect(recorder.asked.all == Array(repeating: postgres ? .powerLoss : .processCrash, count: 5))
        #expect(recorder.readings.all == (postgres ? Array(repeating: "off", count: 5) : []))
        #expect(try fixture.cartRows(of: user).isEmpty)
        if postgres {
            // what a transaction that asks for nothing commits with when no cart function ran in it
            let plain = try fixture.pool.write { db in
                try db.scalar("SELECT current_setting('synchronous_commit')", as: String.self)
            }
            #expect(plain == "on")
        }
    }

    /// PostgreSQL: each cart function finds the buyer's lines through an index however small the
    /// planner thinks `cart_items` is (migration 0048). Its plans are made once per connection and
    /// kept; planned on a table analysed empty (a new shop, or one autovacuum found almost empty
    /// after the clears) they were sequential scans, which read every line the clears left dead.
    @Test func cartFunctionsFindTheBuyersLinesByIndexOnATableAnalysedEmpty() throws {
        let (fixture, skus, user) = try Self.seeded()
        guard fixture.pool.dialect == .postgresql else { return }
        try fixture.pool.write { db in _ = try db.run("ANALYZE cart_items") }
        // the sequential scans of cart_items each change made (the backend's counts not yet reported)
        let recorder = DurabilityRecorder(fixture.pool, reading: """
            SELECT COALESCE((SELECT seq_scan FROM pg_stat_xact_user_tables WHERE relid = CAST('cart_items' AS regclass)), 0)
            """, counting: true)
        let carts = CartService(pool: recorder, maxItems: 99, clock: fixture.shop.clock,
                                couponAttempts: fixture.shop.couponAttempts)
        let low = try #require(skus["LOW-1"])
        let line = try #require(try carts.add(low, quantity: 1, for: user).lines.first)
        _ = try carts.add(try #require(skus["A-1"]), quantity: 1, for: user)
        _ = try carts.update(line.id, quantity: 2, selected: nil, for: user)
        _ = try carts.update(line.id, quantity: 1, selected: false, for: user)
        #expect(throws: CartError.outOfStock(skuID: low, sku: SKULabel(title: "花束FL-LOW", name: "规格LOW-1"), available: 3)) {
            try carts.add(low, quantity: 3, for: user)
        }
        _ = try carts.remove(line.id, for: user)
        _ = try carts.clear(for: user)
        #expect(recorder.readings.all == Array(repeating: "0", count: 7))
        #expect(try fixture.cartRows(of: user).isEmpty)
    }

    @Test func anAddIsOneStatementWithItsCommitOnPostgreSQLAndClearingWaitsForNone() throws {
        let (fixture, skus, user) = try Self.seeded()
        let (counted, database) = try fixture.counted()
        let sku = try #require(skus["A-1"])
        // PostgreSQL: the lock, the checks, the write and the cart read are one call (cart_add), sent
        // with the commit. SQLite: what the add needs in one read, the write, the cart read.
        let postgres = fixture.pool.dialect == .postgresql
        for expected in [1, 2] {
            database.reset()
            let cart = try counted.carts.add(sku, quantity: 1, for: user)
            #expect(cart.lines.map(\.quantity) == [expected])
            #expect(database.statements == (postgres ? 1 : 3))
            #expect(database.answered == (postgres ? 1 : 2))
            #expect(database.ending == 1)
        }
        // a refused add is one statement too, and writes nothing
        database.reset()
        #expect(throws: CartError.limitExceeded(max: 99)) { try counted.carts.add(sku, quantity: 98, for: user) }
        #expect(database.answered == (postgres ? 1 : 1))
        // PostgreSQL: the clear is one call (cart_clear) held for the commit; SQLite: its DELETE
        database.reset()
        #expect(try counted.carts.clear(for: user).lines.isEmpty)
        #expect(database.statements == 1)
        #expect(database.answered == 0)
        #expect(try fixture.cartRows(of: user).isEmpty)
    }

    /// PostgreSQL: a quantity or selection change is one call (cart_update) and a removal one call
    /// (cart_remove), each sent with the commit, refused or not. SQLite runs the service's steps.
    @Test func aLineChangeOrRemovalIsOneStatementWithItsCommitOnPostgreSQL() throws {
        let (fixture, skus, user) = try Self.seeded()
        let (counted, database) = try fixture.counted()
        let postgres = fixture.pool.dialect == .postgresql
        let low = try #require(skus["LOW-1"])
        _ = try counted.carts.add(try #require(skus["A-1"]), quantity: 1, for: user)
        let line = try #require(try counted.carts.add(low, quantity: 1, for: user).lines.first)
        #expect(line.skuID == low)
        // (change, statements on SQLite, answered on SQLite): a raise reads the line, the total and the SKU
        let changes: [(() throws -> Cart, Int, Int)] = [
            ({ try counted.carts.update(line.id, quantity: 3, selected: nil, for: user) }, 5, 4),
            ({ try counted.carts.update(line.id, quantity: 2, selected: nil, for: user) }, 3, 2),
            ({ try counted.carts.update(line.id, quantity: nil, selected: false, for: user) }, 3, 3),
            ({ try counted.carts.update(line.id, quantity: 1, selected: true, for: user) }, 4, 3),
        ]
        for (index, (change, sqliteStatements, sqliteAnswered)) in changes.enumerated() {
            database.reset()
            _ = try change()
            #expect(database.statements == (postgres ? 1 : sqliteStatements), "change \(index)")
            #expect(database.answered == (postgres ? 1 : sqliteAnswered), "change \(index)")
            #expect(database.ending == 1, "change \(index)")
        }
        database.reset()
        #expect(throws: CartError.outOfStock(skuID: low, sku: SKULabel(title: "花束FL-LOW", name: "规格LOW-1"), available: 3)) {
            try counted.carts.update(line.id, quantity: 4, selected: nil, for: user)
        }
        #expect(database.statements == (postgres ? 1 : 3))
        database.reset()
        let after = try counted.carts.remove(line.id, for: user)
        #expect(after.lines.map(\.skuID) == [skus["A-1"]])
        #expect(database.statements == (postgres ? 1 : 2))
        #expect(database.answered == (postgres ? 1 : 2))
        #expect(database.ending == 1)
        database.reset()
        #expect(throws: CartError.lineNotFound) { try counted.carts.remove(line.id, for: user) }
        #expect(database.statements == 1)
        database.reset()
        let last = try #require(after.lines.first)
        #expect(try counted.carts.remove(last.id, for: user).lines.isEmpty)
        #expect(database.statements == (postgres ? 1 : 2))
        #expect(try fixture.cartRows(of: user).isEmpty)
    }

    /// The add reads the cart only once it holds the buyer's lock: a checkout (or any cart change)
    /// holding the lock and filling the cart is seen by an add that waited for it.
    @Test func anAddWaitsForTheBuyersLockAndSeesWhatItsHolderCommitted() throws {
        let (fixture, skus, user) = try Self.seeded()
        let carts = fixture.shop.carts
        let filler = try #require(skus["A-2"])
        let added = try #require(skus["B-1"])
        let pool = fixture.pool
        let holding = DispatchSemaphore(value: 0)
        let outcome = CartOutcomes()
        race(2) { index in
            if index == 0 {
                do {
                    try pool.write { db in
                        try db.serialize(on: "cart:\(user)")
                        try db.run("""
                            INSERT INTO cart_items (user_id, sku_id, quantity, selected, created_at, updated_at)
                            VALUES (\(user), \(filler), 95, 1, 0, 0)
                            """)
                        holding.signal()
                        Thread.sleep(forTimeInterval: 0.3)
                    }
                } catch {
                    outcome.record("holder: \(error)")
                    holding.signal()
                }
                return
            }
            holding.wait()
            do {
                _ = try carts.add(added, quantity: 5, for: user)
                outcome.record("added")
            } catch CartError.limitExceeded(max: 99) {
                outcome.record("limit")
            } catch {
                outcome.record("\(error)")
            }
        }
        #expect(outcome.all == ["limit"])
        #expect(try carts.cart(of: user).lines.map(\.quantity) == [95])
    }

    /// Each round: a SKU with 3 in stock, two threads each add 2 of it to one buyer's cart: one
    /// line may hold at most the stock, so exactly one gets through.
    @Test func twoRacingAddsOfOneSKUNeverTogetherPassItsStock() throws {
        let (fixture, skus, user) = try Self.seeded()
        let carts = fixture.shop.carts
        let low = try #require(skus["LOW-1"])
        for round in 0..<15 {
            _ = try carts.clear(for: user)
            let outcomes = CartOutcomes()
            race(2) { _ in
                do {
                    _ = try carts.add(low, quantity: 2, for: user)
                    outcomes.record("added")
                } catch CartError.outOfStock(skuID: low, sku: _, available: 3) {
                    outcomes.record("stock")
                } catch {
                    outcomes.record("\(error)")
                }
            }
            #expect(outcomes.count("added") == 1, "round \(round): \(outcomes.all)")
            #expect(outcomes.count("stock") == 1, "round \(round): \(outcomes.all)")
            #expect(try carts.cart(of: user).lines.map(\.quantity) == [2], "round \(round)")
        }
    }

    // MARK: Adding and merging

    @Test func addingTheSameSKUTwiceMergesIntoOneLineWithTheSum() throws {
        let (fixture, skus, user) = try Self.seeded()
        let carts = fixture.shop.carts
        let first = try carts.add(try #require(skus["A-1"]), quantity: 2, for: user)
        let second = try carts.add(try #require(skus["A-1"]), quantity: 3, for: user)
        #expect(second.lines.count == 1)
        #expect(second.lines.first?.id == first.lines.first?.id)
        #expect(second.lines.first?.quantity == 5)
        #expect(second.totalQuantity == 5)
        #expect(try fixture.cartRows(of: user).count == 1)
    }

    @Test func aLineCarriesTheSKUsCurrentPriceStockAndProduct() throws {
        let (fixture, skus, user) = try Self.seeded()
        let cart = try fixture.shop.carts.add(try #require(skus["A-2"]), quantity: 2, for: user)
        let line = try #require(cart.lines.first)
        #expect(line.skuID == skus["A-2"])
        #expect(line.title == "花束FL-A")
        #expect(line.skuName == "规格A-2")
        #expect(line.coverURL == "https://img.floral.example/FL-A.jpg")
        #expect(line.priceCents == 2_000)
        #expect(line.stock == 200)
        #expect(line.selected)
        #expect(line.available)
        #expect(cart.selectedTotalCents == 4_000)
    }

    // MARK: The cap

    @Test func ninetyEightPlusOneReachesTheCapExactly() throws {
        let (fixture, skus, user) = try Self.seeded()
        let carts = fixture.shop.carts
        _ = try carts.add(try #require(skus["A-1"]), quantity: 98, for: user)
        let cart = try carts.add(try #require(skus["B-1"]), quantity: 1, for: user)
        #expect(cart.totalQuantity == 99)
    }

    @Test func addingPastTheCapIsRefusedAndLeavesTheCartUnchanged() throws {
        let (fixture, skus, user) = try Self.seeded()
        let carts = fixture.shop.carts
        _ = try carts.add(try #require(skus["A-1"]), quantity: 90, for: user)
        _ = try carts.add(try #require(skus["B-1"]), quantity: 9, for: user)
        let before = try carts.cart(of: user)
        let rowsBefore = try fixture.cartRows(of: user)
        #expect(before.totalQuantity == 99)
        fixture.clock.advance(by: 60)

        #expect(throws: CartError.limitExceeded(max: 99)) { try carts.add(try #require(skus["A-2"]), quantity: 1, for: user) }
        #expect(throws: CartError.limitExceeded(max: 99)) { try carts.add(try #require(skus["A-1"]), quantity: 1, for: user) }
        #expect(try carts.cart(of: user) == before)
        #expect(try fixture.cartRows(of: user) == rowsBefore)
    }

    @Test func raisingALineThroughUpdatePastTheCapIsRefusedAndLeavesTheCartUnchanged() throws {
        let (fixture, skus, user) = try Self.seeded()
        let carts = fixture.shop.carts
        _ = try carts.add(try #require(skus["A-1"]), quantity: 50, for: user)
        let cart = try carts.add(try #require(skus["B-1"]), quantity: 40, for: user)
        let line = try #require(cart.lines.first { $0.skuID == skus["B-1"] })
        let rowsBefore = try fixture.cartRows(of: user)
        fixture.clock.advance(by: 60)

        #expect(throws: CartError.limitExceeded(max: 99)) { try carts.update(line.id, quantity: 50, selected: false, for: user) }
        #expect(try carts.cart(of: user) == cart)
        #expect(try fixture.cartRows(of: user) == rowsBefore)
        // Up to the cap exactly is fine.
        #expect(try carts.update(line.id, quantity: 49, selected: nil, for: user).totalQuantity == 99)
    }

    /// A raised line is checked for the cap first, then its sale status, then its stock: the
    /// first rule it breaks is the error, and nothing is written.
    @Test func raisingALineChecksTheCapThenTheSaleStatusThenTheStock() throws {
        let (fixture, skus, user) = try Self.seeded()
        let carts = fixture.shop.carts
        let low = try #require(skus["LOW-1"])
        let lowLabel = SKULabel(title: "花束FL-LOW", name: "规格LOW-1")
        _ = try carts.add(try #require(skus["A-1"]), quantity: 90, for: user)
        let cart = try carts.add(low, quantity: 2, for: user)
        let line = try #require(cart.lines.first { $0.skuID == low })
        let rowsBefore = try fixture.cartRows(of: user)
        fixture.clock.advance(by: 60)
        // past the cap (90 + 10 > 99) and the stock (10 > 3): the cap
        #expect(throws: CartError.limitExceeded(max: 99)) { try carts.update(line.id, quantity: 10, selected: false, for: user) }
        // within the cap, past the stock
        #expect(throws: CartError.outOfStock(skuID: low, sku: lowLabel, available: 3)) {
            try carts.update(line.id, quantity: 5, selected: false, for: user)
        }
        try fixture.cartSeed([CartCatalogRow(product: "FL-LOW", sku: "LOW-1", price: "5.00", stock: 3, status: "off_sale")])
        // off sale: still the cap past it, then not found before the stock
        #expect(throws: CartError.limitExceeded(max: 99)) { try carts.update(line.id, quantity: 10, selected: nil, for: user) }
        #expect(throws: CartError.skuNotFound) { try carts.update(line.id, quantity: 5, selected: nil, for: user) }
        #expect(throws: CartError.skuNotFound) { try carts.update(line.id, quantity: 3, selected: nil, for: user) }
        #expect(try fixture.cartRows(of: user) == rowsBefore)
        // lowering it, or selecting it, needs none of them
        let lowered = try carts.update(line.id, quantity: 1, selected: false, for: user)
        #expect(lowered.lines.first { $0.id == line.id }?.quantity == 1)
        #expect(lowered.lines.first { $0.id == line.id }?.selected == false)
        #expect(lowered.totalQuantity == 91)
    }

    @Test func loweringALineIsAlwaysAllowed() throws {
        let (fixture, skus, user) = try Self.seeded()
        let carts = fixture.shop.carts
        let cart = try carts.add(try #require(skus["A-1"]), quantity: 99, for: user)
        let line = try #require(cart.lines.first)
        #expect(try carts.update(line.id, quantity: 1, selected: nil, for: user).totalQuantity == 1)
    }

    /// Each round: the cart at 80, ten threads released together each add 5 of their own SKU.
    /// 80 + 3 × 5 = 95, a fourth would make 100: exactly three get through, every round.
    @Test func racingAddsNeverTogetherPassTheCap() throws {
        let (fixture, skus, user) = try Self.seeded()
        let carts = fixture.shop.carts
        let racers = try (0..<10).map { try #require(skus["R-\($0)"]) }
        for round in 0..<15 {
            _ = try carts.clear(for: user)
            _ = try carts.add(try #require(skus["A-1"]), quantity: 80, for: user)
            let outcomes = CartOutcomes()
            race(racers.count) { index in
                do {
                    _ = try carts.add(racers[index], quantity: 5, for: user)
                    outcomes.record("added")
                } catch CartError.limitExceeded(max: 99) {
                    outcomes.record("limit")
                } catch {
                    outcomes.record("\(error)")
                }
            }
            #expect(outcomes.count("added") == 3, "round \(round): \(outcomes.all)")
            #expect(outcomes.count("limit") == 7, "round \(round): \(outcomes.all)")
            let cart = try carts.cart(of: user)
            #expect(cart.totalQuantity == 95, "round \(round)")
            #expect(cart.lines.count == 4, "round \(round)")
        }
    }

    /// Each round: the cart at 90, two threads each add 9; only one fits.
    @Test func twoRacingAddsThatTogetherPassTheCapLetExactlyOneThrough() throws {
        let (fixture, skus, user) = try Self.seeded()
        let carts = fixture.shop.carts
        let racers = [try #require(skus["R-0"]), try #require(skus["R-1"])]
        for round in 0..<15 {
            _ = try carts.clear(for: user)
            _ = try carts.add(try #require(skus["A-1"]), quantity: 90, for: user)
            let outcomes = CartOutcomes()
            race(2) { index in
                do {
                    _ = try carts.add(racers[index], quantity: 9, for: user)
                    outcomes.record("added")
                } catch CartError.limitExceeded(max: 99) {
                    outcomes.record("limit")
                } catch {
                    outcomes.record("\(error)")
                }
            }
            #expect(outcomes.count("added") == 1, "round \(round): \(outcomes.all)")
            #expect(outcomes.count("limit") == 1, "round \(round): \(outcomes.all)")
            #expect(try carts.cart(of: user).totalQuantity == 99, "round \(round)")
        }
    }

    @Test func theCapComesFromConfig() throws {
        let (fixture, skus, user) = try Self.seeded { $0.cart.maxItems = 5 }
        let carts = fixture.shop.carts
        _ = try carts.add(try #require(skus["A-1"]), quantity: 3, for: user)
        let cart = try carts.add(try #require(skus["B-1"]), quantity: 2, for: user)
        #expect(cart.totalQuantity == 5)
        #expect(throws: CartError.limitExceeded(max: 5)) { try carts.add(try #require(skus["A-2"]), quantity: 1, for: user) }
        #expect(try carts.cart(of: user) == cart)
    }

    @Test func theCapCountsEachUsersCartAlone() throws {
        let (fixture, skus, user) = try Self.seeded()
        let other = try fixture.cartUser("13900139000")
        let carts = fixture.shop.carts
        _ = try carts.add(try #require(skus["A-1"]), quantity: 99, for: user)
        #expect(try carts.add(try #require(skus["A-1"]), quantity: 99, for: other).totalQuantity == 99)
    }

    // MARK: Quantities

    @Test(arguments: [0, -1, 100, Int.min, Int.max])
    func aQuantityOutside1To99IsAValidationError(quantity: Int) throws {
        let (fixture, skus, user) = try Self.seeded()
        let carts = fixture.shop.carts
        let cart = try carts.add(try #require(skus["A-1"]), quantity: 1, for: user)
        let line = try #require(cart.lines.first)
        #expect(throws: ValidationError.self) { try carts.add(try #require(skus["A-1"]), quantity: quantity, for: user) }
        #expect(throws: ValidationError.self) { try carts.update(line.id, quantity: quantity, selected: nil, for: user) }
        #expect(try carts.cart(of: user) == cart)
    }

    // MARK: Stock and sale status

    @Test func addingMoreThanTheStockIsOutOfStockAndWritesNothing() throws {
        let (fixture, skus, user) = try Self.seeded()
        let carts = fixture.shop.carts
        let low = try #require(skus["LOW-1"])
        // The error names the SKU as the shopper sees it: its product's title and its own name.
        let lowLabel = SKULabel(title: "花束FL-LOW", name: "规格LOW-1")
        #expect(throws: CartError.outOfStock(skuID: low, sku: lowLabel, available: 3)) { try carts.add(low, quantity: 4, for: user) }
        #expect(try carts.cart(of: user).lines.isEmpty)
        let cart = try carts.add(low, quantity: 2, for: user)
        // Merging counts the line already in the cart.
        #expect(throws: CartError.outOfStock(skuID: low, sku: lowLabel, available: 3)) { try carts.add(low, quantity: 2, for: user) }
        let line = try #require(cart.lines.first)
        #expect(throws: CartError.outOfStock(skuID: low, sku: lowLabel, available: 3)) { try carts.update(line.id, quantity: 4, selected: nil, for: user) }
        #expect(try carts.cart(of: user) == cart)
        #expect(try carts.add(low, quantity: 1, for: user).totalQuantity == 3)
    }

    @Test func anOffSaleOrUnknownSKUIsNotFound() throws {
        let (fixture, skus, user) = try Self.seeded()
        let carts = fixture.shop.carts
        #expect(throws: CartError.skuNotFound) { try carts.add(try #require(skus["OFF-1"]), quantity: 1, for: user) }
        #expect(throws: CartError.skuNotFound) { try carts.add(SKUID(999_999), quantity: 1, for: user) }
        #expect(try carts.cart(of: user).lines.isEmpty)
    }

    @Test func aLineWhoseProductWentOffSaleIsUnavailableAndLeftOutOfTheSelectedTotal() throws {
        let (fixture, skus, user) = try Self.seeded()
        let carts = fixture.shop.carts
        _ = try carts.add(try #require(skus["A-1"]), quantity: 2, for: user)
        _ = try carts.add(try #require(skus["B-1"]), quantity: 1, for: user)
        #expect(try carts.cart(of: user).selectedTotalCents == 2 * 1_250 + 9_999)

        try fixture.cartSeed([CartCatalogRow(product: "FL-B", sku: "B-1", price: "99.99", status: "off_sale")])
        let cart = try carts.cart(of: user)
        let offSale = try #require(cart.lines.first { $0.skuID == skus["B-1"] })
        #expect(!offSale.available)
        #expect(cart.lines.first { $0.skuID == skus["A-1"] }?.available == true)
        #expect(cart.selectedTotalCents == 2 * 1_250)
        #expect(cart.totalQuantity == 3)
        // It cannot be raised any more, but it can be lowered or removed.
        #expect(throws: CartError.skuNotFound) { try carts.add(try #require(skus["B-1"]), quantity: 1, for: user) }
        #expect(throws: CartError.skuNotFound) { try carts.update(offSale.id, quantity: 2, selected: nil, for: user) }
        #expect(try carts.remove(offSale.id, for: user).lines.count == 1)
    }

    @Test func aLineWhoseStockDroppedBelowItsQuantityIsUnavailable() throws {
        let (fixture, skus, user) = try Self.seeded()
        let carts = fixture.shop.carts
        _ = try carts.add(try #require(skus["A-1"]), quantity: 5, for: user)
        _ = try carts.add(try #require(skus["B-1"]), quantity: 1, for: user)
        try fixture.cartSeed([CartCatalogRow(product: "FL-A", sku: "A-1", price: "12.50", stock: 4)])
        let cart = try carts.cart(of: user)
        let line = try #require(cart.lines.first { $0.skuID == skus["A-1"] })
        #expect(!line.available)
        #expect(line.stock == 4)
        #expect(cart.selectedTotalCents == 9_999)
        // Stock exactly covering the quantity is available again.
        try fixture.cartSeed([CartCatalogRow(product: "FL-A", sku: "A-1", price: "12.50", stock: 5)])
        #expect(try carts.cart(of: user).lines.first { $0.skuID == skus["A-1"] }?.available == true)
    }

    @Test func aPriceChangeShowsInTheCart() throws {
        let (fixture, skus, user) = try Self.seeded()
        let carts = fixture.shop.carts
        _ = try carts.add(try #require(skus["A-1"]), quantity: 2, for: user)
        try fixture.cartSeed([CartCatalogRow(product: "FL-A", sku: "A-1", price: "15.00")])
        let cart = try carts.cart(of: user)
        #expect(cart.lines.first?.priceCents == 1_500)
        #expect(cart.selectedTotalCents == 3_000)
    }

    // MARK: Select, remove, empty

    @Test func deselectingALineTakesItOutOfTheSelectedTotals() throws {
        let (fixture, skus, user) = try Self.seeded()
        let carts = fixture.shop.carts
        _ = try carts.add(try #require(skus["A-1"]), quantity: 2, for: user)
        let cart = try carts.add(try #require(skus["B-1"]), quantity: 3, for: user)
        #expect(cart.selectedQuantity == 5)
        #expect(cart.selectedTotalCents == 2 * 1_250 + 3 * 9_999)
        let line = try #require(cart.lines.first { $0.skuID == skus["B-1"] })

        let deselected = try carts.update(line.id, quantity: nil, selected: false, for: user)
        #expect(deselected.lines.first { $0.id == line.id }?.selected == false)
        #expect(deselected.lines.first { $0.id == line.id }?.quantity == 3)
        #expect(deselected.totalQuantity == 5)
        #expect(deselected.selectedQuantity == 2)
        #expect(deselected.selectedTotalCents == 2 * 1_250)

        let reselected = try carts.update(line.id, quantity: nil, selected: true, for: user)
        #expect(reselected.selectedQuantity == 5)
        #expect(reselected.selectedTotalCents == 2 * 1_250 + 3 * 9_999)
    }

    @Test func removingALineLeavesTheOthers() throws {
        let (fixture, skus, user) = try Self.seeded()
        let carts = fixture.shop.carts
        _ = try carts.add(try #require(skus["A-1"]), quantity: 2, for: user)
        let cart = try carts.add(try #require(skus["B-1"]), quantity: 3, for: user)
        let line = try #require(cart.lines.first { $0.skuID == skus["B-1"] })
        let after = try carts.remove(line.id, for: user)
        #expect(after.lines.map(\.skuID) == [skus["A-1"]])
        #expect(after.totalQuantity == 2)
        #expect(throws: CartError.lineNotFound) { try carts.remove(line.id, for: user) }
        #expect(throws: CartError.lineNotFound) { try carts.update(line.id, quantity: 1, selected: nil, for: user) }
    }

    @Test func emptyingTheCartRemovesEveryLineOfThatUserOnly() throws {
        let (fixture, skus, user) = try Self.seeded()
        let other = try fixture.cartUser("13900139000")
        let carts = fixture.shop.carts
        _ = try carts.add(try #require(skus["A-1"]), quantity: 2, for: user)
        _ = try carts.add(try #require(skus["B-1"]), quantity: 3, for: user)
        let othersCart = try carts.add(try #require(skus["A-1"]), quantity: 4, for: other)
        let emptied = try carts.clear(for: user)
        #expect(emptied.lines.isEmpty)
        #expect(emptied.totalQuantity == 0)
        #expect(try carts.cart(of: user).lines.isEmpty)
        #expect(try carts.cart(of: other) == othersCart)
    }

    @Test func anotherUsersLineIsNotFoundAndUntouched() throws {
        let (fixture, skus, owner) = try Self.seeded()
        let intruder = try fixture.cartUser("13900139000")
        let carts = fixture.shop.carts
        let cart = try carts.add(try #require(skus["A-1"]), quantity: 2, for: owner)
        let line = try #require(cart.lines.first)
        let rowsBefore = try fixture.cartRows(of: owner)
        #expect(throws: CartError.lineNotFound) { try carts.update(line.id, quantity: 5, selected: false, for: intruder) }
        #expect(throws: CartError.lineNotFound) { try carts.update(line.id, quantity: nil, selected: false, for: intruder) }
        #expect(throws: CartError.lineNotFound) { try carts.remove(line.id, for: intruder) }
        _ = try carts.clear(for: intruder)
        #expect(try fixture.cartRows(of: owner) == rowsBefore)
        #expect(try carts.cart(of: intruder).lines.isEmpty)
    }
}
