import Foundation
import PostgreSQL
import SQL
import SQLite
import ShopMigrations
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("Search index: every query length, title > subtitle > description, pages and totals")
struct SearchIndexTests {
    /// Three products that hold the same words, one in each field; the description one sells most
    /// and is newest, the title one sells least, so only the field can put them in order.
    private func threeFieldShop() throws -> TestShop {
        let fixture = try TestShop()
        try fixture.importCatalogLines([
            CatalogLine(product: "TITLE", sku: "T-1", title: "雏菊 Daisy 满天星花束 \"限量\" 5*", category: "花束/混搭"),
            CatalogLine(product: "SUB", sku: "S-1", title: "精选礼盒", subtitle: "雏菊 Daisy 满天星花束 \"限量\" 5*",
                        category: "礼盒"),
            CatalogLine(product: "DESC", sku: "D-1", title: "田园花篮", category: "花篮",
                        description: "内含雏菊 daisy 满天星花束，\"限量\" 5* 款"),
            CatalogLine(product: "NONE", sku: "N-1", title: "香水百合", category: "花束/百合", description: "淡雅"),
        ])
        try fixture.setCatalogSales(1, code: "TITLE")
        try fixture.setCatalogSales(50, code: "SUB")
        try fixture.setCatalogSales(900, code: "DESC")
        return fixture
    }

    private func codes(_ fixture: TestShop, _ query: String, perPage: Int = 20) throws -> [String] {
        try fixture.searchAllPages(query, perPage: perPage).codes
    }

    @Test(arguments: ["雏", "菊", "星"])
    func aOneCharacterQueryFindsTitleSubtitleAndDescriptionInThatOrder(_ query: String) throws {
        let fixture = try threeFieldShop()
        #expect(try codes(fixture, query) == ["TITLE", "SUB", "DESC"])
    }

    @Test(arguments: ["雏菊", "天星", "花束"])
    func aTwoCharacterQueryFindsTitleSubtitleAndDescriptionInThatOrder(_ query: String) throws {
        let fixture = try threeFieldShop()
        #expect(try codes(fixture, query) == ["TITLE", "SUB", "DESC"])
    }

    @Test(arguments: ["满天星", "满天星花", "满天星花束", "\"限量\" 5*"])
    func aLongerQueryFindsTitleSubtitleAndDescriptionInThatOrder(_ query: String) throws {
        let fixture = try threeFieldShop()
        #expect(try codes(fixture, query) == ["TITLE", "SUB", "DESC"])
    }

    @Test func aTwoCharacterWordOnlyInADescriptionIsFound() throws {
        let fixture = try TestShop()
        try fixture.importCatalogLines([
            CatalogLine(product: "MIX", sku: "MIX-1", title: "春日混搭花束", subtitle: "送朋友", category: "花束",
                        description: "主花材为玫瑰与洋桔梗"),
            CatalogLine(product: "LILY", sku: "LILY-1", title: "香水百合", category: "花束", description: "淡雅"),
        ])
        let page = try fixture.catalogService.products(ProductQuery(text: "玫瑰", page: try PageRequest()), unlessAt: nil).current
        #expect(page.items.map(\.title) == ["春日混搭花束"])
        #expect(page.total == 1)
        #expect(try codes(fixture, "玫") == ["MIX"])
    }

    @Test(arguments: ["d", "DA", "dAiSy", "DAISY 满"])
    func latinLettersMatchInAnyCaseInEveryField(_ query: String) throws {
        let fixture = try threeFieldShop()
        #expect(try codes(fixture, query) == ["TITLE", "SUB", "DESC"])
    }

    @Test func withinAFieldBestSellersComeFirstThenTheNewerProduct() throws {
        let fixture = try TestShop()
        try fixture.importCatalogLines((1...5).map { CatalogLine(product: "P\($0)", sku: "P\($0)-1", title: "绣球 \($0)号") })
        try fixture.setCatalogSales(10, code: "P2")
        try fixture.setCatalogSales(10, code: "P4")
        try fixture.setCatalogSales(3, code: "P1")
        for query in ["绣", "绣球", "绣球 "] {
            #expect(try codes(fixture, query) == ["P4", "P2", "P1", "P5", "P3"], "\(query)")
        }
    }

    @Test func productsOfACategoryTheQueryNamesComeFirstThenTheFieldOrder() throws {
        let fixture = try TestShop()
        try fixture.importCatalogLines([
            CatalogLine(product: "SEEDS", sku: "SEEDS-1", title: "玫瑰种子", category: "园艺/种子"),
            CatalogLine(product: "CANDLE", sku: "CANDLE-1", title: "玫瑰香薰蜡烛", category: "家居"),
            CatalogLine(product: "BOUQUET", sku: "BOUQUET-1", title: "十一枝红玫瑰", category: "花束/玫瑰"),
            CatalogLine(product: "DEEP", sku: "DEEP-1", title: "经典款", category: "花束/玫瑰/进口", description: "进口玫瑰"),
            CatalogLine(product: "NOWORD", sku: "NOWORD-1", title: "一枝独秀", category: "花束/玫瑰"),
        ])
        try fixture.setCatalogSales(500, code: "SEEDS")
        try fixture.setCatalogSales(400, code: "CANDLE")
        // The rose category (and the one under it) first, title before description; then the rest.
        #expect(try codes(fixture, "玫瑰") == ["BOUQUET", "DEEP", "SEEDS", "CANDLE"])
        // The parent category names every rose bouquet too.
        try fixture.importCatalogLines([
            CatalogLine(product: "BOX", sku: "BOX-1", title: "花束礼盒", category: "礼盒"),
            CatalogLine(product: "WRAP", sku: "WRAP-1", title: "包装纸", category: "花束/玫瑰", description: "适合花束"),
        ])
        try fixture.setCatalogSales(999, code: "BOX")
        #expect(try codes(fixture, "花束") == ["WRAP", "BOX"])
        #expect(try codes(fixture, "玫瑰", perPage: 1) == ["BOUQUET", "DEEP", "SEEDS", "CANDLE"])
    }

    // MARK: Literal text

    static let literalQueries = ["\"", "*", "-", "%", "_", "\\", "'", "(", "OR", "or", "-20", "50%", "%_", "a\"b", "NEAR(",
                                 "\"限量\"", "5*", "OR 百合", "玫瑰 OR", "-玫瑰", "玫*", "{title}", "title:", "^玫", "e\u{301}", "é",
                                 "NOT", "AND", "玫瑰\"", "100-20"]

    @Test(arguments: literalQueries)
    func queryTextIsMatchedLiterallyNeverAsSyntax(_ query: String) throws {
        let fixture = try TestShop()
        try fixture.importCatalogLines([
            CatalogLine(product: "QUOTE", sku: "Q-1", title: "\"限量\"款 满100-20", category: "礼盒",
                        description: "OR AND NOT NEAR( * 50%_off a\"b back\\slash 'single' (paren) ^caret"),
            CatalogLine(product: "FIELD", sku: "F-1", title: "玫瑰*百合", subtitle: "{title}: 玫瑰 OR 百合 -玫瑰", category: "花束"),
            CatalogLine(product: "ACCENT", sku: "A-1", title: "Café 咖啡色玫瑰\"", category: "花束", description: "cafe\u{301} or 5*"),
            CatalogLine(product: "PLAIN", sku: "P-1", title: "玫瑰百合", category: "花束", description: "title: 玫瑰"),
        ])
        let oracle = try SearchOracle(fixture)
        for perPage in [1, 20] {
            let found = try fixture.searchAllPages(query, perPage: perPage)
            #expect(found.codes == oracle.codes(query), "\(query)")
            #expect(found.totals == [oracle.codes(query).count], "\(query)")
        }
    }

    // MARK: Pages and totals

    /// 300 products (every 13th off sale) whose words are drawn from a small vocabulary, in the
    /// categories 花束/玫瑰, 花束/百合, 礼盒 and 绿植; sales fall with the product number (ties every
    /// fifth), and the word 冷门 is in the descriptions of the 170 worst sellers only.
    private func generatedShop() throws -> TestShop {
        let fixture = try TestShop()
        let words = ["玫瑰", "百合", "向日葵", "满天星", "Love", "ROSE", "mini", "花束", "礼盒", "香槟", "50%_off", "a\"b", "OR", "-20"]
        let categories = ["花束/玫瑰", "花束/百合", "礼盒", "绿植"]
        var lines: [CatalogLine] = []
        var seed: UInt64 = 17
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        for number in 0..<300 {
            let title = words[next(words.count)] + words[next(words.count)] + " No.\(number)"
            let subtitle = next(3) == 0 ? "" : words[next(words.count)] + "的花语"
            var description = (0..<next(4)).map { _ in words[next(words.count)] }.joined(separator: "，")
            if number >= 130 { description += " 冷门款" }
            lines.append(CatalogLine(product: String(format: "G%03d", number), sku: String(format: "G%03d-1", number), title: title,
                                     subtitle: subtitle, category: categories[next(categories.count)],
                                     price: "\(10 + next(300)).00", description: description,
                                     status: number % 13 == 0 ? "off_sale" : "on_sale"))
        }
        try fixture.importCatalogLines(lines)
        try fixture.pool.write { db in
            for number in 0..<300 {
                let code = String(format: "G%03d", number)
                _ = try db.run("UPDATE products SET sales = \(Int64((300 - number) / 5)) WHERE code = \(code)")
            }
        }
        return fixture
    }

    /// Dense (most products: read by walking the best sellers), clustered (only the worst
    /// sellers), sparse (read from the index), absent, at every length.
    static let generatedQueries = ["花", "的", "No", "o", "玫瑰", "花语", "no.1", "冷门", "冷门款", "No.2", "NO.12", "No.29",
                                   "向日葵", "满天星花束", "百合的花语", "a\"b", "%_", "OR", "-20", "ROSEmini", "蛋糕", "Q", "No.999"]

    @Test(arguments: generatedQueries)
    func everyPageAndTheTotalFollowTheRankingOfAllMatches(_ query: String) throws {
        let fixture = try generatedShop()
        let expected = try SearchOracle(fixture).codes(query)
        for perPage in [1, 7, 20, 100] {
            let found = try fixture.searchAllPages(query, perPage: perPage)
            #expect(found.codes == expected, "\(query), \(perPage) a page")
            #expect(found.totals == [expected.count], "\(query), \(perPage) a page")
        }
    }

    @Test func aPageBeyondTheLastIsEmptyButKeepsTheTotal() throws {
        let fixture = try generatedShop()
        let total = try SearchOracle(fixture).codes("花").count
        let page = try fixture.catalogService.products(ProductQuery(text: "花", page: try PageRequest(page: total / 20 + 2, perPage: 20)), unlessAt: nil).current
        #expect(page.items.isEmpty)
        #expect(page.total == total)
    }

    @Test func filtersAndOtherSortsApplyToEveryMatch() throws {
        let fixture = try generatedShop()
        let oracle = try SearchOracle(fixture)
        let roses = try fixture.catalogCategoryID(path: "花束")
        for query in ["花", "玫瑰", "Love", "冷门"] {
            for sort in [nil, ProductSort.relevance, .sales, .newest, .priceAscending, .priceDescending] {
                let all = try fixture.searchAllPages(query, perPage: 9, sort: sort)
                #expect(all.codes == oracle.codes(query, sort: sort), "\(query) \(String(describing: sort))")
                let filtered = try fixture.searchAllPages(query, perPage: 9, sort: sort, category: roses, minPrice: 5_000, maxPrice: 20_000)
                let expected = oracle.codes(query, sort: sort, category: roses.rawValue, minPrice: 5_000, maxPrice: 20_000)
                #expect(filtered.codes == expected, "\(query) \(String(describing: sort)) filtered")
                #expect(filtered.totals == [expected.count])
            }
        }
    }

    // MARK: Keeping the index right

    @Test func aReimportThatRewordsAProductMovesItInSearch() throws {
        let fixture = try threeFieldShop()
        #expect(try codes(fixture, "雏菊") == ["TITLE", "SUB", "DESC"])
        // The title word moves to the description; a new word takes its place.
        try fixture.importCatalogLines([
            CatalogLine(product: "TITLE", sku: "T-1", title: "芍药 Peony", category: "花束/混搭", description: "曾叫雏菊 Daisy"),
        ])
        #expect(try codes(fixture, "雏菊") == ["SUB", "DESC", "TITLE"])
        #expect(try codes(fixture, "芍") == ["TITLE"])
        #expect(try codes(fixture, "peony") == ["TITLE"])
        #expect(try codes(fixture, "满天星").contains("TITLE") == false)
        #expect(try fixture.catalogService.products(ProductQuery(text: "满天星", page: try PageRequest()), unlessAt: nil).current.total == 2)
    }

    @Test func takingAProductOffSaleDropsItFromSearchAndPuttingItBackRestoresIt() throws {
        let fixture = try threeFieldShop()
        try fixture.importCatalogLines([
            CatalogLine(product: "SUB", sku: "S-1", title: "精选礼盒", subtitle: "雏菊 Daisy 满天星花束 \"限量\" 5*", category: "礼盒",
                        status: "off_sale"),
        ])
        for query in ["雏", "雏菊", "满天星花束"] {
            #expect(try codes(fixture, query) == ["TITLE", "DESC"])
            #expect(try fixture.catalogService.products(ProductQuery(text: query, page: try PageRequest()), unlessAt: nil).current.total == 2)
        }
        try fixture.importCatalogLines([
            CatalogLine(product: "SUB", sku: "S-1", title: "精选礼盒", subtitle: "雏菊 Daisy 满天星花束 \"限量\" 5*", category: "礼盒"),
        ])
        #expect(try codes(fixture, "雏菊") == ["TITLE", "SUB", "DESC"])
    }

    @Test func aDeletedProductLeavesTheIndex() throws {
        let fixture = try threeFieldShop()
        #expect(try codes(fixture, "满天星") == ["TITLE", "SUB", "DESC"])
        let id = try fixture.catalogProductID(code: "SUB")
        #expect(try fixture.pool.write { try searchIndexEntries(of: id, $0) } > 0)
        try fixture.pool.write { db in
            _ = try db.run("DELETE FROM skus WHERE product_id = \(id)")
            _ = try db.run("DELETE FROM products WHERE id = \(id)")
        }
        for query in ["星", "满天", "满天星"] {
            #expect(try codes(fixture, query) == ["TITLE", "DESC"], "\(query)")
            #expect(try fixture.catalogService.products(ProductQuery(text: query, page: try PageRequest()), unlessAt: nil).current.total == 2)
        }
        #expect(try fixture.pool.write { try searchIndexEntries(of: id, $0) } == 0)
    }

    /// PostgreSQL counts the products per gram and field as it writes them (the tier sizes of a
    /// one- or two-character query): an edit that moves a product between tiers and a deletion
    /// must move those counts too.
    @Test func shortQueryTotalsFollowAnEditAndADeletion() throws {
        let fixture = try threeFieldShop()
        try fixture.importCatalogLines([
            CatalogLine(product: "SUB", sku: "S-1", title: "雏菊礼盒", subtitle: "满天星", category: "礼盒"),
        ])
        let id = try fixture.catalogProductID(code: "DESC")
        try fixture.pool.write { db in
            _ = try db.run("DELETE FROM skus WHERE product_id = \(id)")
            _ = try db.run("DELETE FROM products WHERE id = \(id)")
        }
        for query in ["雏", "雏菊", "星", "满天", "限", "礼", "盒", "*"] {
            let found = try codes(fixture, query)
            #expect(try found == SearchOracle(fixture).codes(query), "\(query)")
            let total = try fixture.catalogService.products(ProductQuery(text: query, page: try PageRequest()), unlessAt: nil).current.total
            #expect(total == found.count, "\(query)")
        }
        // Both in the title tier now, the better seller first.
        #expect(try codes(fixture, "雏菊") == ["SUB", "TITLE"])
    }

    @Test func importingTheSameFileAgainLeavesTheIndexAsItWas() throws {
        let fixture = try TestShop()
        let lines = (1...30).map {
            CatalogLine(product: "R\($0)", sku: "R\($0)-1", title: "第\($0)款 玫瑰", subtitle: "送妈妈", description: "每天换水 No.\($0)")
        }
        try fixture.importCatalogLines(lines)
        let before = try fixture.pool.write { try searchIndexEntries($0) }
        #expect(!before.isEmpty)
        try fixture.importCatalogLines(lines)
        #expect(try fixture.pool.write { try searchIndexEntries($0) } == before)
        #expect(try fixture.catalogService.products(ProductQuery(text: "换水", page: try PageRequest()), unlessAt: nil).current.total == 30)
    }

    @Test func aSalesChangeReordersMatchesAtOnce() throws {
        let fixture = try generatedShop()
        let before = try fixture.searchAllPages("花", perPage: 20).codes
        let last = try #require(before.last)
        try fixture.setCatalogSales(10_000, code: last)
        let after = try fixture.searchAllPages("花", perPage: 20).codes
        #expect(try after == SearchOracle(fixture).codes("花"))
        #expect(after != before)
    }

    /// (Also: the searches logged before it become the hot keywords' rows, and then, through 0025,
    /// counts per keyword and day and searchers per keyword and day.)
    @Test func theMigrationIndexesTheProductsAlreadyThereAsTheImportWould() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("search-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool: any Database
        let files: [(name: String, sql: String)]
        if let server = TestDatabase.postgresURL {
            let schema = "ts_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            try TestDatabase.createSchema(schema, on: server)
            pool = try PostgreSQL.Pool(url: TestDatabase.url(server, searchPath: schema), size: 1)
            files = ShopMigrations.postgresql
        } else {
            pool = try DatabasePool(path: directory.appendingPathComponent("shop.sqlite").path, readers: 1)
            files = ShopMigrations.sqlite
        }
        let migrations = try Migrator(files: files).migrations
        _ = try Migrator(migrations: migrations.filter { $0.version < 13 }).migrate(pool)
        let products: [(code: String, title: String, subtitle: String, description: String, status: String)] = [
            ("P1", "Love 玫瑰", "送妈妈", "进口玫瑰 No.1 \"限量\" 50%_off", "on_sale"),
            ("P2", "香水百合", "", "混搭玫瑰与 LILY", "on_sale"),
            ("P3", "下架款玫瑰", "", "玫瑰", "off_sale"),
            ("P4", "Café", "cafe\u{301}", String(repeating: "花语 ", count: 300), "on_sale"),
        ]
        try pool.write { db in
            _ = try db.run("INSERT INTO categories (id, name, parent_id, path, position) VALUES (1, '花束', NULL, '花束', 0)")
            for product in products {
                _ = try db.run("""
                    INSERT INTO products (code, category_id, title, subtitle, description, status, created_at, updated_at)
                    VALUES (\(product.code), 1, \(product.title), \(product.subtitle), \(product.description), \(product.status), 0, 0)
                    """)
            }
            _ = try db.run("""
                INSERT INTO search_queries (keyword, searched_at, searcher, found)
                VALUES ('玫瑰', 100, 'ip:1', 1), ('玫瑰', 300, 'ip:1', 1), ('玫瑰', 400, 'ip:1', 0), ('蛋糕', 200, 'ip:2', 0)
                """)
        }
        _ = try Migrator(migrations: migrations).migrate(pool)
        let migrated = try pool.write { try searchIndexEntries($0) }
        try pool.write { db in
            try TestDatabase.search.reindex(try db.query("SELECT id FROM products").map { try $0.decode("id") }, db)
        }
        #expect(!migrated.isEmpty)
        #expect(try pool.write { try searchIndexEntries($0) } == migrated)
        let searchers = try pool.read { db in
            try db.query("SELECT keyword, day, searcher, last_found_at FROM search_searchers").map { row in
                "\(try row.string("keyword")) \(try row.int64("day")) \(try row.string("searcher")) \(try row.int64("last_found_at"))"
            }
        }
        #expect(searchers == ["玫瑰 0 ip:1 300"])
        let counts = try pool.read { db in
            try db.query("SELECT day, keyword, searches, found FROM search_counts").map { row in
                "\(try row.int64("day")) \(try row.string("keyword")) \(try row.int64("searches")) \(try row.int64("found"))"
            }.sorted()
        }
        #expect(counts == ["0 玫瑰 3 2", "0 蛋糕 1 0"])
    }

    // MARK: Suggestions

    @Test func suggestionsPutPrefixesFirstThenBestSellingTitlesThatContainTheText() throws {
        let fixture = try TestShop()
        var lines = (1...40).map { CatalogLine(product: "C\($0)", sku: "C\($0)-1", title: "经典玫瑰 \($0)号", category: "花束") }
        lines += (1...3).map { CatalogLine(product: "P\($0)", sku: "P\($0)-1", title: "玫瑰礼盒 \($0)号", category: "礼盒") }
        lines.append(CatalogLine(product: "D", sku: "D-1", title: "混搭", category: "花束", description: "玫瑰"))
        try fixture.importCatalogLines(lines)
        try fixture.setCatalogSales(70, code: "C33")
        try fixture.setCatalogSales(60, code: "C7")
        let items = try fixture.catalogService.suggestions("玫瑰")
        #expect(items.prefix(3) == ["玫瑰礼盒 1号", "玫瑰礼盒 2号", "玫瑰礼盒 3号"])
        #expect(items.dropFirst(3).prefix(2) == ["经典玫瑰 33号", "经典玫瑰 7号"])
        #expect(items.count == 10)
        #expect(!items.contains("混搭"), "descriptions are not suggested")
        #expect(try fixture.catalogService.suggestions("玫瑰礼盒 2") == ["玫瑰礼盒 2号"])
    }
}
