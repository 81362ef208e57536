import Foundation
import HTTP
import SQL
@testable import ShopAPI
import ShopCore
import ShopTestSupport
import Testing

/// Two levels of categories, a product in a parent category itself, prices in four ranges, one
/// off-sale rose.
private let facetsCSV = """
    product_code,sku_code,sku_name,title,subtitle,category,price,original_price,stock,description,cover_url,image_urls,attributes,status
    RED,RED-11,11枝,红玫瑰花束,热恋之选,花束/玫瑰,129.00,,20,,,,,on_sale
    RED,RED-33,33枝,红玫瑰花束,热恋之选,花束/玫瑰,299.00,,5,,,,,on_sale
    PINK,PINK-1,单束,粉玫瑰,,花束/玫瑰,88.00,,5,,,,,on_sale
    LILY,LILY-6,6枝,香水百合,配玫瑰叶,花束/百合,168.00,,0,,,,,on_sale
    MIX,MIX-1,大束,混搭花束,,花束,520.00,,3,"玫瑰,百合,满天星",,,,on_sale
    POT,POT-1,一盆,绿萝,,绿植,45.00,,9,,,,,on_sale
    GONE,GONE-1,单枝,下架玫瑰,,花束/玫瑰,9.90,,3,,,,,off_sale
    """

private func facetsAPI() throws -> TestAPI {
    let fixture = try TestAPI()
    let path = fixture.directory.appendingPathComponent("catalog.csv").path
    try Data(facetsCSV.utf8).write(to: URL(fileURLWithPath: path))
    _ = try fixture.shop.catalogImporter.importFile(at: path, options: .init())
    return fixture
}

private extension TestAPI {
    func products(_ query: [String: String], headers: [(String, String)] = []) throws -> TestResponse {
        try send("GET", "/api/v1/products", query: query, headers: headers)
    }
}

private extension TestResponse {
    var listing: ProductListResponse? { try? decode(ProductListResponse.self) }
    var facets: FacetsResponse? { listing?.own.facets }
    var total: Int? { listing?.shared.total }
}

@Suite("Catalogue API: facets of a product list")
struct CatalogFacetsAPITests {
    @Test func facetsAreAddedOnlyWhenAskedWithEveryKeySpelledOut() throws {
        let fixture = try facetsAPI()
        for query in [[:], ["facets": "false"], ["facets": ""], ["q": "玫瑰", "facets": "false"]] {
            let plain = try fixture.products(query)
            #expect(plain.status == 200)
            #expect(plain.keys == ["items", "page", "per_page", "total"], "\(query)")
        }
        let response = try fixture.products(["q": "玫瑰", "facets": "true"])
        #expect(response.status == 200)
        #expect(response.keys == ["items", "page", "per_page", "total", "facets"])
        #expect(response.keys(of: "facets") == ["categories", "price_ranges"])
        let facets = response.json["facets"] as? [String: Any] ?? [:]
        let categories = facets["categories"] as? [[String: Any]] ?? []
        let ranges = facets["price_ranges"] as? [[String: Any]] ?? []
        #expect(!categories.isEmpty)
        #expect(categories.allSatisfy { Set($0.keys) == ["id", "name", "parent_id", "count"] })
        #expect(ranges.count == 5)
        #expect(ranges.allSatisfy { Set($0.keys) == ["min_cents", "max_cents", "count"] })
        // Nulls are written, not left out: the top category's parent, the open top range's end.
        #expect(response.text.contains("\"parent_id\":null"))
        #expect(response.text.contains("\"max_cents\":null"))

        let decoded = try #require(response.facets)
        #expect(decoded.categories.map(\.name) == ["花束", "玫瑰", "百合"])
        #expect(decoded.categories.map(\.count) == [4, 2, 1])
        #expect(decoded.priceRanges.map(\.minCents) == [0, 10_000, 20_000, 30_000, 50_000])
        #expect(decoded.priceRanges.map(\.maxCents) == [9_999, 19_999, 29_999, 49_999, nil])
        #expect(decoded.priceRanges.map(\.count) == [1, 2, 0, 0, 1])
        #expect(response.total == 4)
    }

    @Test(arguments: [[:], ["q": "玫瑰"], ["q": "花"], ["min_price_cents": "10000", "max_price_cents": "19999"], ["q": "玫瑰", "min_price_cents": "15000"]])
    func clickingAChipAnswersTheCountItShowed(_ base: [String: String]) throws {
        let fixture = try facetsAPI()
        let facets = try #require(try fixture.products(base.merging(["facets": "true"]) { $1 }).facets)
        for chip in facets.categories {
            let picked = try fixture.products(base.merging(["category_id": "\(chip.id.rawValue)", "facets": "true"]) { $1 })
            #expect(picked.total == chip.count, "\(base) \(chip.name)")
            // Picking a category leaves the other categories' chips as they were.
            #expect(picked.facets?.categories.map(\.count) == facets.categories.map(\.count), "\(base) \(chip.name)")
        }
        for range in facets.priceRanges {
            var query = base.merging(["min_price_cents": "\(range.minCents)"]) { $1 }
            query["max_price_cents"] = range.maxCents.map { "\($0)" }
            #expect(try fixture.products(query).total == range.count, "\(base) \(range.minCents)")
        }
    }

    @Test(arguments: ["yes", "1", "0", "TRUE", "True", "on", "true,false", " true"])
    func aFacetsFlagOtherThanTrueOrFalseIs400NamingIt(_ value: String) throws {
        let fixture = try facetsAPI()
        let response = try fixture.products(["facets": value])
        expectError(response, 400, "validation_failed")
        #expect(response.error?.field == "facets")
    }

    @Test func aKeptBodyWithFacetsIsNeverServedForOneWithoutNorKeptPastAPriceChange() throws {
        let fixture = try facetsAPI()
        let plain = try fixture.products(["q": "玫瑰"])
        let plainTag = try #require(plain.headers["ETag"])
        let faceted = try fixture.products(["q": "玫瑰", "facets": "true"])
        let facetedTag = try #require(faceted.headers["ETag"])
        #expect(faceted.facets != nil)
        #expect(facetedTag != plainTag)
        // Each is kept under its own key: asked again, each answers its own body.
        #expect(try fixture.products(["q": "玫瑰"]).keys == ["items", "page", "per_page", "total"])
        #expect(try fixture.products(["q": "玫瑰"]).headers["ETag"] == plainTag)
        #expect(try fixture.products(["q": "玫瑰", "facets": "true"]).headers["ETag"] == facetedTag)
        #expect(try fixture.products(["q": "玫瑰", "facets": "true"], headers: [("If-None-Match", facetedTag)]).status == 304)
        #expect(try fixture.products(["q": "玫瑰"], headers: [("If-None-Match", facetedTag)]).status == 200)

        // The pink rose now costs 350.00: it leaves the first range for the fourth at once.
        try fixture.shop.pool.write { db in _ = try db.run("UPDATE skus SET price_cents = 35000 WHERE code = 'PINK-1'") }
        let repriced = try fixture.products(["q": "玫瑰", "facets": "true"], headers: [("If-None-Match", facetedTag)])
        #expect(repriced.status == 200)
        #expect(repriced.facets?.priceRanges.map(\.count) == [0, 2, 0, 1, 1])
    }
}
