import Foundation
import HTTP
import SQL
@testable import ShopAPI
@testable import ShopCore
import ShopTestSupport
import Testing

private extension TestAPI {
    /// Imports one product per code (`status` on_sale or off_sale); answers product ids by code.
    func favoriteSeed(_ products: [(code: String, status: String)]) throws -> [String: Int64] {
        let header = "product_code,sku_code,sku_name,title,subtitle,category,price,original_price,stock,description,"
            + "cover_url,image_urls,attributes,status"
        let lines = products.map { ["\($0.code)", "\($0.code)-1", "标准", "花束\($0.code)", "", "花束/玫瑰", "52.00", "", "3",
                                    "", "", "", "", $0.status].joined(separator: ",") }
        let outcome = try shop.catalogImporter.importData(Array(([header] + lines).joined(separator: "\n").utf8) + [10],
                                                          format: .csv, options: .init())
        guard outcome.issues.isEmpty else { throw FixtureError("seed rejected: \(outcome.issues)") }
        return try shop.pool.read { db in
            var ids: [String: Int64] = [:]
            for row in try db.query("SELECT id, code FROM products") { ids[try row.string("code")] = try row.int64("id") }
            return ids
        }
    }

    func publishArticle(_ title: String, authorPhone: String) throws -> Int64 {
        if try shop.pool.read({ db in try db.scalarInt("SELECT COUNT(*) FROM users WHERE phone = \(authorPhone)") }) == 0 {
            _ = try register(authorPhone)
            try shop.moderation.setAuthor(true, phone: authorPhone, by: .commandLine(user: "test"))
        }
        let author = try #require(try shop.pool.read { db in try db.scalarInt("SELECT id FROM users WHERE phone = \(authorPhone)") })
        clock.advance(by: 60)
        return try shop.articles.publish(ArticleDraft(title: title, content: "<p>正文</p>"), by: UserID(author)).id.rawValue
    }
}

private func productIDs(_ response: TestResponse) throws -> [Int64] {
    try response.decode(PageResponse<ProductSummaryResponse>.self).items.map(\.id.rawValue)
}

private func articleIDs(_ response: TestResponse) throws -> [Int64] {
    try response.decode(PageResponse<ArticleResponse>.self).items.map(\.id.rawValue)
}

private typealias ProductFavorite = FavoriteController.ProductFavoriteResponse
private typealias ArticleFavorite = FavoriteController.ArticleFavoriteResponse

private extension TestResponse {
    var productFavorite: ProductFavorite? { try? decode(ProductFavorite.self) }
    var articleFavorite: ArticleFavorite? { try? decode(ArticleFavorite.self) }
    var product: ProductDetailResponse? { try? decode(ProductDetailResponse.self) }
    var article: ArticleResponse? { try? decode(ArticleResponse.self) }
}

@Suite("Favourites (收藏): products and articles")
struct FavoriteAPITests {
    @Test func keepingAProductIsIdempotentAndItsCountMovesOncePerUser() throws {
        let app = try TestAPI()
        let product = try #require(try app.favoriteSeed([("ROSE", "on_sale")])["ROSE"])
        let alice = try app.token(for: "13900000031")
        let bob = try app.token(for: "13900000032")
        for _ in 0..<2 {
            let kept = try app.send("PUT", "/api/v1/favorites/products/\(product)", token: alice)
            #expect(kept.status == 200, "\(kept.text)")
            #expect(kept.productFavorite?.isFavorite == true && kept.productFavorite?.favoritesCount == 1)
        }
        #expect(try app.send("PUT", "/api/v1/favorites/products/\(product)", token: bob).productFavorite?.favoritesCount == 2)
        for _ in 0..<2 {
            let released = try app.send("DELETE", "/api/v1/favorites/products/\(product)", token: alice)
            #expect(released.status == 200)
            #expect(released.productFavorite?.isFavorite == false && released.productFavorite?.favoritesCount == 1)
        }
        #expect(try app.send("GET", "/api/v1/products/\(product)").product?.own.favoritesCount == 1)
    }

    @Test func keepingAProductMovesNoCatalogueVersionAndItsPageShowsTheNewCountWithinTheCountersAge() throws {
        let app = try TestAPI()
        let product = try #require(try app.favoriteSeed([("ROSE", "on_sale"), ("LILY", "on_sale")])["ROSE"])
        let alice = try app.token(for: "13900000041")
        let page = try app.send("GET", "/api/v1/products/\(product)")
        #expect(page.product?.own.favoritesCount == 0)
        _ = try app.send("GET", "/api/v1/products")
        let changes = CatalogChanges()
        let before = try app.shop.pool.read { db in try changes.version(db) }

        #expect(try app.send("PUT", "/api/v1/favorites/products/\(product)", token: alice).productFavorite?.favoritesCount == 1)
        #expect(try app.shop.pool.read { db in try changes.version(db) } == before, "a click moves no list's or tree's version")
        let etag = try #require(page.headers["ETag"])
        #expect(try app.send("GET", "/api/v1/products/\(product)", headers: [("If-None-Match", etag)]).status == 304,
                "a click does not empty the kept page")
        app.clock.advance(by: Double(CatalogController.countersMaxAge.components.seconds) + 1)
        #expect(try app.send("GET", "/api/v1/products/\(product)", headers: [("If-None-Match", etag)]).status == 304,
                "an old kept page is served while it is read again")
        app.api.keptBodies.settle()
        let kept = try app.send("GET", "/api/v1/products/\(product)", headers: [("If-None-Match", etag)])
        #expect(kept.status == 200 && kept.product?.own.favoritesCount == 1, "the kept page is read again once its counters are old")

        #expect(try app.send("DELETE", "/api/v1/favorites/products/\(product)", token: alice).productFavorite?.favoritesCount == 0)
        #expect(try app.shop.pool.read { db in try changes.version(db) } == before)
        app.clock.advance(by: Double(CatalogController.countersMaxAge.components.seconds) + 1)
        _ = try app.send("GET", "/api/v1/products/\(product)")
        app.api.keptBodies.settle()
        #expect(try app.send("GET", "/api/v1/products/\(product)").product?.own.favoritesCount == 0)
    }

    @Test func racingRequestsKeepAProductOnceAndCountEveryUserOnce() throws {
        let app = try TestAPI()
        let product = try #require(try app.favoriteSeed([("ROSE", "on_sale")])["ROSE"])
        let tokens = try (0..<4).map { try app.token(for: "1390000010\($0)") }
        race(16) { i in _ = try? app.send("PUT", "/api/v1/favorites/products/\(product)", token: tokens[i % 4]) }
        #expect(try app.send("GET", "/api/v1/products/\(product)").product?.own.favoritesCount == 4)
        let rows = try app.shop.pool.read { db in try db.scalarInt("SELECT COUNT(*) FROM product_favorites") }
        #expect(rows == 4)
    }

    @Test func theListIsTheCallersOwnNewestFirstPagedAndWithoutOffSaleProducts() throws {
        let app = try TestAPI()
        let products = try app.favoriteSeed([("A", "on_sale"), ("B", "on_sale"), ("C", "on_sale")])
        let alice = try app.token(for: "13900000041")
        let bob = try app.token(for: "13900000042")
        for code in ["B", "A", "C"] {
            app.clock.advance(by: 10)
            #expect(try app.send("PUT", "/api/v1/favorites/products/\(try #require(products[code]))", token: alice).status == 200)
        }
        let list = try app.send("GET", "/api/v1/favorites/products", token: alice)
        #expect(try productIDs(list) == ["C", "A", "B"].compactMap { products[$0] })
        #expect(try list.decode(PageResponse<ProductSummaryResponse>.self).total == 3)
        let second = try app.send("GET", "/api/v1/favorites/products", query: ["page": "2", "per_page": "2"], token: alice)
        #expect(try productIDs(second) == [try #require(products["B"])])
        #expect(try productIDs(try app.send("GET", "/api/v1/favorites/products", token: bob)).isEmpty,
                "another user's favourites are not shown")

        _ = try app.favoriteSeed([("A", "off_sale")])
        let after = try app.send("GET", "/api/v1/favorites/products", token: alice)
        #expect(try productIDs(after) == ["C", "B"].compactMap { products[$0] })
        // Taken off sale: it cannot be kept again, but it can still be let go.
        let offSale = try #require(products["A"])
        expectError(try app.send("PUT", "/api/v1/favorites/products/\(offSale)", token: bob), 404, "not_found")
        #expect(try app.send("DELETE", "/api/v1/favorites/products/\(offSale)", token: alice).status == 200)
        expectError(try app.send("PUT", "/api/v1/favorites/products/999999", token: alice), 404, "not_found")
        expectError(try app.send("DELETE", "/api/v1/favorites/products/999999", token: alice), 404, "not_found")
        expectError(try app.send("GET", "/api/v1/favorites/products"), 401, "unauthorized")
    }

    @Test func anArticleIsKeptShownAsFavouriteToItsReaderAndListed() throws {
        let app = try TestAPI()
        let first = try app.publishArticle("插花入门", authorPhone: "13800000051")
        let second = try app.publishArticle("多肉养护", authorPhone: "13800000051")
        let reader = try app.token(for: "13900000052")
        #expect(try app.send("PUT", "/api/v1/favorites/articles/\(first)", token: reader).articleFavorite?.isFavorite == true)
        app.clock.advance(by: 10)
        #expect(try app.send("PUT", "/api/v1/favorites/articles/\(second)", token: reader).status == 200)
        #expect(try app.send("PUT", "/api/v1/favorites/articles/\(second)", token: reader).status == 200)

        #expect(try app.send("GET", "/api/v1/articles/\(first)", token: reader).article?.isFavorite == true)
        let anonymous = try app.send("GET", "/api/v1/articles/\(first)")
        #expect(anonymous.status == 200 && !anonymous.keys.contains("is_favorite"), "left out for an anonymous reader")
        #expect(try articleIDs(try app.send("GET", "/api/v1/favorites/articles", token: reader)) == [second, first])

        #expect(try app.send("DELETE", "/api/v1/favorites/articles/\(first)", token: reader).articleFavorite?.isFavorite == false)
        #expect(try app.send("GET", "/api/v1/articles/\(first)", token: reader).article?.isFavorite == false)
        #expect(try articleIDs(try app.send("GET", "/api/v1/favorites/articles", token: reader)) == [second])
        expectError(try app.send("PUT", "/api/v1/favorites/articles/999999", token: reader), 404, "not_found")
    }

    @Test func aUserKeepsAtMostTheLimitOfEachKind() throws {
        let app = try TestAPI()
        let products = try app.favoriteSeed([("A", "on_sale"), ("B", "on_sale"), ("C", "on_sale")])
        let user = try app.testShop.register("13900000061").user.id
        let favorites = FavoriteService(pool: app.shop.pool, clock: app.clock.clock, maxPerKind: 2)
        for code in ["A", "B"] { _ = try favorites.add(product: ProductID(try #require(products[code])), by: user) }
        _ = try favorites.add(product: ProductID(try #require(products["A"])), by: user)  // already kept: no new one
        let third = ProductID(try #require(products["C"]))
        #expect(throws: FavoriteError.limitReached(max: 2)) { try favorites.add(product: third, by: user) }
        let mapped = try #require(ErrorMapping.map(FavoriteError.limitReached(max: 2)))
        #expect(mapped.status == .unprocessableEntity)
        #expect(mapped.code == "favorites_limit_exceeded")
    }
}
