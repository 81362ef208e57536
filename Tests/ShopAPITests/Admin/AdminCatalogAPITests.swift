import Foundation
import HTTP
import SQL
@testable import ShopAPI
import ShopCore
import ShopTestSupport
import Testing

/// `/api/v1/admin/products`, `/admin/skus`, `/admin/categories` through the router, as staff use
/// them, and what buyers see right after.
@Suite("Admin: catalogue")
struct AdminCatalogAPITests {
    /// A buyer's product list or search.
    typealias Products = PageResponse<ProductSummaryResponse>

    struct Seeded {
        let app: TestAPI
        let manager: String
        let skus: [String: SKUID]
        let product: ProductID
    }

    /// A manager's token and two products: `花束A` (SKUs A1 ¥10, A2 ¥20) and `花束B` (SKU B1 ¥30).
    static func seeded() throws -> Seeded {
        let app = try TestAPI()
        let skus = try app.testShop.cartSeed([CartCatalogRow(product: "A", sku: "A1", price: "10.00", stock: 5),
                                              CartCatalogRow(product: "A", sku: "A2", price: "20.00", stock: 5),
                                              CartCatalogRow(product: "B", sku: "B1", price: "30.00", stock: 5)])
        let product = try #require(try app.shop.pool.read { db in try db.scalar("SELECT id FROM products WHERE code = 'A'", as: ProductID.self) })
        return Seeded(app: app, manager: try app.staffToken(.manager), skus: skus, product: product)
    }

    /// Every catalogue row and the number of audit rows: "nothing was written" compares two of these.
    static func state(_ app: TestAPI) throws -> [[[SQLValue]]] {
        try app.shop.pool.read { db in
            try ["categories", "products", "skus", "product_images", "coupons", "audit_log"].map { try TestDatabase.rows(of: $0, db).rows }
        }
    }

    @Test func aPriceStockTitleAndStatusEditShowsInBuyersListsPagesAndSearchAtOnce() throws {
        let s = try Self.seeded()
        let app = s.app
        let sku = try #require(s.skus["A1"])
        // Warm every kept response: the list, the page, a search.
        let list = try app.send("GET", "/api/v1/products")
        let etag = try #require(list.headers["ETag"])
        #expect(try app.send("GET", "/api/v1/products", headers: [("If-None-Match", etag)]).status == 304)
        #expect(try app.send("GET", "/api/v1/products/\(s.product)").decode(ProductDetailResponse.self).shared.priceCents == 1_000)
        #expect(try app.send("GET", "/api/v1/products", query: ["q": "花束A"]).decode(Products.self).total == 1)

        let patched = try app.send("PATCH", "/api/v1/admin/skus/\(sku)", json: ["price_cents": 850, "stock_delta": -2], token: s.manager)
        #expect(patched.status == 200, "\(patched.text)")
        let update = try patched.decode(AdminSKUUpdateResponse.self)
        #expect(update.priceCents == 850 && update.stock == 3)
        #expect(try app.send("GET", "/api/v1/products", headers: [("If-None-Match", etag)]).status == 200)
        let page = try app.send("GET", "/api/v1/products/\(s.product)").decode(ProductDetailResponse.self)
        #expect(page.shared.priceCents == 850)
        #expect(page.own.skus.first { $0.id == sku }?.stock == 3)
        let items = try app.send("GET", "/api/v1/products").decode(Products.self).items
        #expect(items.first { $0.id == s.product }?.priceCents == 850)

        let renamed = try app.send("PATCH", "/api/v1/admin/products/\(s.product)", json: ["title": "郁金香礼盒"], token: s.manager)
        #expect(renamed.status == 200, "\(renamed.text)")
        #expect(try app.send("GET", "/api/v1/products", query: ["q": "郁金香"]).decode(Products.self).items.first?.title == "郁金香礼盒")
        #expect(try app.send("GET", "/api/v1/products", query: ["q": "花束A"]).decode(Products.self).total == 0)
        #expect(try app.send("GET", "/api/v1/products/\(s.product)").decode(ProductDetailResponse.self).shared.title == "郁金香礼盒")

        // One SKU off sale: its product stays, with the other SKU, priced and stocked by it alone.
        let off = try app.send("PATCH", "/api/v1/admin/skus/\(sku)", json: ["status": "off_sale"], token: s.manager)
        #expect(off.status == 200, "\(off.text)")
        let offSKU = try off.decode(AdminSKUUpdateResponse.self)
        #expect(offSKU.status == .offSale && offSKU.productStatus == .onSale)
        let remaining = try app.send("GET", "/api/v1/products/\(s.product)").decode(ProductDetailResponse.self)
        #expect(remaining.own.skus.map(\.id) == [try #require(s.skus["A2"])] && remaining.shared.priceCents == 2_000)
        #expect(try app.send("GET", "/api/v1/products").decode(Products.self).items.first { $0.id == s.product }?.priceCents == 2_000)
        let buyer = try app.token(for: "13800138111")
        let refused = try app.send("POST", "/api/v1/cart/items", json: ["sku_id": sku.rawValue, "quantity": 1], token: buyer)
        #expect(refused.status == 404, "\(refused.text)")
        #expect(try app.send("POST", "/api/v1/cart/items", json: ["sku_id": s.skus["A2"]!.rawValue, "quantity": 1], token: buyer).status == 201)
        // The whole product off sale: gone from buyers' pages, lists and search.
        let productOff = try app.send("PATCH", "/api/v1/admin/products/\(s.product)", json: ["status": "off_sale"], token: s.manager)
        #expect(productOff.status == 200, "\(productOff.text)")
        #expect(try app.send("GET", "/api/v1/products/\(s.product)").status == 404)
        #expect(try app.send("GET", "/api/v1/products").decode(Products.self).total == 1)
        #expect(try app.send("GET", "/api/v1/products", query: ["q": "郁金香"]).decode(Products.self).total == 0)
        // Staff still see it, off sale.
        let staffView = try app.send("GET", "/api/v1/admin/products", query: ["status": "off_sale"], token: s.manager)
        let staffItems = try staffView.decode(PageResponse<AdminProductResponse>.self).items
        #expect(staffItems.map(\.status) == [.offSale], "\(staffView.text)")
        #expect(staffItems.first?.skus.map(\.status) == [.onSale, .offSale] || staffItems.first?.skus.map(\.status) == [.offSale, .onSale])
    }

    @Test func everyWriteIsAuditedWithTheStaffMemberTheRequestAndBothSnapshots() throws {
        let s = try Self.seeded()
        // Untyped on purpose: a request body.
        let created = try s.app.send("POST", "/api/v1/admin/products", json: [
            "code": "C", "title": "向日葵", "category_id": try s.app.shop.catalogAdmin.category(path: "花束/玫瑰").id.rawValue,
            "skus": [["code": "C1", "name": "3枝", "price_cents": 5_900, "stock": 9]],
        ] as [String: Any], token: s.manager, headers: [("X-Request-Id", "req-create-1")])
        #expect(created.status == 201, "\(created.text)")
        let product = try created.decode(AdminProductResponse.self)
        #expect(product.status == .onSale && product.skus.count == 1)
        let sku = try #require(s.skus["B1"])
        #expect(try s.app.send("PATCH", "/api/v1/admin/skus/\(sku)", json: ["stock": 40], token: s.manager).status == 200)
        let entries = try s.app.shop.audit.entries(AuditFilter(staff: "manager"), page: try PageRequest()).items
        #expect(entries.map(\.action) == ["sku.update", "product.create"])
        #expect(entries.last?.requestID == "req-create-1" && entries.last?.before == nil)
        #expect(entries.first?.target == "sku:\(sku)")
        #expect(entries.first?.before?.contains("\"stock\":5") == true && entries.first?.after?.contains("\"stock\":40") == true)
    }

    @Test func badInputIsRefusedInTheErrorShapeAndWritesNothing() throws {
        let s = try Self.seeded()
        let app = s.app
        let sku = try #require(s.skus["A1"])
        let category = try app.shop.catalogAdmin.category(path: "花束/玫瑰").id.rawValue
        let before = try Self.state(app)
        // Untyped on purpose: request bodies, some ill-typed, null or with unknown fields.
        let product: (String, [String: Any]) -> [String: Any] = { code, sku in
            ["code": code, "title": "新品", "category_id": category, "skus": [sku]]
        }
        let cases: [(String, String, [String: Any], Int, String)] = [
            ("PATCH", "/api/v1/admin/skus/\(sku)", ["price_cents": -1], 400, "validation_failed"),
            ("PATCH", "/api/v1/admin/skus/\(sku)", ["price_cents": 12.5], 400, "validation_failed"),
            ("PATCH", "/api/v1/admin/skus/\(sku)", ["price_cents": 100_000_000_000_000], 400, "validation_failed"),
            ("PATCH", "/api/v1/admin/skus/\(sku)", ["stock": -3], 400, "validation_failed"),
            ("PATCH", "/api/v1/admin/skus/\(sku)", ["price_cents": 1, "stock_delta": -6], 409, "stock_below_zero"),
            ("PATCH", "/api/v1/admin/skus/\(sku)", ["stock": 1, "stock_delta": 1], 400, "validation_failed"),
            ("PATCH", "/api/v1/admin/skus/\(sku)", ["price": 100], 400, "unknown_field"),
            ("PATCH", "/api/v1/admin/skus/\(sku)", ["status": "sold"], 400, "validation_failed"),
            ("PATCH", "/api/v1/admin/products/\(s.product)", ["category_id": 99_999], 422, "unknown_category"),
            ("PATCH", "/api/v1/admin/products/\(s.product)", ["code": "B"], 409, "code_taken"),
            ("PATCH", "/api/v1/admin/products/\(s.product)", ["title": NSNull()], 400, "validation_failed"),
            ("POST", "/api/v1/admin/products", product("A", ["code": "N1", "name": "", "price_cents": 100, "stock": 1]), 409, "code_taken"),
            ("POST", "/api/v1/admin/products", product("N", ["code": "A1", "name": "", "price_cents": 100, "stock": 1]), 409, "code_taken"),
            ("POST", "/api/v1/admin/products", product("N", ["code": "N1", "name": "", "price_cents": 100, "stock": 1, "colour": "红"]),
             400, "unknown_field"),
            ("POST", "/api/v1/admin/products", ["code": "N", "title": "新品", "category_id": 99_999,
                                                 "skus": [["code": "N1", "name": "", "price_cents": 100, "stock": 1]]], 422, "unknown_category"),
            ("POST", "/api/v1/admin/categories", ["name": "玫瑰", "parent_id": try app.shop.catalogAdmin.category(path: "花束").id.rawValue],
             409, "category_exists"),
            ("PATCH", "/api/v1/admin/categories/\(try app.shop.catalogAdmin.category(path: "花束").id)",
             ["parent_id": category], 422, "category_cycle"),
            ("DELETE", "/api/v1/admin/categories/\(category)", [:], 409, "category_not_empty"),
        ]
        for (method, path, body, status, code) in cases {
            let response = try app.send(method, path, json: method == "DELETE" ? nil : body, token: s.manager)
            #expect(response.status == status && response.errorCode == code, "\(method) \(path) \(body): \(response.status) \(response.text)")
            #expect(response.error != nil, "in the error shape")
        }
        #expect(try Self.state(app) == before)
    }

    @Test func rolesWithoutCatalogueWriteMayReadButNotEdit() throws {
        let s = try Self.seeded()
        let florist = try s.app.staffToken(.florist)
        let sku = try #require(s.skus["A1"])
        #expect(try s.app.send("GET", "/api/v1/admin/products/\(s.product)", token: florist).status == 200)
        let refused = try s.app.send("PATCH", "/api/v1/admin/skus/\(sku)", json: ["stock": 0], token: florist)
        #expect(refused.status == 403 && refused.errorCode == "forbidden")
        #expect(try s.app.shop.catalogAdmin.product(s.product).skus.first { $0.id == sku }?.stock == 5)
    }

    @Test func categoriesAreCreatedRenamedMovedAndDeletedAndTheTreeShowsIt() throws {
        let s = try Self.seeded()
        let app = s.app
        let created = try app.send("POST", "/api/v1/admin/categories", json: ["name": "郁金相"], token: s.manager)
        #expect(created.status == 201, "\(created.text)")
        let category = try created.decode(AdminCategoryResponse.self)
        #expect(category.path == "郁金相")
        let id = category.id
        let tree = try app.send("GET", "/api/v1/categories")
        #expect(tree.text.contains("郁金相"))
        let bouquets = try app.shop.catalogAdmin.category(path: "花束").id.rawValue
        let moved = try app.send("PATCH", "/api/v1/admin/categories/\(id)", json: ["name": "郁金香", "parent_id": bouquets], token: s.manager)
        #expect(moved.status == 200, "\(moved.text)")
        #expect(try moved.decode(AdminCategoryResponse.self).path == "花束/郁金香")
        let renamedTree = try app.send("GET", "/api/v1/categories")
        #expect(renamedTree.text.contains("郁金香") && !renamedTree.text.contains("郁金相"))
        let top = try app.send("PATCH", "/api/v1/admin/categories/\(id)", json: ["parent_id": NSNull()], token: s.manager)
        #expect(top.status == 200, "\(top.text)")
        // `parent_id` is an `ExplicitNull`: it decodes only when the key is there, so nil means an explicit null.
        let topCategory = try top.decode(AdminCategoryResponse.self)
        #expect(topCategory.path == "郁金香" && topCategory.parentID == nil)
        #expect(try app.send("DELETE", "/api/v1/admin/categories/\(id)", token: s.manager).status == 204)
        #expect(!(try app.send("GET", "/api/v1/categories").text.contains("郁金香")))
        let listed = try app.send("GET", "/api/v1/admin/categories", token: s.manager)
        #expect(try listed.decode(ItemsResponse<AdminCategoryResponse>.self).items.map(\.path).sorted() == ["花束", "花束/玫瑰"])
    }
}
