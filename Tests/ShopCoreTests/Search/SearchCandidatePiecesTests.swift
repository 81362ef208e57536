import Foundation
import SQL
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("The copy's gate counts the candidates the engine's index reads; the tiers it ranks are the index's pages")
struct SearchCandidatePiecesTests {
    static let flowers = ["红玫瑰", "白百合", "粉雏菊", "满天星", "向日葵", "郁金香", "康乃馨", "绣球", "芍药", "桔梗"]
    static let shapes = ["桌花", "花束", "礼盒", "花篮", "盆栽", "手捧花"]

    /// 1,000 products `花束 No.N`, all on sale, each description `精选<flower>，<shape>造型。养护：每天换水，斜剪根部。`
    /// (ten flowers by N, six shapes by N / 10), every 50th subtitle `桌花造型 x4`: a care phrase
    /// naming a flower and a shape has 17 matches, while pg_trgm, which reads no punctuation, has
    /// every product of the shape (170) as a candidate. Sales in a shuffled order.
    static func line(_ number: Int) -> CatalogLine {
        CatalogLine(product: String(format: "P%04d", number), sku: String(format: "P%04d-1", number),
                    title: "花束 No.\(number)", subtitle: number % 50 == 0 ? "桌花造型 x4" : "送朋友",
                    category: ["花束/玫瑰", "礼盒", "绿植"][number % 3],
                    description: "精选\(flowers[number % 10])，\(shapes[number / 10 % 6])造型。养护：每天换水，斜剪根部。",
                    status: "on_sale")
    }

    private func shop() throws -> TestShop {
        let fixture = try TestShop()
        try fixture.importCatalogLines((0..<1000).map { Self.line($0) })
        try fixture.pool.write { db in
            for number in 0..<1000 {
                _ = try db.run("UPDATE products SET sales = \(Int64(number * 37 % 101)) WHERE code = \(String(format: "P%04d", number))")
            }
        }
        return fixture
    }

    /// Care phrases across punctuation, word edges (`no.4`: `no` ending a word, `4` beginning
    /// one; `x4` holds a 4 inside a word), words too short for a trigram, no letters at all.
    static let queries = ["瑰，桌花造型。养护", "玫瑰，桌花造型。养护：每天换水", "，桌花造型。", "球，手捧花造型", "no.4", "No.12",
                          "4 no", "o.4", "造型 x4", "花束 no.", "桌花造型", "每天换水，斜剪根部。", "。养护：", "a，b。c",
                          "，。养护", "型。养"]

    /// The products whose text holds all of the engine's pieces for a query (counted in the copy)
    /// are the candidates its index reads for it: the bitmap pg_trgm's index builds (PostgreSQL),
    /// the rows of the trigrams' FTS5 query (SQLite).
    @Test func theCopyCountsTheCandidatesTheIndexReads() throws {
        let fixture = try shop()
        let copy = SearchTextCopy()
        let version = try fixture.pool.read { db in try CatalogChanges().indexVersion(db) }
        try fixture.pool.read { db in try copy.prepare(at: version, db) }
        let texts = try #require(copy.texts(at: version))
        let engine = TestDatabase.search
        for query in Self.queries {
            let folded = SearchText.fold(query)
            let pieces = engine.candidatePieces(of: folded)
            let held = texts.holding(pieces)
            let candidates: Int
            if TestDatabase.isPostgreSQL {
                // pg_trgm's path is for a text with a letter or a digit; the grams answer the rest.
                guard folded.unicodeScalars.contains(where: SearchPiece.isWordCharacter) else { continue }
                candidates = try fixture.pool.write { db in
                    _ = try db.run("SET LOCAL enable_seqscan = off")
                    let plan = try db.query("""
                        EXPLAIN ANALYZE SELECT 1 FROM search_texts t
                        WHERE (t.title || E'\\n' || t.subtitle || E'\\n' || t.description) LIKE \(SearchText.likeContains(folded)) ESCAPE '\\'
                        """).map { try $0.decode("QUERY PLAN", as: String.self) }
                    let scan = try #require(plan.first { $0.contains("Bitmap Index Scan") }, "\(plan)")
                    // `(actual time=… rows=N loops=1)`: the products the bitmap holds.
                    let actual = scan[try #require(scan.range(of: "(actual"), "\(scan)").upperBound...]
                    let rows = try #require(actual.range(of: #"rows=\d+"#, options: .regularExpression), "\(scan)")
                    return try #require(Int(actual[rows].dropFirst(5)))
                }
            } else {
                let match = pieces.map { SearchText.ftsPhrase(String(decoding: $0.bytes, as: UTF8.self)) }.joined(separator: " AND ")
                candidates = try fixture.pool.read { db in
                    Int(try db.scalarInt("SELECT COUNT(*) FROM search_fts WHERE search_fts MATCH \(match)") ?? 0)
                }
            }
            #expect(held == candidates, "\(query): \(pieces.count) pieces")
        }
        // The phrase of one flower and one shape: pg_trgm's candidates are the shape's products and
        // the subtitles holding `桌花造型`; FTS5's trigrams (with `，`) are the matches.
        let phrase = SearchText.fold("瑰，桌花造型。养护")
        let expected = (0..<1000).filter { number in
            TestDatabase.isPostgreSQL ? number / 10 % 6 == 0 || number % 50 == 0 : number % 10 == 0 && number / 10 % 6 == 0
        }
        #expect(texts.holding(TestDatabase.search.candidatePieces(of: phrase)) == expected.count)
    }

    /// Every query's pages and totals, with the copy kept, are the oracle's and those of a search
    /// without the copy; on PostgreSQL the care phrase is counted and ranked from the copy (its
    /// 186 candidates make it dense there: 17 matches) and `no.1`'s title tier (111, at most one
    /// product in 8) is ranked from it without a walk.
    @Test func pagesFromTheCopyAreTheIndexsPages() throws {
        let fixture = try shop()
        let oracle = try SearchOracle(fixture)
        let version = try fixture.pool.read { db in try CatalogChanges().indexVersion(db) }
        let withoutCopy = ProductSearch(totals: SearchTotals(), engine: TestDatabase.search)
        for query in Self.queries + ["no.1", "NO.5", "养护：每天换水，斜剪根部。"] {
            let engine = RankingCountingEngine(TestDatabase.search)
            let withCopy = ProductSearch(totals: SearchTotals(), engine: engine)
            try fixture.pool.read { db in try withCopy.texts.prepare(at: version, db) }
            let expected = oracle.codes(query)
            for perPage in [3, 20] {
                let new = try fixture.searchPages(query, perPage: perPage, withCopy)
                let old = try fixture.searchPages(query, perPage: perPage, withoutCopy)
                #expect(new.codes == expected, "\(query), \(perPage) a page, with the copy")
                #expect(old.codes == expected, "\(query), \(perPage) a page, without the copy")
                #expect(new.totals == [expected.count] && old.totals == [expected.count], "\(query), \(perPage) a page")
            }
            guard TestDatabase.isPostgreSQL else {
                #expect(engine.rankings == 0, "\(query): SQLite ranks no ids")
                continue
            }
            if query == "瑰，桌花造型。养护" || query == "no.1" {
                #expect(engine.rankings > 0 && engine.walks == 0, "\(query): ranked from the copy, never walked")
            }
        }
        #expect(oracle.codes("瑰，桌花造型。养护").count == 17)
        #expect(oracle.codes("no.1").count == 111)
    }
}
