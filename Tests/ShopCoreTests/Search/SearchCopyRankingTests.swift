import Foundation
import SQL
import ShopTestSupport
import Synchronization
import Testing
@testable import ShopCore

/// The engine the shop runs on, counting the rankings it writes from the copy's matches and the
/// walks of the best sellers (each reads `walkedText`).
final class RankingCountingEngine: SearchEngine {
    let base: any SearchEngine
    private let counted = Mutex(0)
    private let walked = Mutex(0)

    init(_ base: any SearchEngine) { self.base = base }

    /// Rankings written for ids (an empty probe is not counted).
    var rankings: Int { counted.withLock { $0 } }
    /// Walks of the best sellers written.
    var walks: Int { walked.withLock { $0 } }

    func ranking(_ ids: [ProductID], order: SQL, offset: Int, limit: Int) -> SQL? {
        let ranking = base.ranking(ids, order: order, offset: offset, limit: limit)
        if ranking != nil, !ids.isEmpty { counted.withLock { $0 += 1 } }
        return ranking
    }

    func reindex(_ products: [ProductID], _ db: any SQLConnection) throws { try base.reindex(products, db) }
    func rebuild(_ db: any SQLConnection) throws { try base.rebuild(db) }
    var indexTables: [String] { base.indexTables }
    func source(of match: SearchMatch, in scope: SearchMatch.Scope) -> (from: SQL, condition: SQL) { base.source(of: match, in: scope) }
    func contains(_ match: SearchMatch, _ field: SearchMatch.Field, in alias: String) -> SQL { base.contains(match, field, in: alias) }
    func countsByField(_ match: SearchMatch, _ db: any SQLConnection) throws -> [Int] { try base.countsByField(match, db) }
    func candidatePieces(of text: String) -> [SearchPiece] { base.candidatePieces(of: text) }
    func walkIsCheaper(rows: Int, indexed: Int) -> Bool { base.walkIsCheaper(rows: rows, indexed: indexed) }
    var walkedText: (columns: SQL, join: SQL, alias: String) {
        walked.withLock { $0 += 1 }
        return base.walkedText
    }
    func bestSellersWalk(of match: SearchMatch, in scope: SearchMatch.Scope, conditions: [SQL], offset: Int, limit: Int) -> SQL? {
        base.bestSellersWalk(of: match, in: scope, conditions: conditions, offset: offset, limit: limit)
    }
    var foldedName: SQL { base.foldedName }
    var foldedTitle: SQL { base.foldedTitle }
    var titlesByFoldedTitle: SQL { base.titlesByFoldedTitle }
    func nameContains(_ folded: String) -> SQL { base.nameContains(folded) }
    var laterFoundAt: SQL { base.laterFoundAt }
    func containsWord(of wordsJSON: String) -> SQL { base.containsWord(of: wordsJSON) }
}

@Suite("Tiers the best-seller walk misses, ranked from the copy's matches: the same pages, totals and tiers")
struct SearchCopyRankingTests {
    /// 600 products `花束 No.N`, the best sellers the highest numbers (sales N from 200, below
    /// that 0–100 in a shuffled order), every 13th off sale; a third in category 礼盒 (whose name is also in some descriptions), a third in 花束.
    static func line(_ number: Int) -> CatalogLine {
        CatalogLine(product: String(format: "R%03d", number), sku: String(format: "R%03d-1", number),
                    title: "花束 No.\(number)", subtitle: number % 40 == 0 ? "礼盒 No.\(number)" : number == 7 ? "送朋友🌹" : "送朋友",
                    category: ["花束/玫瑰", "礼盒", "绿植"][number % 3],
                    description: number % 4 == 0 ? "精选礼盒。养护：每天换水" : "精选。养护：每天换水",
                    status: number % 13 == 0 ? "off_sale" : "on_sale")
    }

    private func shop() throws -> TestShop {
        let fixture = try TestShop()
        try fixture.importCatalogLines((0..<600).map { Self.line($0) })
        try fixture.pool.write { db in
            for number in 0..<600 {
                let sales = Int64(number >= 200 ? number : number * 37 % 101)
                _ = try db.run("UPDATE products SET sales = \(sales) WHERE code = \(String(format: "R%03d", number))")
            }
        }
        return fixture
    }

    /// `no.1` (1, 10–19, 100–199: the least sold), `no.4`, a category's name (礼盒, 花束, two
    /// characters), a dense text and a sparse one: with the copy kept, as the oracle ranks them and
    /// as a search without the copy (the walk, then the index) pages them.
    @Test func pagesRankedFromTheCopyAreTheIndexsPages() throws {
        let fixture = try shop()
        let oracle = try SearchOracle(fixture)
        let version = try fixture.pool.read { db in try CatalogChanges().indexVersion(db) }
        let engine = RankingCountingEngine(TestDatabase.search)
        let withCopy = ProductSearch(totals: SearchTotals(), engine: engine)
        try fixture.pool.read { db in try withCopy.texts.prepare(at: version, db) }
        let withoutCopy = ProductSearch(totals: SearchTotals(), engine: TestDatabase.search)
        for query in ["No.1", "no.4", "NO.10", "礼盒", "花束", "养护：每天换水", "no.12", "no.59"] {
            for perPage in [7, 20, 100] {
                let expected = oracle.codes(query)
                let old = try fixture.searchPages(query, perPage: perPage, withoutCopy)
                let new = try fixture.searchPages(query, perPage: perPage, withCopy)
                #expect(old.codes == expected, "\(query), \(perPage) a page, without the copy")
                #expect(new.codes == expected, "\(query), \(perPage) a page, with the copy")
                #expect(new.totals == [expected.count] && old.totals == [expected.count], "\(query), \(perPage) a page")
            }
        }
        // PostgreSQL ranks the copy's ids (the walks of `no.1` find none of its matches); SQLite
        // walks its best-sellers index against the FTS matches instead.
        if TestDatabase.isPostgreSQL {
            #expect(engine.rankings > 0)
        } else {
            #expect(engine.rankings == 0)
        }
    }

    /// A query with a byte no on-sale text holds (🌷) finds nothing, counted without the index;
    /// one whose bytes the texts hold (🌹) is searched.
    @Test func aQueryWithAByteNoTextHoldsFindsNothing() throws {
        let fixture = try shop()
        let oracle = try SearchOracle(fixture)
        let version = try fixture.pool.read { db in try CatalogChanges().indexVersion(db) }
        let withCopy = ProductSearch(totals: SearchTotals(), engine: TestDatabase.search)
        try fixture.pool.read { db in try withCopy.texts.prepare(at: version, db) }
        let texts = try #require(withCopy.texts.texts(at: version))
        let withoutCopy = ProductSearch(totals: SearchTotals(), engine: TestDatabase.search)
        for query in ["🌷", "No🌷", "’🌹No'‘🌷", "🌹", "友🌹", "no.7", "礼盒🌷", "Привет"] {
            #expect(texts.holdsAbsentByte(SearchText.fold(query)) == (query.contains("🌷") || query == "Привет"), "\(query)")
            let expected = oracle.codes(query)
            for search in [withCopy, withoutCopy] {
                let found = try fixture.searchPages(query, perPage: 20, search)
                #expect(found.codes == expected, "\(query)")
                #expect(found.totals == [expected.count], "\(query)")
            }
        }
        #expect(oracle.codes("🌹").count == 1 && oracle.codes("友🌹").count == 1)
    }

    /// A category's name, shorter than three characters, is counted from the copy (tier by
    /// tier: in the named category, then elsewhere), as the index counts it.
    @Test func aNamedCategorysTiersAreCountedFromTheCopyAsFromTheIndex() throws {
        let fixture = try shop()
        let version = try fixture.pool.read { db in try CatalogChanges().indexVersion(db) }
        let withCopy = ProductSearch(totals: SearchTotals(), engine: TestDatabase.search)
        try fixture.pool.read { db in try withCopy.texts.prepare(at: version, db) }
        let texts = try #require(withCopy.texts.texts(at: version))
        let oracle = try SearchOracle(fixture)
        for query in ["礼盒", "花束"] {
            let named = try fixture.pool.read { db in
                try db.query("SELECT id FROM categories").map { try $0.decode("id", as: CategoryID.self) }
            }.filter { id in
                oracle.categories[id.rawValue].map { SearchOracle.fold(query) == $0.name || oracle.categories[$0.parent ?? -1]?.name == SearchOracle.fold(query) } ?? false
            }.sorted { $0.rawValue < $1.rawValue }
            #expect(!named.isEmpty, "\(query) names a category")
            let request = try #require(CatalogStore.searchRequest(ProductQuery(text: query, page: try PageRequest(page: 1, perPage: 20)),
                                                                  filters: [], order: nil))
            let copied = try #require(ProductSearch.copyMatches(of: SearchText.fold(query), named: named, request, in: texts,
                                                                  engine: TestDatabase.search))
            let fromCopy = texts.tiers(of: copied.matches, named: named)
            #expect(fromCopy.reduce(0, +) == oracle.codes(query).count, "\(query)")
            #expect(fromCopy.count == 6 && fromCopy[..<3].reduce(0, +) > 0 && fromCopy[3...].reduce(0, +) > 0,
                    "\(query): matches in the named categories and elsewhere")
            // The index's counts, without the copy (nothing prepared it).
            let withoutCopy = ProductSearch(totals: SearchTotals(), engine: TestDatabase.search)
            let total = try fixture.pool.read { db in try withoutCopy.total(request, at: version, db) }
            #expect(total == fromCopy.reduce(0, +), "\(query)")
        }
    }
}
