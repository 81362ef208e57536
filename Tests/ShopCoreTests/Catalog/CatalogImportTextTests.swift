import Foundation
import ShopTestSupport
import SQL
import Testing
@testable import ShopCore

/// Text that a bulk path (PostgreSQL's COPY into a staging table) must carry byte for byte: the
/// import stores it as the file gives it on both engines, and a second import of the same file
/// finds every product and SKU unchanged.
@Suite("Catalogue import: awkward text arrives exactly")
struct CatalogImportTextTests {
    private static let lines = [
        CatalogLine(product: "AWK-1", sku: "AWK-1-a", skuName: "tab\there \\N", title: "反斜杠\\玫瑰 \"引号\" 'single'",
                    subtitle: "\\. alone", category: "花束/特\\殊", price: "1.00",
                    description: "第一行\n第二行\r\n第三行\t制表 \\t 不是制表 \\\\ 两个 | 竖线 , 逗号",
                    cover: "https://img.example.com/a\\b.jpg", images: "https://img.example.com/1.jpg?a=1&b=\"2\"|/media/x.jpg",
                    attributes: #"{"说明":"tab\tand\nnewline \\ back","q":"\"quoted\""}"#),
        CatalogLine(product: "AWK-1", sku: "AWK-1-b", skuName: "中号 🌹", title: "ignored", category: "ignored", price: "2.00"),
        CatalogLine(product: "AWK-2", sku: "AWK-2-a", skuName: "e\u{301}", title: "Caf\u{E9} 咖啡色", subtitle: "\\",
                    category: "花束/特\\殊", price: "3.00", description: "\\x41\\000"),
    ]

    @Test("tabs, newlines, backslashes, quotes, Chinese and emoji in every text column are stored as the file gives them")
    func awkwardTextIsStoredExactly() throws {
        let fixture = try TestShop()
        let outcome = try fixture.importCatalogLines(Self.lines)
        #expect(outcome.issues.isEmpty)
        #expect(outcome.summary.products == ImportSummary.Counts(created: 2, updated: 0, unchanged: 0, invalid: 0))
        #expect(outcome.summary.skus == ImportSummary.Counts(created: 3, updated: 0, unchanged: 0, invalid: 0))
        let stored = try fixture.pool.read { db in
            try db.query("""
                SELECT p.code, p.title, p.subtitle, p.description, p.cover_url, p.attributes, c.path, s.code AS sku, s.name
                FROM skus s JOIN products p ON p.id = s.product_id JOIN categories c ON c.id = p.category_id ORDER BY s.code
                """)
        }
        let first = Self.lines[0]
        func bytes(_ value: SQLValue?) -> [UInt8]? {
            if case .text(let text)? = value { return Array(text.utf8) }
            return nil
        }
        #expect(stored.count == 3)
        #expect(bytes(stored[0]["title"]) == Array(first.title.utf8))
        #expect(bytes(stored[0]["subtitle"]) == Array(first.subtitle.utf8))
        #expect(bytes(stored[0]["description"]) == Array(first.description.utf8))
        #expect(bytes(stored[0]["cover_url"]) == Array(first.cover.utf8))
        #expect(bytes(stored[0]["path"]) == Array("花束/特\\殊".utf8))
        #expect(bytes(stored[0]["name"]) == Array(first.skuName.utf8))
        #expect(bytes(stored[1]["name"]) == Array("中号 🌹".utf8))
        #expect(bytes(stored[2]["title"]) == Array("Caf\u{E9} 咖啡色".utf8))
        #expect(bytes(stored[2]["name"]) == Array("e\u{301}".utf8))
        #expect(bytes(stored[2]["description"]) == Array("\\x41\\000".utf8))
        let rose = try fixture.catalogService.product(try fixture.catalogProductID(code: "AWK-1"))
        #expect(rose.attributes == ["说明": .string("tab\tand\nnewline \\ back"), "q": .string("\"quoted\"")])
        let images = try fixture.pool.read { db in
            try db.query("SELECT url FROM product_images p JOIN products x ON x.id = p.product_id WHERE x.code = 'AWK-1' ORDER BY position")
                .map { try $0.decode("url", as: String.self) }
        }
        #expect(images == ["https://img.example.com/1.jpg?a=1&b=\"2\"", "/media/x.jpg"])
        // The search index has the text too.
        #expect(try fixture.catalogTitles("反斜杠") == [first.title])
        #expect(try fixture.catalogTitles("咖啡") == ["Caf\u{E9} 咖啡色"])

        let before = try fixture.catalogSnapshot()
        fixture.clock.advance(by: 60)
        let again = try fixture.importCatalogLines(Self.lines)
        #expect(again.summary.products == ImportSummary.Counts(created: 0, updated: 0, unchanged: 2, invalid: 0))
        #expect(again.summary.skus == ImportSummary.Counts(created: 0, updated: 0, unchanged: 3, invalid: 0))
        #expect(try fixture.catalogSnapshot() == before)
    }

    @Test("text that differs only in Unicode normalisation counts as unchanged, as Swift compares it, and keeps its stored bytes")
    func canonicallyEqualTextIsUnchanged() throws {
        let fixture = try TestShop()
        try fixture.importCatalogLines(Self.lines)
        let before = try fixture.catalogSnapshot()
        var lines = Self.lines
        lines[2].title = "Cafe\u{301} 咖啡色"
        lines[2].skuName = "\u{E9}"
        let again = try fixture.importCatalogLines(lines)
        #expect(again.summary.products == ImportSummary.Counts(created: 0, updated: 0, unchanged: 2, invalid: 0))
        #expect(again.summary.skus == ImportSummary.Counts(created: 0, updated: 0, unchanged: 3, invalid: 0))
        #expect(try fixture.catalogSnapshot() == before)

        lines[2].title = "Cafe 咖啡色"
        let edited = try fixture.importCatalogLines(lines)
        #expect(edited.summary.products == ImportSummary.Counts(created: 0, updated: 1, unchanged: 1, invalid: 0))
        #expect(try fixture.catalogTitles("cafe") == ["Cafe 咖啡色"])
    }
}
