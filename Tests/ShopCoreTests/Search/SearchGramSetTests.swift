import Foundation
import SQL
@testable import ShopCore
import ShopTestSupport
import Testing

/// PostgreSQL's `search_gram_sets` arrays are cut by the shop from the folded texts and sent as
/// array literals (`PostgreSQLSearch.write`); they were cut by the server (migration 0042's
/// statement, kept here as the reference). Both must give the same elements in the same order,
/// and `search_gram_counts` must count them, for text that needs escaping in an array literal,
/// upper-case ASCII (folded), combining marks, four-byte characters and line breaks.
@Suite("Search index: the gram sets the shop writes are the server's own")
struct SearchGramSetTests {
    @Test func gramSetsAndCountsEqualTheServersCutOfTheSameTexts() throws {
        let fixture = try TestShop()
        try fixture.importCatalogLines([
            CatalogLine(product: "Q", sku: "Q-1", title: "Love 玫瑰 \"限量\" 50%_off", subtitle: "a\\b {c,d} NULL",
                        description: "第一行\n第二行\t\"\\\"\\"),
            CatalogLine(product: "C", sku: "C-1", title: "Café", subtitle: "cafe\u{301} CAFÉ", description: "🌹🌷x🌹 ,,"),
            CatalogLine(product: "S", sku: "S-1", title: "雏菊", subtitle: "雏菊", description: "雏菊 DAISY daisy"),
            CatalogLine(product: "OFF", sku: "OFF-1", title: "下架款", status: "off_sale"),
        ])
        // An edit reindexes one product through the same statements.
        try fixture.importCatalogLines([
            CatalogLine(product: "S", sku: "S-1", title: "雏菊{}", subtitle: "\"", description: "x"),
        ])
        try fixture.pool.write { db in
            guard db.dialect == .postgresql else { return }
            let server = try db.query("""
                SELECT t.product_id, CAST(ARRAY(
                    SELECT DISTINCT ON (g.gram) f.field || g.gram
                    FROM (VALUES ('0', string_to_array(t.title, NULL)), ('1', string_to_array(t.subtitle, NULL)),
                                 ('2', string_to_array(t.description, NULL))) AS f(field, c)
                    CROSS JOIN LATERAL unnest(f.c, f.c[2:]) AS u(a, b)
                    CROSS JOIN LATERAL (VALUES (u.a COLLATE "C"), (u.a || u.b COLLATE "C")) AS g(gram)
                    WHERE g.gram IS NOT NULL
                    ORDER BY g.gram, f.field) AS text) AS grams
                FROM search_texts t ORDER BY t.product_id
                """).map { [try $0.decode("product_id", as: Int64.self).description, try $0.decode("grams", as: String.self)] }
            let written = try db.query("""
                SELECT product_id, CAST(grams AS text) AS grams FROM search_gram_sets ORDER BY product_id
                """).map { [try $0.decode("product_id", as: Int64.self).description, try $0.decode("grams", as: String.self)] }
            #expect(written.count == 3)
            #expect(written == server)
            let counted = try db.query("""
                SELECT e AS element, COUNT(*) AS products FROM search_gram_sets, unnest(grams) AS e GROUP BY e ORDER BY e
                """).map { [try $0.decode("element", as: String.self), String(try $0.decode("products", as: Int64.self))] }
            let counts = try db.query("""
                SELECT element, products FROM search_gram_counts WHERE products > 0 ORDER BY element
                """).map { [try $0.decode("element", as: String.self), String(try $0.decode("products", as: Int64.self))] }
            #expect(counts == counted)
            #expect(counts.contains(["0l", "1"]) && !counts.contains { $0[0] == "0L" })
        }
        for query in ["\"", "{c", "🌹", "e\u{301}", "\\"] {
            #expect(try fixture.searchAllPages(query, perPage: 20).codes == SearchOracle(fixture).codes(query), "\(query)")
        }
    }
}
