import Foundation
import HTTP
import SQL
@testable import ShopAPI
@testable import ShopCore
import ShopTestSupport
import Testing

/// One `shop serve` node as far as caching goes: its own `ShopAPI` (so its own in-process
/// cache) over the fixture's database.
private struct Node {
    let api: ShopAPI

    func send(_ path: String, method: String = "GET", query: [String: String] = [:], token: String? = nil,
              ifNoneMatch: [String] = []) throws -> TestResponse {
        var headers = Headers()
        if let token { headers.set("Authorization", "Bearer \(token)") }
        for value in ifNoneMatch { headers.add("If-None-Match", value) }
        let response = try api.responder(Request(method: method, path: path, query: query, headers: headers), Context())
        return TestResponse(status: response.status.code, headers: response.headers, body: response.body)
    }

    /// Waits for the kept bodies this node is reading again in the background.
    func settle() { api.keptBodies.settle() }
}

/// Two nodes over one fresh database holding products A (10.00, stock 5) and B (20.00, stock 1).
private struct TwoNodes {
    let app: TestAPI
    let nodeA: Node
    let nodeB: Node
    let skus: [String: Int64]

    init() throws {
        app = try TestAPI()
        skus = try app.orderSeed([("A", "10.00", 5), ("B", "20.00", 1)])
        nodeA = Node(api: app.api)
        nodeB = Node(api: ShopAPI(shop: try app.testShop.reopened { _ in }, ticks: TestAPI.ticks(of: app.clock)))
    }

    func product(_ sku: String) throws -> Int64 {
        let id = try app.shop.pool.read { db in
            try db.scalarInt("SELECT product_id FROM skus WHERE code = \(sku)")
        }
        return try #require(id)
    }

    func page(_ sku: String) throws -> String { "/api/v1/products/\(try product(sku))" }

    /// Places a buy-now order through node A's API: answers its id.
    func order(_ sku: String, quantity: Int, buyer: OrderAPIBuyer, key: String) throws -> Int64 {
        let placed = try app.orderPlace(buyer, key: key, app.orderBuyNowBody(buyer, [(try #require(skus[sku]), quantity)]))
        #expect(placed.status == 201, "\(placed.text)")
        return try #require(placed.orderID)
    }
}

private extension TestResponse {
    var etag: String? { headers["ETag"] }
    /// The product page this answer carries, nil for any other answer.
    var product: ProductDetailResponse? { try? decode(ProductDetailResponse.self) }
    var skuStocks: [Int64] { product?.own.skus.map(\.stock) ?? [] }
    var priceCents: Int64? { product?.shared.priceCents }

    /// The list item for product `id`.
    func item(_ id: Int64) -> ProductSummaryResponse? {
        (try? decode(PageResponse<ProductSummaryResponse>.self))?.items.first { $0.id.rawValue == id }
    }
}

private let catalogueRoutes = ["/api/v1/categories", "/api/v1/products"]

@Suite("Catalogue HTTP caching: ETag, 304, never stale")
struct CatalogCachingTests {
    @Test func catalogueResponsesCarryAStrongETagThatIsTheSameOnEveryRequestAndNode() throws {
        let nodes = try TwoNodes()
        for path in catalogueRoutes + [try nodes.page("A")] {
            let first = try nodes.nodeA.send(path)
            let again = try nodes.nodeA.send(path)
            let elsewhere = try nodes.nodeB.send(path)
            #expect(first.status == 200)
            let etag = try #require(first.etag, "\(path)")
            #expect(etag.wholeMatch(of: /"[0-9a-f]{32}"/) != nil, "strong, quoted: \(etag)")
            #expect(again.etag == etag)
            #expect(elsewhere.etag == etag, "nodes agree, so a balancer may send the revalidation anywhere")
            #expect(again.body == first.body && elsewhere.body == first.body)
        }
    }

    @Test func stockAndPricePagesMustBeRevalidatedWhileTheCategoryTreeMayBeKeptAMinute() throws {
        let nodes = try TwoNodes()
        #expect(try nodes.nodeA.send(try nodes.page("A")).headers["Cache-Control"] == "no-cache")
        #expect(try nodes.nodeA.send("/api/v1/products").headers["Cache-Control"] == "no-cache")
        #expect(try nodes.nodeA.send("/api/v1/products", query: ["q": "花束"]).headers["Cache-Control"] == "no-cache")
        #expect(try nodes.nodeA.send("/api/v1/categories").headers["Cache-Control"] == "public, max-age=60")
    }

    /// (That no body follows a 304 on the wire: HTTPTests, ConditionalRequestTests.)
    @Test func aMatchingIfNoneMatchAnswers304WithTheSameValidatorAndCacheControl() throws {
        let nodes = try TwoNodes()
        for path in catalogueRoutes + [try nodes.page("A")] {
            let full = try nodes.nodeA.send(path)
            let etag = try #require(full.etag)
            for method in ["GET", "HEAD"] {
                let revalidated = try nodes.nodeB.send(path, method: method, ifNoneMatch: [etag])
                #expect(revalidated.status == 304, "\(method) \(path)")
                #expect(revalidated.etag == etag)
                #expect(revalidated.headers["Cache-Control"] == full.headers["Cache-Control"])
                #expect(revalidated.headers["Content-Type"] == nil, "a 304 describes no body")
                #expect(revalidated.headers["X-Request-Id"] != nil)
            }
        }
    }

    @Test func ifNoneMatchIsReadAsAnRFC9110ListWithWeakComparison() throws {
        let nodes = try TwoNodes()
        let path = try nodes.page("A")
        let etag = try #require(try nodes.nodeA.send(path).etag)
        let opaque = etag.dropFirst().dropLast()
        for matching in [[etag], ["\"other\", \(etag)"], ["W/\(etag)"], ["*"], ["\"other\"", " , \(etag) ,"]] {
            #expect(try nodes.nodeA.send(path, ifNoneMatch: matching).status == 304, "\(matching)")
        }
        for notMatching in [["\"other\""], [String(opaque)], ["w/\(etag)"], ["*, \(etag)"], ["\"\(opaque)"], [""]] {
            let response = try nodes.nodeA.send(path, ifNoneMatch: notMatching)
            #expect(response.status == 200, "\(notMatching)")
            #expect(response.etag == etag && !response.body.isEmpty)
        }
        let gone = try nodes.nodeA.send("/api/v1/products/999999", ifNoneMatch: ["*"])
        #expect(gone.status == 404, "no current representation: * does not match")
    }

    @Test func eachListQueryIsCachedOnItsOwn() throws {
        let nodes = try TwoNodes()
        let queries: [[String: String]] = [[:], ["page": "2", "per_page": "1"], ["per_page": "1"], ["sort": "price_asc", "per_page": "1"],
                                           ["min_price_cents": "1500"], ["max_price_cents": "1500"]]
        var bodies: [[UInt8]] = []
        for _ in 0..<2 {
            for query in queries {
                let response = try nodes.nodeA.send("/api/v1/products", query: query)
                #expect(response.status == 200)
                let fresh = try nodes.nodeB.send("/api/v1/products", query: query)
                #expect(response.body == fresh.body, "\(query) answered with another query's body")
                bodies.append(response.body)
            }
        }
        #expect(Set(bodies.prefix(queries.count)).count == queries.count)
        #expect(try nodes.nodeA.send("/api/v1/products", query: ["page": "2", "per_page": "1"]).decode(PageResponse<ProductSummaryResponse>.self).page == 2)
    }

    @Test func anOrderAndItsCancellationChangeTheETagAndTheStockShownOnEveryNode() throws {
        let nodes = try TwoNodes()
        let page = try nodes.page("B")
        let id = try nodes.product("B")
        let before = try nodes.nodeB.send(page)
        let listBefore = try nodes.nodeB.send("/api/v1/products")
        #expect(before.skuStocks == [1])
        #expect(listBefore.item(id)?.inStock == true)

        let buyer = try nodes.app.orderBuyer("13900000001")
        let order = try nodes.order("B", quantity: 1, buyer: buyer, key: "cache-order")

        for node in [nodes.nodeA, nodes.nodeB] {
            let after = try node.send(page, ifNoneMatch: [try #require(before.etag)])
            #expect(after.status == 200)
            #expect(after.etag != before.etag)
            #expect(after.skuStocks == [0])
            #expect(after.product?.shared.inStock == false)
            let list = try node.send("/api/v1/products", ifNoneMatch: [try #require(listBefore.etag)])
            #expect(list.status == 200)
            #expect(list.item(id)?.inStock == false)
        }

        let cancelled = try nodes.app.send("POST", "/api/v1/orders/\(order)/cancel", token: buyer.token)
        #expect(cancelled.status == 200, "\(cancelled.text)")
        let restocked = try nodes.nodeB.send(page)
        #expect(restocked.skuStocks == [1])
        #expect(restocked.etag == before.etag, "the same body again: the same tag")
        #expect(try nodes.nodeB.send("/api/v1/products").item(id)?.inStock == true)
    }

    @Test func anUnpaidOrderCancelledByTheExpirySweepReturnsItsStockToThePage() throws {
        let nodes = try TwoNodes()
        let page = try nodes.page("A")
        let buyer = try nodes.app.orderBuyer("13900000001")
        _ = try nodes.order("A", quantity: 5, buyer: buyer, key: "cache-expiry")
        let held = try nodes.nodeB.send(page)
        #expect(held.skuStocks == [0], "a stock-out is shown at once")

        nodes.app.clock.advance(by: Double(nodes.app.shop.config.orders.paymentTimeoutMinutes * 60 + 1))
        #expect(try nodes.app.shop.orders.sweep().cancelled == 1)

        let after = try nodes.nodeB.send(page, ifNoneMatch: [try #require(held.etag)])
        #expect(after.status == 200)
        #expect(after.skuStocks == [5])
    }

    @Test func stockThatStaysAboveZeroIsShownWithinTheCountersAgeWhileAStockOutIsShownAtOnce() throws {
        let nodes = try TwoNodes()
        let page = try nodes.page("A")
        let id = try nodes.product("A")
        let before = try nodes.nodeB.send(page)
        let listBefore = try nodes.nodeB.send("/api/v1/products")
        #expect(before.skuStocks == [5])
        let buyer = try nodes.app.orderBuyer("13900000001")
        _ = try nodes.order("A", quantity: 2, buyer: buyer, key: "cache-counters")

        // A sale moves no version: the kept page (and its tag) is served on until it is
        // `countersMaxAge` old; the request that finds it so is still answered with it, and the
        // page is read again behind it with the stock and sales the sale left.
        #expect(try nodes.nodeB.send(page, ifNoneMatch: [try #require(before.etag)]).status == 304)
        #expect(try nodes.nodeB.send("/api/v1/products", ifNoneMatch: [try #require(listBefore.etag)]).status == 304)
        nodes.app.clock.advance(by: Double(CatalogController.countersMaxAge.components.seconds) + 1)
        #expect(try nodes.nodeB.send(page, ifNoneMatch: [try #require(before.etag)]).status == 304, "served while read again")
        nodes.nodeB.settle()
        let aged = try nodes.nodeB.send(page, ifNoneMatch: [try #require(before.etag)])
        #expect(aged.status == 200)
        #expect(aged.skuStocks == [3])

        // Selling the last three is a stock-out: every node shows it on the next request.
        _ = try nodes.order("A", quantity: 3, buyer: buyer, key: "cache-counters-out")
        for node in [nodes.nodeA, nodes.nodeB] {
            let out = try node.send(page)
            #expect(out.skuStocks == [0])
            #expect(out.product?.shared.inStock == false)
            #expect(try node.send("/api/v1/products").item(id)?.inStock == false)
        }
    }

    @Test func aPriceChangeByImportIsShownAtOnceInThePageAndTheList() throws {
        let nodes = try TwoNodes()
        let page = try nodes.page("A")
        let id = try nodes.product("A")
        let before = try nodes.nodeB.send(page)
        let listBefore = try nodes.nodeB.send("/api/v1/products", query: ["sort": "price_asc"])
        #expect(before.priceCents == 1_000)

        try nodes.app.orderSeed([("A", "8.80", 7)])

        let after = try nodes.nodeB.send(page, ifNoneMatch: [try #require(before.etag)])
        #expect(after.status == 200)
        #expect(after.priceCents == 880)
        #expect(after.skuStocks == [7])
        let list = try nodes.nodeB.send("/api/v1/products", query: ["sort": "price_asc"], ifNoneMatch: [try #require(listBefore.etag)])
        #expect(list.status == 200)
        #expect(list.item(id)?.priceCents == 880)
    }

    @Test func anOperatorsOwnSQLOnAStockOutARestockOrNamesIsShownAtOnce() throws {
        let nodes = try TwoNodes()
        let page = try nodes.page("A")
        let before = try nodes.nodeB.send(page)
        try nodes.app.shop.pool.write { db in
            _ = try db.run("UPDATE skus SET stock = 0 WHERE code = 'A'")
        }
        let soldOut = try nodes.nodeB.send(page, ifNoneMatch: [try #require(before.etag)])
        #expect(soldOut.status == 200)
        #expect(soldOut.skuStocks == [0])
        try nodes.app.shop.pool.write { db in
            _ = try db.run("UPDATE skus SET stock = 42 WHERE code = 'A'")
        }
        #expect(try nodes.nodeB.send(page).skuStocks == [42], "back from zero is shown at once too")

        // A SKU's name is on the page but not in the product row: its own trigger moves the version.
        try nodes.app.shop.pool.write { db in
            _ = try db.run("UPDATE skus SET name = '加大' WHERE code = 'A'")
        }
        let renamed = try nodes.nodeB.send(page)
        #expect(renamed.product?.own.skus.first?.name == "加大")
    }

    @Test func aNewCategoryByImportIsShownAtOnceInTheTree() throws {
        let nodes = try TwoNodes()
        let before = try nodes.nodeB.send("/api/v1/categories")
        let csv = """
            product_code,sku_code,sku_name,title,subtitle,category,price,original_price,stock,description,cover_url,image_urls,attributes,status
            POT,POT-1,小盆,绿萝,,绿植/观叶,30.00,,4,,,,,on_sale

            """
        let outcome = try nodes.app.shop.catalogImporter.importData(Array(csv.utf8), format: .csv, options: .init())
        #expect(outcome.issues.isEmpty)
        let after = try nodes.nodeB.send("/api/v1/categories", ifNoneMatch: [try #require(before.etag)])
        #expect(after.status == 200)
        #expect(after.text.contains("观叶"))
    }

    @Test func anUnchangedCatalogueIsAnsweredFromMemoryWithoutReadingThePageAgain() throws {
        let nodes = try TwoNodes()
        let page = try nodes.page("A")
        let first = try nodes.nodeB.send(page)
        // Rename the SKU behind the counters' back (its triggers off for one statement; a name,
        // unlike stock, touches no product row): the node still answers what it holds for the
        // unchanged version, which shows the in-process copy is used and that the counters are
        // what keep it honest.
        try nodes.app.shop.pool.write { db in
            try withoutChangeCounters(on: "skus", db) { _ = try db.run("UPDATE skus SET name = '改名' WHERE code = 'A'") }
        }
        #expect(try nodes.nodeB.send(page).body == first.body)
        let fresh = try Node(api: ShopAPI(shop: nodes.app.shop)).send(page)
        #expect(fresh.product?.own.skus.first?.name == "改名", "a node without the copy reads it")
    }

    @Test func aSearchPageIsKeptAndAnsweredFromMemoryUntilTheCatalogueMoves() throws {
        let nodes = try TwoNodes()
        let first = try nodes.nodeB.send("/api/v1/products", query: ["q": "束a"])
        #expect(first.text.contains("花束A"))
        // Retitle behind the counters' back: the kept page is served as it was, a node without
        // the copy reads the new title, and a counted write then reaches every node.
        try nodes.app.shop.pool.write { db in
            try withoutChangeCounters(on: "products", db) { _ = try db.run("UPDATE products SET title = '花束A 新款' WHERE title = '花束A'") }
        }
        #expect(try nodes.nodeB.send("/api/v1/products", query: ["q": "束a"]).body == first.body)
        #expect(try Node(api: ShopAPI(shop: nodes.app.shop)).send("/api/v1/products", query: ["q": "束a"]).text.contains("新款"))
        try nodes.app.shop.pool.write { db in _ = try db.run("UPDATE skus SET price_cents = 990 WHERE code = 'A'") }
        #expect(try nodes.nodeB.send("/api/v1/products", query: ["q": "束a"]).text.contains("新款"))
        // Each query (as sent) and page is kept on its own.
        let other = try nodes.nodeB.send("/api/v1/products", query: ["q": "束B"])
        #expect(other.text.contains("花束B") && !other.text.contains("花束A"))
    }

    @Test func aSearchShowsTheStockAnOrderTookAtOnceOnEveryNode() throws {
        let nodes = try TwoNodes()
        let id = try nodes.product("B")
        let before = try nodes.nodeB.send("/api/v1/products", query: ["q": "花束"])
        #expect(before.item(id)?.inStock == true)

        let buyer = try nodes.app.orderBuyer("13900000001")
        _ = try nodes.order("B", quantity: 1, buyer: buyer, key: "cache-search-order")

        for node in [nodes.nodeA, nodes.nodeB] {
            let after = try node.send("/api/v1/products", query: ["q": "花束"], ifNoneMatch: [try #require(before.etag)])
            #expect(after.status == 200)
            #expect(after.item(id)?.inStock == false)
        }
    }

    @Test func aSearchAnsweredFromMemoryStillCountsWithWhatItFound() throws {
        let nodes = try TwoNodes()
        let tokens = [try nodes.app.token(for: "13900000021"), try nodes.app.token(for: "13900000022")]
        for token in tokens {
            _ = try nodes.nodeA.send("/api/v1/products", query: ["q": "花束"], token: token)
            _ = try nodes.nodeA.send("/api/v1/products", query: ["q": "钢琴"], token: token)
        }
        nodes.app.shop.catalog.flushSearches()
        let counted = try nodes.app.shop.pool.read { db in
            try db.query("SELECT keyword, searches, found FROM search_counts ORDER BY keyword")
                .map { [try $0.string("keyword"), String(try $0.decode("searches", as: Int64.self)), String(try $0.decode("found", as: Int64.self))] }
        }
        #expect(counted == [["花束", "2", "2"], ["钢琴", "2", "0"]])
        let searchers = try nodes.app.shop.pool.read { db in try db.scalarInt("SELECT COUNT(DISTINCT searcher) FROM search_searchers WHERE keyword = '花束'") }
        #expect(searchers == 2)
    }

    @Test func signedInShoppersGetTheSharedBytesAndTheirSearchesStillCount() throws {
        let nodes = try TwoNodes()
        let alice = try nodes.app.token(for: "13900000011")
        let bob = try nodes.app.token(for: "13900000012")
        for path in catalogueRoutes {
            let hers = try nodes.nodeA.send(path, token: alice)
            let his = try nodes.nodeA.send(path, token: bob)
            let anonymous = try nodes.nodeA.send(path)
            let uncached = try Node(api: ShopAPI(shop: nodes.app.shop)).send(path, token: bob)
            // If a field for the signed-in user (say is_favorite) ever reaches these bodies, this
            // fails: such a body must then be kept per user or not at all, and sent `private`.
            #expect(hers.body == his.body && his.body == anonymous.body && uncached.body == his.body, "\(path)")
            #expect(hers.headers["Cache-Control"]?.contains("private") == false)
        }
        // A product page says whether the signed-in caller keeps the product: read per caller and
        // sent `private`; the anonymous page is the one shared body, without the field.
        let page = try nodes.page("A")
        _ = try nodes.app.send("PUT", "/api/v1/favorites/products/\(try nodes.product("A"))", token: alice)
        let hers = try nodes.nodeA.send(page, token: alice)
        let his = try nodes.nodeA.send(page, token: bob)
        let anonymous = try nodes.nodeA.send(page)
        #expect(hers.product?.own.isFavorite == true && his.product?.own.isFavorite == false)
        #expect(!anonymous.keys.contains("is_favorite") && anonymous.product?.own.favoritesCount == 1)
        #expect(hers.headers["Cache-Control"] == "private, no-cache" && his.headers["Cache-Control"] == "private, no-cache")
        #expect(anonymous.headers["Cache-Control"] == "no-cache")
        #expect([hers, his, anonymous].allSatisfy { $0.headers["Vary"]?.contains("Authorization") == true })

        let search = try nodes.nodeA.send("/api/v1/products", query: ["q": "花束"], token: alice)
        let again = try nodes.nodeA.send("/api/v1/products", query: ["q": "花束"], token: alice,
                                         ifNoneMatch: [try #require(search.etag)])
        #expect(again.status == 304)
        _ = try nodes.nodeA.send("/api/v1/products", query: ["q": "花束"], token: bob, ifNoneMatch: [try #require(search.etag)])
        nodes.app.shop.catalog.flushSearches()
        let searchers = try nodes.app.shop.pool.read { db in
            try db.scalarInt("SELECT COUNT(DISTINCT searcher) FROM search_searchers WHERE keyword = '花束'")
        }
        #expect(searchers == 2, "a 304 to a search is still a search by that person")
    }
}

/// Runs `body` with the change-counter triggers of `table` switched off (SQLite: dropped and
/// made again from their stored SQL, all inside the caller's transaction).
private func withoutChangeCounters(on table: String, _ db: any SQLConnection, _ body: () throws -> Void) throws {
    switch db.dialect {
    case .sqlite:
        let triggers = try db.query("""
            SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = \(table) AND name LIKE 'catalog_changes_%'
            """).map { (try $0.string("name"), try $0.string("sql")) }
        for (name, _) in triggers { try db.run("DROP TRIGGER \(SQLIdentifier(name))") }
        try body()
        for (_, sql) in triggers { try db.execute(script: sql) }
    case .postgresql:
        let triggers = try db.query("""
            SELECT t.tgname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
            WHERE c.relname = \(table) AND c.relnamespace = current_schema()::regnamespace AND t.tgname LIKE 'catalog_changes_%'
            """).map { try $0.string("name") }
        for name in triggers { try db.run("ALTER TABLE \(SQLIdentifier(table)) DISABLE TRIGGER \(SQLIdentifier(name))") }
        try body()
        for name in triggers { try db.run("ALTER TABLE \(SQLIdentifier(table)) ENABLE TRIGGER \(SQLIdentifier(name))") }
    }
}

@Suite("Catalogue change counters: what the cache keys on")
struct CatalogChangeCounterTests {
    private struct Counters: Equatable {
        let product: Int64
        let sum: Int64
    }

    private func counters(of product: Int64, _ shop: Shop) throws -> Counters {
        try shop.pool.read { db in
            Counters(product: try db.scalarInt("SELECT version FROM catalog_changes WHERE shard = \(product % 64)") ?? -1,
                     sum: try db.scalarInt("SELECT CAST(SUM(version) AS BIGINT) FROM catalog_changes") ?? -1)
        }
    }

    @Test func everyWriteToAProductItsSKUsItsImagesOrACategoryMovesTheCountersButPerClickCountersDoNot() throws {
        let app = try TestAPI()
        try app.orderSeed([("A", "10.00", 5)])
        let product = try #require(try app.shop.pool.read { db in try db.scalarInt("SELECT product_id FROM skus WHERE code = 'A'") })
        let category = try #require(try app.shop.pool.read { db in try db.scalarInt("SELECT category_id FROM products WHERE id = \(product)") })
        let ofTheProduct: [(String, SQL)] = [
            ("title", "UPDATE products SET title = '改' WHERE id = \(product)"),
            ("status", "UPDATE products SET status = 'off_sale' WHERE id = \(product)"),
            ("a stock-out", "UPDATE skus SET stock = 0 WHERE product_id = \(product)"),
            ("back in stock", "UPDATE skus SET stock = 5 WHERE product_id = \(product)"),
            ("a SKU's price", "UPDATE skus SET price_cents = 990 WHERE product_id = \(product)"),
            ("a SKU off sale", "UPDATE skus SET status = 'off_sale' WHERE product_id = \(product)"),
            ("a SKU on sale", "UPDATE skus SET status = 'on_sale' WHERE product_id = \(product)"),
            ("a SKU's name", "UPDATE skus SET name = '改' WHERE product_id = \(product)"),
            ("a new SKU", """
                INSERT INTO skus (product_id, code, name, price_cents, original_price_cents, stock, created_at, updated_at)
                VALUES (\(product), 'A-2', '大', 2000, 2000, 1, 0, 0)
                """),
            ("a SKU removed", "DELETE FROM skus WHERE code = 'A-2'"),
            ("a new image", "INSERT INTO product_images (product_id, position, url) VALUES (\(product), 9, 'https://img.example/9.jpg')"),
            ("an image changed", "UPDATE product_images SET url = 'https://img.example/10.jpg' WHERE product_id = \(product) AND position = 9"),
            ("an image removed", "DELETE FROM product_images WHERE product_id = \(product) AND position = 9"),
        ]
        for (change, sql) in ofTheProduct {
            let before = try counters(of: product, app.shop)
            try app.shop.pool.write { db in _ = try db.run(sql) }
            let after = try counters(of: product, app.shop)
            #expect(after.product > before.product, "\(change)")
            #expect(after.sum > before.sum, "\(change)")
        }
        // Per-click counters: shown up to `countersMaxAge` old, they move nothing.
        let perClick: [(String, SQL)] = [
            ("sales", "UPDATE products SET sales = sales + 1 WHERE id = \(product)"),
            ("stock that stays above zero", "UPDATE skus SET stock = stock - 1 WHERE product_id = \(product)"),
            ("a favourite", "INSERT INTO product_favorite_counts (product_id, favorites_count) VALUES (\(product), 1)"),
            ("another favourite", "UPDATE product_favorite_counts SET favorites_count = 2 WHERE product_id = \(product)"),
        ]
        for (change, sql) in perClick {
            let before = try counters(of: product, app.shop)
            try app.shop.pool.write { db in _ = try db.run(sql) }
            #expect(try counters(of: product, app.shop) == before, "\(change)")
        }
        let elsewhere: [(String, SQL)] = [
            ("a new category", "INSERT INTO categories (name, parent_id, path, position) VALUES ('新', NULL, '新', 9)"),
            ("a category renamed", "UPDATE categories SET name = '更新' WHERE path = '新'"),
            ("a new product", """
                INSERT INTO products (code, category_id, title, status, created_at, updated_at)
                VALUES ('NEW', \(category), '新品', 'on_sale', 0, 0)
                """),
            ("a product removed", "DELETE FROM products WHERE code = 'NEW'"),
            ("a category removed", "DELETE FROM categories WHERE path = '新'"),
        ]
        for (change, sql) in elsewhere {
            let before = try counters(of: product, app.shop)
            try app.shop.pool.write { db in _ = try db.run(sql) }
            #expect(try counters(of: product, app.shop).sum > before.sum, "\(change)")
        }
    }

    @Test(.enabled(if: TestDatabase.isPostgreSQL))
    func onPostgreSQLATransactionMovesEachCounterOnceHoweverManyRowsItChanges() throws {
        let app = try TestAPI()
        try app.orderSeed([("A", "10.00", 5)])
        let product = try #require(try app.shop.pool.read { db in try db.scalarInt("SELECT product_id FROM skus WHERE code = 'A'") })
        let before = try counters(of: product, app.shop)
        try app.shop.pool.write { db in
            for _ in 0..<3 { _ = try db.run("UPDATE skus SET price_cents = price_cents + 1 WHERE code = 'A'") }
        }
        #expect(try counters(of: product, app.shop) == Counters(product: before.product + 1, sum: before.sum + 1))
        try app.shop.pool.write { db in _ = try db.run("UPDATE skus SET price_cents = price_cents + 1 WHERE code = 'A'") }
        #expect(try counters(of: product, app.shop).product == before.product + 2, "the next transaction moves it again")
    }
}
