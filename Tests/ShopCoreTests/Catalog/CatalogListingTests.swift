import Foundation
import Localization
import SQL
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("Catalogue lists: sorting, paging, filters, off-sale products")
struct CatalogListingTests {
    /// Seven products whose price, sales and age orders all differ from their id order, with ties.
    struct Item {
        let code: String
        let title: String
        let priceCents: Int64
        let sales: Int64
        let ageRank: Int64 // created_at offset: larger is newer
    }

    static let items = [
        Item(code: "A", title: "甲", priceCents: 10_000, sales: 5, ageRank: 30),
        Item(code: "B", title: "乙", priceCents: 5_000, sales: 9, ageRank: 10),
        Item(code: "C", title: "丙", priceCents: 10_000, sales: 5, ageRank: 30),
        Item(code: "D", title: "丁", priceCents: 3_000, sales: 0, ageRank: 20),
        Item(code: "E", title: "戊", priceCents: 10_000, sales: 9, ageRank: 0),
        Item(code: "F", title: "己", priceCents: 5_000, sales: 1, ageRank: 10),
        Item(code: "G", title: "庚", priceCents: 20_000, sales: 5, ageRank: 40),
    ]

    private func sortingShop() throws -> TestShop {
        let fixture = try TestShop()
        var lines: [CatalogLine] = []
        for item in Self.items {
            lines.append(CatalogLine(product: item.code, sku: "\(item.code)-1", title: item.title, category: "花束",
                                     price: Money.yuan(fromCents: item.priceCents)))
            // A dearer second SKU: the list price is the lowest one.
            lines.append(CatalogLine(product: item.code, sku: "\(item.code)-2", skuName: "大束", title: item.title, category: "花束",
                                     price: Money.yuan(fromCents: item.priceCents + 2_000)))
        }
        try fixture.importCatalogLines(lines)
        let start = fixture.clock.clock.unixNow
        try fixture.pool.write { db in
            for item in Self.items {
                _ = try db.run("UPDATE products SET sales = \(item.sales), created_at = \(start + item.ageRank) WHERE code = \(item.code)")
            }
        }
        return fixture
    }

    /// Items in id order carry their index as the id's order.
    static func expected(_ sort: ProductSort) -> [String] {
        let indexed = Array(items.enumerated())
        let sorted: [(offset: Int, element: Item)]
        switch sort {
        case .priceAscending:
            sorted = indexed.sorted { ($0.element.priceCents, $0.offset) < ($1.element.priceCents, $1.offset) }
        case .priceDescending:
            sorted = indexed.sorted { ($0.element.priceCents, $0.offset) > ($1.element.priceCents, $1.offset) }
        case .sales:
            sorted = indexed.sorted { ($0.element.sales, $0.offset) > ($1.element.sales, $1.offset) }
        case .newest, .relevance:
            sorted = indexed.sorted { ($0.element.ageRank, $0.offset) > ($1.element.ageRank, $1.offset) }
        }
        return sorted.map { $0.element.title }
    }

    @Test(arguments: [ProductSort.priceAscending, .priceDescending, .sales, .newest])
    func sortingIsCorrectAndStableAcrossPages(_ sort: ProductSort) throws {
        let fixture = try sortingShop()
        let expected = Self.expected(sort)
        let all = try fixture.catalogTitles(sort: sort, perPage: 20)
        #expect(all == expected)

        let six = try fixture.catalogTitles(sort: sort, perPage: 6)
        let first = try fixture.catalogTitles(sort: sort, page: 1, perPage: 3)
        let second = try fixture.catalogTitles(sort: sort, page: 2, perPage: 3)
        let third = try fixture.catalogTitles(sort: sort, page: 3, perPage: 3)
        #expect(first + second == six)
        #expect(six == Array(expected.prefix(6)))
        #expect(Set(first + second + third).count == 7)
        #expect(third == [expected[6]])
        #expect(try fixture.catalogTitles(sort: sort, page: 4, perPage: 3).isEmpty)
    }

    @Test func theHandwrittenOrdersAreWhatTheSortsMean() {
        #expect(Self.expected(.priceAscending) == ["丁", "乙", "己", "甲", "丙", "戊", "庚"])
        #expect(Self.expected(.priceDescending) == ["庚", "戊", "丙", "甲", "己", "乙", "丁"])
        #expect(Self.expected(.sales) == ["戊", "乙", "庚", "丙", "甲", "己", "丁"])
        #expect(Self.expected(.newest) == ["庚", "丙", "甲", "丁", "己", "乙", "戊"])
    }

    @Test func newestIsTheDefaultWithoutASearch() throws {
        let fixture = try sortingShop()
        #expect(try fixture.catalogTitles() == Self.expected(.newest))
    }

    @Test func aPageReportsTheTotalAndItsOwnNumbers() throws {
        let fixture = try sortingShop()
        let page = try fixture.catalogService.products(ProductQuery(sort: .priceAscending, page: try PageRequest(page: 2, perPage: 3)), unlessAt: nil).current
        #expect(page.total == 7)
        #expect(page.page == 2)
        #expect(page.perPage == 3)
        #expect(page.items.map(\.priceCents) == [10_000, 10_000, 10_000])
        // The lowest SKU gives the price; the second SKU of each is 20 yuan dearer.
        #expect(try fixture.catalogService.products(ProductQuery(sort: .priceAscending, page: try PageRequest()), unlessAt: nil).current
            .items.first?.priceCents == 3_000)
    }

    @Test func aPriceRangeIsInclusiveOnTheLowestSKUPrice() throws {
        let fixture = try sortingShop()
        #expect(Set(try fixture.catalogTitles(min: 5_000, max: 10_000)) == ["乙", "己", "甲", "丙", "戊"])
        #expect(Set(try fixture.catalogTitles(min: 10_001)) == ["庚"])
        #expect(Set(try fixture.catalogTitles(max: 4_999)) == ["丁"])
        #expect(Set(try fixture.catalogTitles(min: 3_000, max: 3_000)) == ["丁"])
        // 220 yuan is only a second SKU's price: no product lists at it.
        #expect(try fixture.catalogTitles(min: 21_000, max: 22_000).isEmpty)
        #expect(try fixture.catalogTitles(min: 0).count == 7)
    }

    @Test func negativePricesAndAMinimumAboveTheMaximumAreValidationErrors() throws {
        let fixture = try sortingShop()
        #expect(throws: ValidationError.self) { try fixture.catalogTitles(min: -1) }
        #expect(throws: ValidationError.self) { try fixture.catalogTitles(max: -1) }
        // A range that can hold nothing is the shopper's slip, said as such (the contract: max not below min).
        let error = #expect(throws: ValidationError.self) { try fixture.catalogTitles(min: 10_000, max: 9_999) }
        #expect(error?.field == "min_price_cents")
        #expect(error?.message == LocalizedText(zh: "最低价不能高于最高价。", en: "min_price_cents must not be more than max_price_cents."))
        #expect(try fixture.catalogTitles(min: 21_000, max: 22_000).isEmpty, "a range between prices is empty, not an error")
    }

    @Test func aPageOutsideOneToAHundredIsAValidationError() {
        #expect(throws: ValidationError.self) { try PageRequest(page: 1, perPage: 0) }
        #expect(throws: ValidationError.self) { try PageRequest(page: 1, perPage: 101) }
        #expect(throws: ValidationError.self) { try PageRequest(page: 0, perPage: 20) }
        #expect(throws: Never.self) { try PageRequest(page: 1, perPage: 100) }
    }

    // MARK: Categories

    private func categoryShop() throws -> TestShop {
        let fixture = try TestShop()
        try fixture.importCatalogLines([
            CatalogLine(product: "R1", sku: "R1-1", title: "卡罗拉红玫瑰", category: "花束/玫瑰/红玫瑰"),
            CatalogLine(product: "R2", sku: "R2-1", title: "混色玫瑰", category: "花束/玫瑰"),
            CatalogLine(product: "L1", sku: "L1-1", title: "香水百合", category: "花束/百合"),
            CatalogLine(product: "G1", sku: "G1-1", title: "绿萝", category: "绿植"),
            CatalogLine(product: "X1", sku: "X1-1", title: "下架玫瑰", category: "花束/玫瑰", status: "off_sale"),
        ])
        return fixture
    }

    @Test func aCategoryFilterIncludesEverySubCategory() throws {
        let fixture = try categoryShop()
        let bouquets = try fixture.catalogCategoryID(path: "花束")
        let roses = try fixture.catalogCategoryID(path: "花束/玫瑰")
        let red = try fixture.catalogCategoryID(path: "花束/玫瑰/红玫瑰")
        let plants = try fixture.catalogCategoryID(path: "绿植")
        #expect(Set(try fixture.catalogTitles(category: bouquets)) == ["卡罗拉红玫瑰", "混色玫瑰", "香水百合"])
        #expect(Set(try fixture.catalogTitles(category: roses)) == ["卡罗拉红玫瑰", "混色玫瑰"])
        #expect(try fixture.catalogTitles(category: red) == ["卡罗拉红玫瑰"])
        #expect(try fixture.catalogTitles(category: plants) == ["绿萝"])
        #expect(try fixture.catalogTitles("百合", category: roses).isEmpty)
        #expect(try fixture.catalogTitles("红玫瑰", category: bouquets) == ["卡罗拉红玫瑰"])
    }

    @Test func anUnknownCategoryIsCategoryNotFound() throws {
        let fixture = try categoryShop()
        #expect(throws: CatalogError.categoryNotFound) { try fixture.catalogTitles(category: CategoryID(9_999)) }
    }

    @Test func theCategoryTreeNestsToAnyDepth() throws {
        let fixture = try categoryShop()
        let tree = try fixture.catalogService.categoryTree(unlessAt: nil).current
        #expect(tree.map(\.name) == ["花束", "绿植"])
        let roses = try #require(tree.first?.children.first)
        #expect(roses.name == "玫瑰")
        #expect(roses.children.map(\.name) == ["红玫瑰"])
        #expect(roses.children.first?.parentID == roses.id)
        #expect(roses.children.first?.children == [])
    }

    // MARK: On sale only

    @Test func offSaleProductsAreNeitherListedNorServed() throws {
        let fixture = try categoryShop()
        let offSale = try fixture.catalogProductID(code: "X1")
        #expect(!(try fixture.catalogTitles()).contains("下架玫瑰"))
        #expect(try fixture.catalogService.products(ProductQuery(page: try PageRequest()), unlessAt: nil).current.total == 4)
        #expect(try fixture.catalogTitles("下架").isEmpty)
        #expect(try fixture.catalogTitles("下架玫瑰").isEmpty)
        #expect(throws: CatalogError.productNotFound) { try fixture.catalogService.product(offSale) }
        #expect(throws: CatalogError.productNotFound) { try fixture.catalogService.product(ProductID(99_999)) }
    }

    @Test func takingAProductOffSaleHidesItAndPuttingItBackShowsIt() throws {
        let fixture = try TestShop()
        var line = CatalogLine(product: "R1", sku: "R1-1", title: "卡罗拉红玫瑰")
        try fixture.importCatalogLines([line])
        let id = try fixture.catalogProductID(code: "R1")
        #expect(try fixture.catalogService.product(id).summary.title == "卡罗拉红玫瑰")
        line.status = "off_sale"
        #expect(try fixture.importCatalogLines([line]).summary.products.updated == 1)
        #expect(try fixture.catalogTitles().isEmpty)
        #expect(throws: CatalogError.productNotFound) { try fixture.catalogService.product(id) }
        line.status = "on_sale"
        try fixture.importCatalogLines([line])
        #expect(try fixture.catalogTitles() == ["卡罗拉红玫瑰"])
    }

    @Test func aProductWhoseSKUsAreAllSoldOutIsListedAsOutOfStock() throws {
        let fixture = try TestShop()
        try fixture.importCatalogLines([
            CatalogLine(product: "OUT", sku: "OUT-1", title: "售罄", stock: "0"),
            CatalogLine(product: "OUT", sku: "OUT-2", skuName: "19枝", title: "售罄", stock: "0"),
            CatalogLine(product: "IN", sku: "IN-1", title: "有货", stock: "0"),
            CatalogLine(product: "IN", sku: "IN-2", skuName: "19枝", title: "有货", stock: "1"),
        ])
        let items = try fixture.catalogService.products(ProductQuery(page: try PageRequest()), unlessAt: nil).current.items
        #expect(Dictionary(uniqueKeysWithValues: items.map { ($0.title, $0.inStock) }) == ["售罄": false, "有货": true])
    }
}
