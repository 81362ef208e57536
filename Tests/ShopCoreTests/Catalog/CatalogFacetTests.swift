import SQL
@testable import ShopCore
import ShopTestSupport
import Testing

/// A catalogue over two levels of categories (and products in a parent category itself), prices
/// on and beside every range's edges, a product whose SKUs fall in two ranges, off-sale products,
/// and text that searches find in titles, subtitles and descriptions.
private func facetCatalogue() throws -> TestShop {
    let shop = try TestShop()
    let categories = ["花束/玫瑰", "花束/百合", "花束", "绿植/多肉", "礼盒"]
    let prices = ["9.90", "99.99", "100.00", "199.99", "200.00", "299.99", "300.00", "499.99", "500.00", "1288.00", "158.00"]
    let titles = ["红玫瑰花束", "香水百合", "Rose Bouquet", "多肉拼盘", "玫瑰礼盒", "向日葵花篮", "白玫瑰"]
    var lines: [CatalogLine] = []
    for index in 0..<44 {
        let code = "F\(index)"
        var line = CatalogLine(product: code, sku: "\(code)-1", title: "\(titles[index % titles.count]) \(index)",
                               subtitle: index % 5 == 0 ? "送妈妈的花" : "", category: categories[index % categories.count],
                               price: prices[index % prices.count], description: index % 3 == 0 ? "玫瑰与满天星" : "")
        line.status = index % 9 == 4 ? "off_sale" : "on_sale"
        lines.append(line)
        if index % 7 == 2 {
            // A second, dearer SKU: the product's price (and range) is its cheapest SKU's.
            lines.append(CatalogLine(product: code, sku: "\(code)-2", skuName: "99枝", title: line.title, subtitle: line.subtitle,
                                     category: line.category, price: "688.00", description: line.description, status: line.status))
        }
    }
    try shop.importCatalogLines(lines)
    return shop
}

private extension TestShop {
    func listing(_ text: String? = nil, category: CategoryID? = nil, min: Int64? = nil, max: Int64? = nil) throws -> ProductListing {
        try catalogService.listing(ProductQuery(categoryID: category, text: text, minPriceCents: min, maxPriceCents: max,
                                                page: try PageRequest(page: 1, perPage: 5)), facets: true, unlessAt: nil).current
    }

    func facets(_ text: String? = nil, category: CategoryID? = nil, min: Int64? = nil, max: Int64? = nil) throws -> ProductFacets {
        try #require(try listing(text, category: category, min: min, max: max).facets)
    }

    func total(_ text: String? = nil, category: CategoryID? = nil, min: Int64? = nil, max: Int64? = nil) throws -> Int {
        try catalogService.products(ProductQuery(categoryID: category, text: text, minPriceCents: min, maxPriceCents: max,
                                                 page: try PageRequest(page: 1, perPage: 1)), unlessAt: nil).current.total
    }

    /// Every category, in the tree's order (each after its parent).
    func categoriesInTreeOrder() throws -> [(id: CategoryID, parent: CategoryID?)] {
        func flatten(_ nodes: [CategoryNode]) -> [(id: CategoryID, parent: CategoryID?)] {
            nodes.flatMap { [($0.id, $0.parentID)] + flatten($0.children) }
        }
        return flatten(try catalogService.categoryTree(unlessAt: nil).current)
    }
}

@Suite("Catalogue facets: category and price-range counts of a list")
struct CatalogFacetTests {
    /// The chips' ranges, as `price_ranges` lists them.
    static let ranges: [(Int64, Int64?)] = [(0, 9_999), (10_000, 19_999), (20_000, 29_999), (30_000, 49_999), (50_000, nil)]

    @Test(arguments: [nil, "玫瑰", "花", "rOSE", "meigui", "满天星", "送妈妈", "不存在"] as [String?])
    func everyChipsCountIsTheTotalThatPickingItGives(_ text: String?) throws {
        let shop = try facetCatalogue()
        let bouquets = try shop.catalogCategoryID(path: "花束"), roses = try shop.catalogCategoryID(path: "花束/玫瑰")
        let tree = try shop.categoriesInTreeOrder()
        // No price filter, one on the chips' edges, one beside them, a minimum or a maximum alone.
        let prices: [(Int64?, Int64?)] = [(nil, nil), (10_000, 19_999), (15_000, 30_000), (20_000, nil), (nil, 29_999)]
        for category in [nil, bouquets, roses] {
            for (min, max) in prices {
                let listing = try shop.listing(text, category: category, min: min, max: max)
                let facets = try #require(listing.facets)
                let context = "q=\(text ?? "-") category=\(category.map { "\($0)" } ?? "-") price=\(min ?? -1)…\(max ?? -1)"
                #expect(listing.page.total == (try shop.total(text, category: category, min: min, max: max)), "\(context)")
                // Categories: with the text and price filter, not the category filter; the empty ones left out.
                let expected = try tree.compactMap { node -> CategoryID? in
                    try shop.total(text, category: node.id, min: min, max: max) > 0 ? node.id : nil
                }
                #expect(facets.categories.map(\.id) == expected, "\(context)")
                for chip in facets.categories {
                    #expect(chip.count == (try shop.total(text, category: chip.id, min: min, max: max)), "\(context) \(chip.name)")
                }
                // Price ranges: with the text and category filter, not the price filter; every range listed.
                #expect(facets.priceRanges.map(\.minCents) == Self.ranges.map(\.0), "\(context)")
                #expect(facets.priceRanges.map(\.maxCents) == Self.ranges.map(\.1), "\(context)")
                for range in facets.priceRanges {
                    #expect(range.count == (try shop.total(text, category: category, min: range.minCents, max: range.maxCents)),
                            "\(context) \(range.minCents)")
                }
            }
        }
    }

    @Test func aProductCountsUnderItsOwnCategoryAndTheOneAboveIt() throws {
        let shop = try TestShop()
        try shop.importCatalogLines([
            CatalogLine(product: "R1", sku: "R1-1", title: "红玫瑰", category: "花束/玫瑰", price: "99.00"),
            CatalogLine(product: "R2", sku: "R2-1", title: "粉玫瑰", category: "花束/玫瑰", price: "199.00"),
            CatalogLine(product: "L1", sku: "L1-1", title: "百合", category: "花束/百合", price: "120.00"),
            CatalogLine(product: "B1", sku: "B1-1", title: "混搭花束", category: "花束", price: "520.00"),
            CatalogLine(product: "G1", sku: "G1-1", title: "绿萝", category: "绿植", price: "45.00"),
            CatalogLine(product: "E1", sku: "E1-1", title: "空分类的玫瑰", category: "礼盒", price: "300.00", status: "off_sale"),
        ])
        let bouquets = try shop.catalogCategoryID(path: "花束"), roses = try shop.catalogCategoryID(path: "花束/玫瑰")
        let lilies = try shop.catalogCategoryID(path: "花束/百合"), plants = try shop.catalogCategoryID(path: "绿植")
        let all = try shop.facets()
        // 礼盒 holds only an off-sale product: no chip. Tree order: 花束, its children, then 绿植.
        #expect(all.categories == [
            CategoryFacet(id: bouquets, name: "花束", parentID: nil, count: 4),
            CategoryFacet(id: roses, name: "玫瑰", parentID: bouquets, count: 2),
            CategoryFacet(id: lilies, name: "百合", parentID: bouquets, count: 1),
            CategoryFacet(id: plants, name: "绿植", parentID: nil, count: 1),
        ])
        #expect(all.priceRanges.map(\.count) == [2, 2, 0, 0, 1])

        // Picking 玫瑰 keeps its siblings' and parent's counts; the price ranges narrow to it.
        let picked = try shop.facets(category: roses)
        #expect(picked.categories == all.categories)
        #expect(picked.priceRanges.map(\.count) == [1, 1, 0, 0, 0])
        // A price filter narrows the categories, not the ranges.
        let cheap = try shop.facets(max: 9_999)
        #expect(cheap.categories.map(\.id) == [bouquets, roses, plants])
        #expect(cheap.categories.map(\.count) == [1, 1, 1])
        #expect(cheap.priceRanges == all.priceRanges)
        // A search counts only its matches.
        let searched = try shop.facets("玫瑰")
        #expect(searched.categories.map(\.id) == [bouquets, roses])
        #expect(searched.categories.map(\.count) == [2, 2])
        #expect(searched.priceRanges.map(\.count) == [1, 1, 0, 0, 0])
    }

    @Test func aListWithNothingInItHasNoCategoriesAndEveryRangeAtZero() throws {
        let shop = try TestShop()
        #expect(try shop.facets() == ProductFacets(categories: [], priceRanges: Self.ranges.map {
            PriceRangeFacet(minCents: $0.0, maxCents: $0.1, count: 0)
        }))
        try shop.importCatalogLines([CatalogLine()])
        #expect(try shop.facets("百合").categories.isEmpty)
        #expect(try shop.facets("百合").priceRanges.map(\.count) == [0, 0, 0, 0, 0])
        // A maximum of Int64.max lets every price through.
        #expect(try shop.facets(max: Int64.max).categories.map(\.count) == [1, 1])
    }

    @Test func countsFollowEveryChangeOfPriceSaleCategoryTextAndName() throws {
        let shop = try TestShop()
        var rose = CatalogLine(product: "R", sku: "R-1", title: "红玫瑰", category: "花束/玫瑰", price: "99.00")
        let lily = CatalogLine(product: "L", sku: "L-1", title: "百合", category: "花束/百合", price: "150.00")
        try shop.importCatalogLines([rose, lily])
        #expect(try shop.facets().priceRanges.map(\.count) == [1, 1, 0, 0, 0])
        #expect(try shop.facets("玫瑰").priceRanges.map(\.count) == [1, 0, 0, 0, 0])

        // Repriced: it moves to another range at once, searched or not.
        rose.price = "350.00"
        try shop.importCatalogLines([rose])
        #expect(try shop.facets().priceRanges.map(\.count) == [0, 1, 0, 1, 0])
        #expect(try shop.facets("玫瑰").priceRanges.map(\.count) == [0, 0, 0, 1, 0])

        // Moved to another category.
        rose.category = "礼盒"
        try shop.importCatalogLines([rose])
        let boxes = try shop.catalogCategoryID(path: "礼盒")
        #expect(try shop.facets("玫瑰").categories.map(\.id) == [boxes])

        // Reworded: a search no longer finds it.
        rose.title = "红色花束"
        try shop.importCatalogLines([rose])
        #expect(try shop.facets("玫瑰").categories.isEmpty)
        #expect(try shop.facets("红色").categories.map(\.id) == [boxes])

        // Renamed category: the chip shows the new name.
        _ = try shop.catalogAdmin.updateCategory(boxes, CategoryChanges(name: "礼盒套装"), by: staffActor)
        #expect(try shop.facets("红色").categories.map(\.name) == ["礼盒套装"])

        // Off sale: gone from every count.
        rose.status = "off_sale"
        try shop.importCatalogLines([rose])
        #expect(try shop.facets().priceRanges.map(\.count) == [0, 1, 0, 0, 0])
        #expect(try shop.facets("红色").categories.isEmpty)
    }

    @Test func aListsCountsAreReadOncePerCatalogueVersionWhateverCategoryOrChipIsPicked() throws {
        let shop = try facetCatalogue()
        let (counted, database) = try shop.counted()
        let roses = try shop.catalogCategoryID(path: "花束/玫瑰")
        func statements(_ category: CategoryID? = nil, min: Int64? = nil, max: Int64? = nil) throws -> (withFacets: Int, without: Int) {
            // Page 2: no search is recorded (a write a second later), so only this read's statements count.
            let query = ProductQuery(categoryID: category, text: "玫瑰", minPriceCents: min, maxPriceCents: max,
                                     page: try PageRequest(page: 2, perPage: 5))
            _ = try counted.catalog.products(query, unlessAt: nil)
            database.reset()
            _ = try counted.catalog.products(query, unlessAt: nil)
            let without = database.statements
            database.reset()
            _ = try counted.catalog.listing(query, facets: true, unlessAt: nil)
            return (database.statements, without)
        }
        // The first list of a query counts its histogram (the catalogue version, the tree, the histogram).
        let first = try statements()
        #expect(first.withFacets == first.without + 3)
        // Another category, a chip's price range: the kept histogram answers (version and tree only).
        for (category, min, max) in [(roses, nil, nil), (nil, 10_000, 19_999), (roses, 50_000, nil)] as [(CategoryID?, Int64?, Int64?)] {
            let again = try statements(category, min: min, max: max)
            #expect(again.withFacets == again.without + 2)
        }
        // A price filter beside the chips' edges cuts elsewhere: counted once, then kept.
        let beside = try statements(min: 12_345)
        #expect(beside.withFacets == beside.without + 3)
        let besideAgain = try statements(min: 12_345)
        #expect(besideAgain.withFacets == besideAgain.without + 2)
        // A new price moves the catalogue version: counted again.
        try shop.importCatalogLines([CatalogLine(product: "F0", sku: "F0-1", title: "红玫瑰花束 0", category: "花束/玫瑰", price: "77.00")])
        let moved = try statements()
        #expect(moved.withFacets == moved.without + 3)
    }

    @Test func histogramSumsTakeWholeSegmentsBetweenCuts() {
        let cuts = FacetHistogram.cuts(min: 15_000, max: 19_999)
        #expect(cuts == [10_000, 15_000, 20_000, 30_000, 50_000])
        #expect(FacetHistogram.cuts(min: 0, max: Int64.max) == PriceRanges.cuts)
        let a = CategoryID(1), b = CategoryID(2)
        let histogram = FacetHistogram(cuts: cuts, counts: [a: [1, 2, 3, 4, 5, 6], b: [10, 0, 0, 0, 0, 1]])
        #expect(histogram.count(in: nil, from: 0, below: nil) == 32)
        #expect(histogram.count(in: [a], from: 15_000, below: 20_000) == 3)
        #expect(histogram.count(in: [b], from: 0, below: 10_000) == 10)
        #expect(histogram.count(in: nil, from: 50_000, below: nil) == 7)
        #expect(histogram.count(in: [a, b], from: 10_000, below: 30_000) == 2 + 3 + 4)
        #expect(histogram.count(in: [], from: 0, below: nil) == 0)
    }
}
