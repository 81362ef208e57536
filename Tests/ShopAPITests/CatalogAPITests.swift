import Foundation
import HTTP
import SQL
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
        #expect(Set(response.json.keys) == ["items"])
        let roots = try #require(response.json["items"] as? [[String: Any]])
        #expect(roots.count == 1)
        let bouquets = try #require(roots.first)
        #expect(Set(bouquets.keys) == ["id", "name", "parent_id", "children"])
        #expect(bouquets["name"] as? String == "花束")
        #expect(bouquets["parent_id"] is NSNull)
        let rootID = try #require(bouquets["id"] as? Int)
        let children = try #require(bouquets["children"] as? [[String: Any]])
        #expect(children.map { $0["name"] as? String } == ["玫瑰", "百合"])
        for child in children {
            #expect(Set(child.keys) == ["id", "name", "parent_id", "children"])
            #expect(child["parent_id"] as? Int == rootID)
            #expect((child["children"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func productsAnswerAPageOfSummaries() throws {
        let fixture = try catalogAPI()
        let response = try fixture.get("/api/v1/products", ["sort": "price_desc"])
        #expect(response.status == 200)
        #expect(Set(response.json.keys) == ["items", "page", "per_page", "total"])
        #expect(response.json["page"] as? Int == 1)
        #expect(response.json["per_page"] as? Int == 20)
        #expect(response.json["total"] as? Int == 2)
        let items = try #require(response.json["items"] as? [[String: Any]])
        #expect(items.count == 2)
        for item in items { #expect(Set(item.keys) == summaryKeys) }
        let rose = try #require(items.first)
        #expect(rose["id"] as? Int == Int(try productID(fixture, "ROSE")))
        #expect(rose["title"] as? String == "红玫瑰花束")
        #expect(rose["subtitle"] as? String == "热恋之选")
        #expect(rose["cover_url"] as? String == "https://img.example.com/rose.jpg")
        #expect(rose["price_cents"] as? Int == 12_900)
        #expect(rose["original_price_cents"] as? Int == 15_900)
        #expect(rose["sales"] as? Int == 0)
        #expect(rose["in_stock"] as? Bool == true)
        let lily = try #require(items.last)
        #expect(lily["title"] as? String == "香水百合")
        #expect(lily["price_cents"] as? Int == 8_880)
        #expect(lily["in_stock"] as? Bool == false)
        #expect(response.text.contains("\"in_stock\":false"))
    }

    @Test func pagingAndFiltersTravelThroughTheQuery() throws {
        let fixture = try catalogAPI()
        let page = try fixture.get("/api/v1/products", ["per_page": "1", "page": "2", "sort": "price_asc"])
        #expect(page.status == 200)
        #expect(page.json["page"] as? Int == 2)
        #expect(page.json["per_page"] as? Int == 1)
        #expect(page.json["total"] as? Int == 2)
        #expect((page.json["items"] as? [[String: Any]])?.map { $0["title"] as? String } == ["红玫瑰花束"])

        let cheap = try fixture.get("/api/v1/products", ["min_price_cents": "8880", "max_price_cents": "10000"])
        #expect((cheap.json["items"] as? [[String: Any]])?.map { $0["title"] as? String } == ["香水百合"])

        let rosesID = try #require(try fixture.shop.pool.read { db in try db.scalarInt("SELECT id FROM categories WHERE path = '花束/玫瑰'") })
        let roses = try fixture.get("/api/v1/products", ["category_id": String(rosesID)])
        #expect((roses.json["items"] as? [[String: Any]])?.map { $0["title"] as? String } == ["红玫瑰花束"])

        let search = try fixture.get("/api/v1/products", ["q": "玫瑰"])
        #expect((search.json["items"] as? [[String: Any]])?.map { $0["title"] as? String } == ["红玫瑰花束"])
    }

    @Test func aProductPageCarriesSKUsImagesAttributesAndCategory() throws {
        let fixture = try catalogAPI()
        let id = try productID(fixture, "ROSE")
        let response = try fixture.get("/api/v1/products/\(id)")
        #expect(response.status == 200)
        let body = response.json
        #expect(Set(body.keys) == summaryKeys.union(["description", "images", "category_id", "attributes", "skus", "favorites_count"]))
        #expect(body["id"] as? Int == Int(id))
        #expect(body["description"] as? String == "十一枝红玫瑰,一心一意")
        #expect(body["images"] as? [String] == ["https://img.example.com/rose-1.jpg", "https://img.example.com/rose-2.jpg"])
        let rosesID = try fixture.shop.pool.read { db in try db.scalarInt("SELECT id FROM categories WHERE path = '花束/玫瑰'") }
        #expect((body["category_id"] as? Int).map(Int64.init) == rosesID)
        let attributes = try #require(body["attributes"] as? [String: Any])
        // Keys exactly as the operator wrote them: not snake_cased like the API's own fields.
        #expect(Set(attributes.keys) == ["花语", "stemCount", "fresh"])
        #expect(attributes["花语"] as? String == "热恋")
        #expect(attributes["stemCount"] as? Int == 11)
        #expect(attributes["fresh"] as? Bool == true)
        let skus = try #require(body["skus"] as? [[String: Any]])
        #expect(skus.count == 2)
        for sku in skus { #expect(Set(sku.keys) == ["id", "code", "name", "price_cents", "original_price_cents", "stock"]) }
        #expect(skus.map { $0["code"] as? String } == ["ROSE-11", "ROSE-33"])
        #expect(skus.map { $0["name"] as? String } == ["11枝", "33枝"])
        #expect(skus.map { $0["price_cents"] as? Int } == [12_900, 29_900])
        #expect(skus.map { $0["original_price_cents"] as? Int } == [15_900, 29_900])
        #expect(skus.map { $0["stock"] as? Int } == [20, 0])
        #expect(skus.allSatisfy { ($0["id"] as? Int ?? 0) > 0 })
    }

    @Test func aProductWithoutImagesOrAttributesAnswersEmptyOnes() throws {
        let fixture = try catalogAPI()
        let response = try fixture.get("/api/v1/products/\(try productID(fixture, "LILY"))")
        #expect(response.status == 200)
        #expect((response.json["images"] as? [Any])?.isEmpty == true)
        #expect((response.json["attributes"] as? [String: Any])?.isEmpty == true)
        #expect(response.json["cover_url"] as? String == "")
    }

    @Test func unknownOffSaleAndMalformedProductIDsAreNotFound() throws {
        let fixture = try catalogAPI()
        let offSale = try productID(fixture, "GONE")
        for id in ["999999", String(offSale), "abc", "0", "-1", "1.5", "99999999999999999999999"] {
            expectError(try fixture.get("/api/v1/products/\(id)"), 404, "not_found")
        }
        let list = try fixture.get("/api/v1/products")
        #expect(!((list.json["items"] as? [[String: Any]]) ?? []).contains { $0["title"] as? String == "下架玫瑰" })
    }

    @Test(arguments: ["0", "101", "abc", "-5", "1.5"])
    func aBadPerPageIsAValidationError(_ perPage: String) throws {
        let fixture = try catalogAPI()
        let response = try fixture.get("/api/v1/products", ["per_page": perPage])
        expectError(response, 400, "validation_failed")
        #expect(response.error["field"] as? String == "per_page")
    }

    @Test func aBadPageSortPriceOrCategoryIsAValidationError() throws {
        let fixture = try catalogAPI()
        for (name, value) in [("page", "0"), ("page", "x"), ("sort", "bogus"), ("sort", "PRICE_ASC"), ("min_price_cents", "abc"),
                              ("max_price_cents", "1e3"), ("min_price_cents", "-1"), ("category_id", "roses")] {
            let response = try fixture.get("/api/v1/products", [name: value])
            expectError(response, 400, "validation_failed")
            #expect(response.error["field"] as? String == name, "\(name)=\(value)")
        }
        let tooLong = try fixture.get("/api/v1/products", ["q": String(repeating: "玫", count: 65)])
        expectError(tooLong, 400, "validation_failed")
        #expect(tooLong.error["field"] as? String == "q")
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
        #expect(Set(response.json.keys) == ["items", "page", "per_page", "total"])
        let suggestions = try fixture.get("/api/v1/search/suggestions", ["q": query])
        #expect(suggestions.status == 200, "\(suggestions.text)")
    }

    @Test func suggestionsAnswerAListOfStrings() throws {
        let fixture = try catalogAPI()
        let response = try fixture.get("/api/v1/search/suggestions", ["q": "玫"])
        #expect(response.status == 200)
        #expect(Set(response.json.keys) == ["items"])
        let items = try #require(response.json["items"] as? [String])
        #expect(items.first == "玫瑰")
        #expect(items.contains("红玫瑰花束"))
        #expect(!items.contains("下架玫瑰"))
        #expect(items.count <= 10)
        let empty = try fixture.get("/api/v1/search/suggestions")
        #expect(empty.status == 200)
        #expect((empty.json["items"] as? [Any])?.isEmpty == true)
    }

    @Test func hotKeywordsAnswerKeywordsWithCounts() throws {
        let fixture = try catalogAPI()
        let before = try fixture.get("/api/v1/search/hot")
        #expect(before.status == 200)
        #expect(Set(before.json.keys) == ["items"])
        #expect((before.json["items"] as? [Any])?.isEmpty == true)

        for person in 1...4 { _ = try fixture.send("GET", "/api/v1/products", query: ["q": "玫瑰"], from: "10.8.0.\(person)") }
        for person in 1...3 { _ = try fixture.send("GET", "/api/v1/products", query: ["q": "百合"], from: "10.8.0.\(person)") }
        let hot = try fixture.get("/api/v1/search/hot")
        let items = try #require(hot.json["items"] as? [[String: Any]])
        for item in items { #expect(Set(item.keys) == ["keyword", "count"]) }
        #expect(items.map { $0["keyword"] as? String } == ["玫瑰", "百合"])
        #expect(items.map { $0["count"] as? Int } == [4, 3], "the count is of different searchers")
    }

    @Test func oneVisitorsSpamSearchesNeverReachTheHotList() throws {
        let fixture = try catalogAPI()
        for _ in 1...30 { _ = try fixture.send("GET", "/api/v1/products", query: ["q": "加微信abc123代购"], from: "203.0.113.9") }
        for _ in 1...30 { _ = try fixture.send("GET", "/api/v1/products", query: ["q": "玫瑰"], from: "203.0.113.9") }
        let session = try fixture.register("13800000001")
        let token = try #require(session["token"] as? String)
        for index in 1...3 {
            _ = try fixture.send("GET", "/api/v1/products", query: ["q": "玫瑰"], token: token, from: "10.6.0.\(index)")
        }

        let hot = try fixture.get("/api/v1/search/hot")
        #expect(hot.status == 200)
        #expect((hot.json["items"] as? [Any])?.isEmpty == true, "\(hot.text)")
    }
}
