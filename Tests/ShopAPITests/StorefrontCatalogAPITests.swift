import Foundation
import HTTP
@testable import ShopAPI
import ShopTestSupport
import Testing

/// A product whose SKUs are discounted differently (and one that is not discounted at all).
private let discountedCSV = """
    product_code,sku_code,sku_name,title,subtitle,category,price,original_price,stock,description,cover_url,image_urls,attributes,status
    ROSE,ROSE-11,11枝,红玫瑰花束,,花束/玫瑰,159.00,199.00,20,,,,,on_sale
    ROSE,ROSE-19,19枝,红玫瑰花束,,花束/玫瑰,239.00,299.00,20,,,,,on_sale
    ROSE,ROSE-33,33枝,红玫瑰花束,,花束/玫瑰,399.00,,20,,,,,on_sale
    """

private func discountedShop() throws -> TestAPI {
    let app = try TestAPI()
    let path = app.directory.appendingPathComponent("discounted.csv").path
    try Data(discountedCSV.utf8).write(to: URL(fileURLWithPath: path))
    _ = try app.shop.catalogImporter.importFile(at: path, options: .init())
    return app
}

/// What the storefront needs from the catalogue beyond the basics: each SKU's own list price and a
/// clear refusal of a price range that holds nothing.
@Suite("Catalogue answers the storefront relies on")
struct StorefrontCatalogAPITests {
    @Test func eachSKUCarriesItsOwnOriginalPrice() throws {
        let app = try discountedShop()
        let id = try #require(try app.send("GET", "/api/v1/products").decode(PageResponse<ProductSummaryResponse>.self).items.first?.id)
        let page = try app.send("GET", "/api/v1/products/\(id)")
        let skus = try page.decode(ProductDetailResponse.self).own.skus
        #expect(skus.map(\.name) == ["11枝", "19枝", "33枝"])
        #expect(skus.map(\.priceCents) == [15_900, 23_900, 39_900])
        // An empty original_price means "not discounted": the list price is the price.
        #expect(skus.map(\.originalPriceCents) == [19_900, 29_900, 39_900])
        #expect(page.keysOfEach("skus") == Array(repeating: ["id", "code", "name", "price_cents", "original_price_cents", "stock"], count: 3))
    }

    @Test func aPriceRangeWithTheMinimumAboveTheMaximumIs400() throws {
        let app = try discountedShop()
        let refused = try app.send("GET", "/api/v1/products", query: ["min_price_cents": "30000", "max_price_cents": "10000"])
        expectError(refused, 400, "validation_failed")
        #expect(refused.error?.field == "min_price_cents")
        let equal = try app.send("GET", "/api/v1/products", query: ["min_price_cents": "15900", "max_price_cents": "15900"])
        #expect(equal.status == 200)
        #expect(try equal.decode(PageResponse<ProductSummaryResponse>.self).total == 1)
        #expect(try app.send("GET", "/api/v1/products", query: ["min_price_cents": "30000"]).status == 200)
    }
}
