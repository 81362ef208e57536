import Foundation
import HTTP
import SQL
@testable import ShopAPI
import ShopCore
import ShopTestSupport
import Testing

/// A catalogue for the API: two categories deep, a product with two SKUs, images and attributes,
/// an off-sale product and a sold-out one.
private let catalogAPICSV = """
    product_code,sku_code,sku_name,title,subtitle,category,price,original_price,stock,description,cover_url,image_urls,attributes,status
    ROSE,ROSE-11,11枝,红玫瑰花束,热恋之选,花束/玫瑰,129.00,159.00,20,"十一枝红玫瑰,一心一意",https://img.example.com/rose.jpg,https://img.example.com/rose-1.jpg|https://img.example.com/rose-2.jpg,"{""花语"":""热恋"",""stemCount"":11,""fresh"":true}",on_sale
    ROSE,ROSE-33,33枝,红玫瑰花束,热恋之选,花束/玫瑰,299,,0,,,,,on_sale
    LILY,LILY-6,6枝,香水百合,,花束/百合,88.80,,0,,,,,on_sale
    GONE,GONE-1,单枝,下架玫瑰,,花束/玫瑰,9.90,,3,,,,,off_sale
    """

/// `TestAPI` with the catalogue above imported through the public file import.
private func catalogAPI() throws -> TestAPI {
    let fixture = try TestAPI()
    let path = fixture.directory.appendingPathComponent("catalog.csv").path
    try Data(catalogAPICSV.utf8).write(to: URL(fileURLWithPath: path))
    _ = try fixture.shop.catalogImporter.importFile(at: path, options: .init())
    return fixture
}

private func productID(_ fixture: TestAPI, _ code: String) throws -> Int64 {
    guard let id = try fixture.shop.pool.read({ db in try db.scalarInt("SELECT id FROM products WHERE code = \(code)") }) else {
        throw FixtureError("no product \(code)")
    }
    return id
}

/// The titles of a page of product summaries, in order.
private func titles(_ response: TestResponse) throws -> [String] {
    try response.decode(PageResponse<ProductSummaryResponse>.self).items.map(\.title)
}

private extension TestAPI {
    func get(_ path: String, _ query: [String: String] = [:]) throws -> TestResponse {
        try send(Request(method: "GET", path: path, query: query))
    }
}

private let summaryKeys: Set<String> = ["id", "title", "subtitle", "cover_url", "cover_thumbnail_url", "price_cents", "original_price_cents", "sales", "in_stock"]

@Suite("Catalogue API: categories, products, search")
struct CatalogAPITests {
    @Test func theCategoryTreeHasNullParentsAtTheRoot() throws {
        let fixture = try catalogAPI()
        let response = try fixture.get("/api/v1/categories")
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"]?.hasPrefix("application/json") == true)
        #expect(response.keys == ["items"])
        // Every node spells out all four keys (`parent_id` included, decoding would not tell null from absent).
        #expect(response.itemKeys == [["id", "name", "parent_id", "children"]])
        // Untyped on purpose: the children's key sets, one level further down.
        let children = (response.json["items"] as? [[String: Any]])?.first?["children"] as? [[String: Any]] ?? []
        #expect(children.map { Set($0.keys) } == Array(repeating: ["id", "name", "parent_id", "children"], count: 2))
        #expect(response.text.contains("\"parent_id\":null"))
        let roots = try response.decode(ItemsResponse<CategoryResponse>.self).items
        #expect(roots.count == 1)
        let bouquets = try #require(roots.first)
        #expect(bouquets.name == "花束")
        #expect(bouquets.parentID == nil)
        #expect(bouquets.children.map(\.name) == ["玫瑰", "百合"])
        for child in bouquets.children {
            #expect(child.parentID == bouquets.id)
            #expect(child.children.isEmpty)
        }
    }

    @Test func productsAnswerAPageOfSummaries() throws {
        let fixture = try catalogAPI()
        let response = try fixture.get("/api/v1/products", ["sort": "price_desc"])
        #expect(response.status == 200)
        #expect(response.keys == ["items", "page", "per_page", "total"])
        let page = try response.decode(PageResponse<ProductSummaryResponse>.self)
        #expect(page.page == 1)
        #expect(page.perPage == 20)
        #expect(page.total == 2)
        let items = page.items
        #expect(items.count == 2)
        #expect(response.itemKeys == [summaryKeys, summaryKeys])
        let rose = try #require(items.first)
        #expect(rose.id == ProductID(try productID(fixture, "ROSE")))
        #expect(rose.title == "红玫瑰花束")
        #expect(rose.subtitle == "热恋之选")
        #expect(rose.coverURL == "https://img.example.com/rose.jpg")
        #expect(rose.priceCents == 12_900)
        #expect(rose.originalPriceCents == 15_900)
        #expect(rose.sales == 0)
        #expect(rose.inStock == true)
        let lily = try #require(items.last)
        #expect(lily.title == "香水百合")
        #expect(lily.priceCents == 8_880)
        #expect(lily.inStock == false)
        #expect(response.text.contains("\"in_stock\":false"))
    }

    @Test func pagingAndFiltersTravelThroughTheQuery() throws {
        let fixture = try catalogAPI()
        let page = try fixture.get("/api/v1/products", ["per_page": "1", "page": "2", "sort": "price_asc"])
        #expect(page.status == 200)
        let second = try page.decode(PageResponse<ProductSummaryResponse>.self)
        #expect(second.page == 2)
        #expect(second.perPage == 1)
        #expect(second.total == 2)
        #expect(second.items.map(\.title) == ["红玫瑰花束"])

        let cheap = try fixture.get("/api/v1/products", ["min_price_cents": "8880", "max_price_cents": "10000"])
        #expect(try titles(cheap) == ["香水百合"])

        let rosesID = try #require(try fixture.shop.pool.read { db in try db.scalarInt("SELECT id FROM categories WHERE path = '花束/玫瑰'") })
        let roses = try fixture.get("/api/v1/products", ["category_id": String(rosesID)])
        #expect(try titles(roses) == ["红玫瑰花束"])

        let search = try fixture.get("/api/v1/products", ["q": "玫瑰"])
        #expect(try titles(search) == ["红玫瑰花束"])
    }

    @Test func aProductPageCarriesSKUsImagesAttributesAndCategory() throws {
        let fixture = try catalogAPI()
        let id = try productID(fixture, "ROSE")
        let response = try fixture.get("/api/v1/products/\(id)")
        #expect(response.status == 200)
        #expect(response.keys == summaryKeys.union(["description", "images", "image_thumbnail_urls", "category_id", "attributes", "skus",
                                                    "favorites_count"]))
        let product = try response.decode(ProductDetailResponse.self)
        #expect(product.shared.id == ProductID(id))
        #expect(product.own.description == "十一枝红玫瑰,一心一意")
        #expect(product.own.images == ["https://img.example.com/rose-1.jpg", "https://img.example.com/rose-2.jpg"])
        // Pictures the shop did not re-encode have no smaller size: each is its own thumbnail.
        #expect(product.own.imageThumbnailURLs == product.own.images)
        let rosesID = try fixture.shop.pool.read { db in try db.scalarInt("SELECT id FROM categories WHERE path = '花束/玫瑰'") }
        #expect(product.own.categoryID.rawValue == rosesID)
        // Keys exactly as the operator wrote them: not snake_cased like the API's own fields (the raw
        // keys, since decoding would turn a `stem_count` on the wire back into `stemCount`).
        #expect(response.keys(of: "attributes") == ["花语", "stemCount", "fresh"])
        let attributes = product.own.attributes
        #expect(attributes["花语"] == .string("热恋"))
        #expect(attributes["stemCount"] == .number(11))
        #expect(attributes["fresh"] == .bool(true))
        let skus = product.own.skus
        #expect(skus.count == 2)
        #expect(response.keysOfEach("skus") == Array(repeating: ["id", "code", "name", "price_cents", "original_price_cents", "stock"], count: 2))
        #expect(skus.map(\.code) == ["ROSE-11", "ROSE-33"])
        #expect(skus.map(\.name) == ["11枝", "33枝"])
        #expect(skus.map(\.priceCents) == [12_900, 29_900])
        #expect(skus.map(\.originalPriceCents) == [15_900, 29_900])
        #expect(skus.map(\.stock) == [20, 0])
        #expect(skus.allSatisfy { $0.id.rawValue > 0 })
    }

    @Test func aProductWithoutImagesOrAttributesAnswersEmptyOnes() throws {
        let fixture = try catalogAPI()
        let response = try fixture.get("/api/v1/products/\(try productID(fixture, "LILY"))")
        #expect(response.status == 200)
        let product = try response.decode(ProductDetailResponse.self)
        #expect(product.own.images.isEmpty)
        #expect(product.own.attributes.isEmpty)
        #expect(product.shared.coverURL == "")
    }

    @Test func unknownOffSaleAndMalformedProductIDsAreNotFound() throws {
        let fixture = try catalogAPI()
        let offSale = try productID(fixture, "GONE")
        for id in ["999999", String(offSale), "abc", "0", "-1", "1.5", "99999999999999999999999"] {
            expectError(try fixture.get("/api/v1/products/\(id)"), 404, "not_found")
        }
        let list = try fixture.get("/api/v1/products")
        #expect(try !titles(list).contains("下架玫瑰"))
    }

    @Test(arguments: ["0", "101", "abc", "-5", "1.5"])
    func aBadPerPageIsAValidationError(_ perPage: String) throws {
        let fixture = try catalogAPI()
        let response = try fixture.get("/api/v1/products", ["per_page": perPage])
        expectError(response, 400, "validation_failed")
        #expect(response.error?.field == "per_page")
    }

    @Test func aBadPageSortPriceOrCategoryIsAValidationError() throws {
        let fixture = try catalogAPI()
        for (name, value) in [("page", "0"), ("page", "x"), ("sort", "bogus"), ("sort", "PRICE_ASC"), ("min_price_cents", "abc"),
                              ("max_price_cents", "1e3"), ("min_price_cents", "-1"), ("category_id", "roses")] {
            let response = try fixture.get("/api/v1/products", [name: value])
            expectError(response, 400, "validation_failed")
            #expect(response.error?.field == name, "\(name)=\(value)")
        }
        let tooLong = try fixture.get("/api/v1/products", ["q": String(repeating: "玫", count: 65)])
        expectError(tooLong, 400, "validation_failed")
        #expect(tooLong.error?.field == "q")
    }

    @Test func anUnknownCategoryIsNotFound() throws {
        let fixture = try catalogAPI()
        expectError(try fixture.get("/api/v1/products", ["category_id": "424242"]), 404, "not_found")
    }

    @Test(arguments: ["\"", "\"\"", "*", "OR", "AND", "NOT", "-", "NEAR(", "a\"b", "玫瑰\"", "%", "_", "\\", "🌹", "') OR 1=1 --"])
    func specialSearchTextAnswersAnOrdinaryPage(_ query: String) throws {
        let fixture = try catalogAPI()
        let response = try fixture.get("/api/v1/products", ["q": query])
        #expect(response.status == 200, "\(response.text)")
        #expect(response.keys == ["items", "page", "per_page", "total"])
        _ = try response.decode(PageResponse<ProductSummaryResponse>.self)
        let suggestions = try fixture.get("/api/v1/search/suggestions", ["q": query])
        #expect(suggestions.status == 200, "\(suggestions.text)")
    }

    @Test func suggestionsAnswerAListOfStrings() throws {
        let fixture = try catalogAPI()
        let response = try fixture.get("/api/v1/search/suggestions", ["q": "玫"])
        #expect(response.status == 200)
        #expect(response.keys == ["items"])
        let items = try response.decode(ItemsResponse<String>.self).items
        #expect(items.first == "玫瑰")
        #expect(items.contains("红玫瑰花束"))
        #expect(!items.contains("下架玫瑰"))
        #expect(items.count <= 10)
        let empty = try fixture.get("/api/v1/search/suggestions")
        #expect(empty.status == 200)
        #expect(try empty.decode(ItemsResponse<String>.self).items.isEmpty)
    }

    @Test func hotKeywordsAnswerKeywordsWithCounts() throws {
        let fixture = try catalogAPI()
        let before = try fixture.get("/api/v1/search/hot")
        #expect(before.status == 200)
        #expect(before.keys == ["items"])
        #expect(try before.decode(ItemsResponse<HotKeywordResponse>.self).items.isEmpty)

        for person in 1...4 { _ = try fixture.send("GET", "/api/v1/products", query: ["q": "玫瑰"], from: "10.8.0.\(person)") }
        for person in 1...3 { _ = try fixture.send("GET", "/api/v1/products", query: ["q": "百合"], from: "10.8.0.\(person)") }
        let hot = try fixture.get("/api/v1/search/hot")
        let items = try hot.decode(ItemsResponse<HotKeywordResponse>.self).items
        #expect(hot.itemKeys == [["keyword", "count"], ["keyword", "count"]])
        #expect(items.map(\.keyword) == ["玫瑰", "百合"])
        #expect(items.map(\.count) == [4, 3], "the count is of different searchers")
    }

    @Test func oneVisitorsSpamSearchesNeverReachTheHotList() throws {
        let fixture = try catalogAPI()
        for _ in 1...30 { _ = try fixture.send("GET", "/api/v1/products", query: ["q": "加微信abc123代购"], from: "203.0.113.9") }
        for _ in 1...30 { _ = try fixture.send("GET", "/api/v1/products", query: ["q": "玫瑰"], from: "203.0.113.9") }
        let token = try fixture.register("13800000001").decode(SessionResponse.self).token
        for index in 1...3 {
            _ = try fixture.send("GET", "/api/v1/products", query: ["q": "玫瑰"], token: token, from: "10.6.0.\(index)")
        }

        let hot = try fixture.get("/api/v1/search/hot")
        #expect(hot.status == 200)
        #expect(try hot.decode(ItemsResponse<HotKeywordResponse>.self).items.isEmpty, "\(hot.text)")
    }
}
