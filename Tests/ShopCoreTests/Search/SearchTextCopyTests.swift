import Foundation
import SQL
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("Dense queries counted from the texts in memory: the index's totals and pages, after edits too")
struct SearchTextCopyTests {
    static let care = "养护：每天换水，斜剪根部。"

    static func code(_ number: Int) -> String { String(format: "C%03d", number) }

    /// 600 products whose descriptions repeat the care text one to three times (every 13th off
    /// sale); the care text's words are also in the subtitle of every 40th and the title of every
    /// 90th, 礼盒 (a category's name) in three descriptions of four; sales repeat every 7.
    static func line(_ number: Int, description: String? = nil, status: String? = nil) -> CatalogLine {
        CatalogLine(product: code(number), sku: code(number) + "-1",
                    title: (number % 90 == 0 ? "每天换水 " : "") + "花束 No.\(number)",
                    subtitle: number % 40 == 0 ? "斜剪根部。养护" : "送朋友",
                    category: ["花束/玫瑰", "礼盒", "绿植"][number % 3],
                    description: description ?? ((number % 4 == 0 ? "精选" : "精选礼盒") + "。" + String(repeating: care, count: 1 + number % 3)),
                    status: status ?? (number % 13 == 0 ? "off_sale" : "on_sale"))
    }

    private func careShop() throws -> TestShop {
        let fixture = try TestShop()
        try fixture.importCatalogLines((0..<600).map { Self.line($0) })
        try fixture.pool.write { db in
            for number in 0..<600 {
                _ = try db.run("UPDATE products SET sales = \(Int64(number % 7)) WHERE code = \(Self.code(number))")
            }
        }
        return fixture
    }

    /// Queries most products match (care text, a category's name, a title word too), some fewer.
    static let queries = [care, care + "养护：每天换水", care + care + "养", "斜剪根部。养护", "每天换水", "礼盒", "精选礼盒。养护",
                          "NO.1", "花束 no.", "换水，斜剪根部。养护：每天换水，斜剪根部。养护：每天换水，斜剪根部。"]

    private func indexVersion(_ fixture: TestShop) throws -> Int64 {
        try fixture.pool.read { db in try CatalogChanges().indexVersion(db) }
    }

    @Test func theCopyCountsADenseQueryAsTheTextsDo() throws {
        let fixture = try careShop()
        let copy = SearchTextCopy()
        let version = try indexVersion(fixture)
        try fixture.pool.read { db in try copy.prepare(at: version, db) }
        let texts = try #require(copy.texts(at: version))
        #expect(copy.texts(at: version + 1) == nil, "kept at the version it was read at only")
        let oracle = try SearchOracle(fixture)
        for query in [Self.care, Self.care + "养护：每天换水", "每天换水", "花束 no."] {
            let counts = try #require(texts.denseCounts(of: SearchText.fold(query), in: TestDatabase.search, named: []), "\(query) is dense")
            #expect(counts.reduce(0, +) == oracle.codes(query).count, "\(query)")
        }
        // Title, subtitle, description: the products whose first field holds the text.
        let onSale = (0..<600).filter { $0 % 13 != 0 }
        #expect(texts.denseCounts(of: "每天换水", in: TestDatabase.search, named: []) == [onSale.filter { $0 % 90 == 0 }.count, 0,
                                                                          onSale.filter { $0 % 90 != 0 }.count])
        #expect(texts.denseCounts(of: "no.999", in: TestDatabase.search, named: []) == nil, "a query with no candidates is left to the index")
    }

    @Test func searchesAnswerTheSameWithTheCopyAsWithoutIt() throws {
        let fixture = try careShop()
        let oracle = try SearchOracle(fixture)
        // Without the copy (nothing prepared it), then with it: each query's first search counts.
        for query in Self.queries.prefix(5) {
            let found = try fixture.searchAllPages(query, perPage: 20)
            #expect(found.codes == oracle.codes(query), "\(query)")
            #expect(found.totals == [oracle.codes(query).count], "\(query)")
        }
        try fixture.catalogService.prepareSearchTerms()
        #expect(try fixture.catalogService.searchTermsArePrepared(at: indexVersion(fixture)))
        for query in Self.queries.dropFirst(5) {
            for perPage in [7, 100] {
                let found = try fixture.searchAllPages(query, perPage: perPage)
                #expect(found.codes == oracle.codes(query), "\(query), \(perPage) a page")
                #expect(found.totals == [oracle.codes(query).count], "\(query), \(perPage) a page")
            }
        }
    }

    /// An edit moves `catalog_version`: the copy read before it is not used, and the copy read
    /// after it counts the edited texts.
    @Test func aDenseQuerysTotalsFollowAnEditAndADeletion() throws {
        let fixture = try careShop()
        try fixture.catalogService.prepareSearchTerms()
        let dense = Self.care + "养护：每天换水"
        #expect(try fixture.searchAllPages(dense, perPage: 20).codes == SearchOracle(fixture).codes(dense))

        // Care text out of 30 descriptions, 20 products off sale, 10 back on sale, one deleted.
        try fixture.importCatalogLines((100..<130).map { Self.line($0, description: "无") }
            + (200..<220).map { Self.line($0, status: "off_sale") } + [0, 13, 26, 39, 52, 65, 78, 91, 143, 156].map { Self.line($0, status: "on_sale") })
        let id = try fixture.catalogProductID(code: Self.code(301))
        try fixture.pool.write { db in
            _ = try db.run("DELETE FROM skus WHERE product_id = \(id)")
            _ = try db.run("DELETE FROM products WHERE id = \(id)")
        }
        let oracle = try SearchOracle(fixture)
        // Before the copy is read again: from the index.
        let before = try fixture.searchAllPages(dense, perPage: 20)
        #expect(before.codes == oracle.codes(dense))
        #expect(before.totals == [oracle.codes(dense).count])
        try fixture.catalogService.prepareSearchTerms()
        for query in [Self.care, "每天换水", "礼盒", Self.care + Self.care + "养"] {
            let found = try fixture.searchAllPages(query, perPage: 20)
            #expect(found.codes == oracle.codes(query), "\(query)")
            #expect(found.totals == [oracle.codes(query).count], "\(query)")
        }
    }
}
