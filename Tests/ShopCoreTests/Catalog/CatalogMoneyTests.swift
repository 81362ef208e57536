import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("Catalogue prices: yuan text to cents, exactly")
struct CatalogMoneyTests {
    @Test(arguments: [
        ("0.1", 10), ("0.01", 1), ("0.10", 10), ("129.00", 12_900), ("129", 12_900), ("129.5", 12_950),
        ("0", 0), ("0.00", 0), ("19.99", 1_999), ("1000000.01", 100_000_001), ("007.07", 707),
    ] as [(String, Int64)])
    func yuanTextBecomesExactCents(_ text: String, _ cents: Int64) {
        #expect(Money.cents(fromYuan: text) == cents)
    }

    @Test(arguments: ["1e3", "1E3", "-1", "+1", "12.345", "", "1.", ".5", "1.2.3", "1,000", " 1", "1 ", "¥1", "１２", "0x10",
                      "nan", "inf", "1_000", "9999999999999"])
    func anythingButPlainYuanWithAtMostTwoDecimalsIsRejected(_ text: String) {
        #expect(Money.cents(fromYuan: text) == nil)
    }

    @Test func pricesThatFloatingPointGetsWrongAreExact() {
        // 0.29 * 100 = 28.999999999999996 and 1.13 * 100 = 112.99999999999999 in Double.
        #expect(Money.cents(fromYuan: "0.29") == 29)
        #expect(Money.cents(fromYuan: "1.13") == 113)
        #expect(Money.cents(fromYuan: "4.35") == 435)
        #expect(Money.cents(fromYuan: "999999999999.99") == 99_999_999_999_999)
    }

    @Test(arguments: ["1e3", "-1", "12.345", "1.", "abc"])
    func anImportReportsABadPriceOnItsLineAndColumn(_ price: String) throws {
        let fixture = try TestShop()
        let lines = [CatalogLine(), CatalogLine(product: "P2", sku: "P2-S1", price: price)]
        do {
            try fixture.importCatalogLines(lines)
            Issue.record("an invalid price was imported")
        } catch ImportError.invalidRows(let issues) {
            #expect(issues.count == 1)
            #expect(issues.first?.line == 3)
            #expect(issues.first?.column == "price")
            #expect(issues.first?.description.hasPrefix("line 3: price: ") == true)
            #expect(issues.first?.reason.contains(price) == true)
        }
        #expect(try fixture.catalogSnapshot().productCount == 0)
    }

    @Test func anEmptyPriceIsReportedAsRequired() throws {
        let fixture = try TestShop()
        #expect(throws: ImportError.invalidRows([ImportIssue(line: 2, column: "price", reason: "is required")])) {
            try fixture.importCatalogLines([CatalogLine(price: "")])
        }
    }

    @Test func aBadOriginalPriceIsReportedOnItsOwnColumn() throws {
        let fixture = try TestShop()
        do {
            try fixture.importCatalogLines([CatalogLine(originalPrice: "159.999")])
            Issue.record("an invalid original price was imported")
        } catch ImportError.invalidRows(let issues) {
            #expect(issues.map(\.column) == ["original_price"])
            #expect(issues.map(\.line) == [2])
        }
    }

    @Test func importedPricesAreStoredInExactCents() throws {
        let fixture = try TestShop()
        try fixture.importCatalogLines([
            CatalogLine(sku: "P1-S1", price: "0.1", originalPrice: "0.29"),
            CatalogLine(sku: "P1-S2", skuName: "33枝", price: "129.00", originalPrice: "159.9"),
            CatalogLine(product: "P2", sku: "P2-S1", title: "百合", price: "1.13"),
        ])
        let rose = try fixture.catalogService.product(try fixture.catalogProductID(code: "P1"))
        #expect(rose.skus.map(\.priceCents) == [10, 12_900])
        #expect(rose.summary.priceCents == 10)
        #expect(rose.summary.originalPriceCents == 29)
        let lily = try fixture.catalogService.product(try fixture.catalogProductID(code: "P2"))
        // Without an original price, the price stands in for it.
        #expect(lily.summary.priceCents == 113)
        #expect(lily.summary.originalPriceCents == 113)
    }
}
