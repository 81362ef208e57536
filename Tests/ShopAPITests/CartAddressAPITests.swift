import Foundation
import HTTP
@testable import ShopAPI
import ShopCore
import ShopTestSupport
import Testing

extension TestAPI {
    /// Imports `rows` as the cart service tests do (`TestShop.cartSeed`) and answers every SKU id by code.
    @discardableResult
    func cartSeed(_ rows: [CartCatalogRow]) throws -> [String: Int] {
        try testShop.cartSeed(rows).mapValues { Int($0.rawValue) }
    }

    /// Signs a new user up through the services (code captured, then register); answers the token and id.
    func cartSignUp(_ phone: String) throws -> (token: String, id: Int) {
        _ = try shop.verification.requestCode(phone: phone, purpose: .register, clientIP: "10.0.0.9")
        guard let code = sender.lastCode(to: phone, for: "register") else { throw FixtureError("no code sent to \(phone)") }
        let session = try shop.accounts.register(phone: phone, code: code,
                                                 credential: Credential(passwordMD5: nil, password: TestAPI.password), nickname: nil, clientIP: "10.0.0.1")
        return (session.token, Int(session.user.id.rawValue))
    }
}

/// A valid address body; override what a test is about (untyped: tests also send ill-typed and extra fields).
func cartAddressBody(_ recipient: String = "王小花", _ changes: [String: Any] = [:]) -> [String: Any] {
    var body: [String: Any] = ["recipient": recipient, "phone": "13800138000", "province": "浙江省", "city": "杭州市",
                               "district": "西湖区", "detail": "人民路1号", "postal_code": "310000"]
    for (key, value) in changes { body[key] = value }
    return body
}

@Suite("API: /cart and /addresses")
struct CartAddressAPITests {
    static let cartKeys: Set<String> = ["items", "total_quantity", "selected_quantity", "selected_total_cents",
                                          "discount_cents", "coupon",
                                          // the checkout preview's delivery (`?address_id=`, issue 32)
                                          "delivery_fee_cents", "total_cents", "delivery_zone", "more_for_free_delivery_cents"]
    static let lineKeys: Set<String> = ["id", "sku_id", "product_id", "title", "sku_name", "cover_url", "cover_thumbnail_url", "price_cents", "quantity",
                                        "selected", "available", "stock"]
    static let addressKeys: Set<String> = ["id", "recipient", "phone", "province", "city", "district", "detail", "postal_code",
                                           "is_default", "region_code"]

    /// An API over a small catalogue and two signed-up users, A and B.
    struct World {
        let app: TestAPI
        let skus: [String: Int]
        let a: (token: String, id: Int)
        let b: (token: String, id: Int)

        init(_ configure: (inout Config) -> Void = { _ in }) throws {
            app = try TestAPI(configure)
            skus = try app.cartSeed([
                CartCatalogRow(product: "FL-A", sku: "A-1", price: "12.50"),
                CartCatalogRow(product: "FL-A", sku: "A-2", price: "20.00"),
                CartCatalogRow(product: "FL-B", sku: "B-1", price: "99.99"),
                CartCatalogRow(product: "FL-LOW", sku: "LOW-1", price: "5.00", stock: 3),
                CartCatalogRow(product: "FL-OFF", sku: "OFF-1", status: "off_sale"),
            ])
            a = try app.cartSignUp("13800138000")
            b = try app.cartSignUp("13900139000")
        }

        func sku(_ code: String) throws -> Int { try #require(skus[code]) }

        func skuID(_ code: String) throws -> SKUID { SKUID(Int64(try sku(code))) }

        func send(_ method: String, _ path: String, json: Any? = nil, token: String?) throws -> TestResponse {
            try app.send(method, "/api/v1" + path, json: json, token: token)
        }

        /// Adds to A's cart and answers the new cart.
        @discardableResult
        func add(_ code: String, _ quantity: Int, token: String? = nil) throws -> CartResponse {
            let response = try send("POST", "/cart/items", json: ["sku_id": try sku(code), "quantity": quantity], token: token ?? a.token)
            try #require(response.status == 201, "\(response.text)")
            return try response.decode(CartResponse.self)
        }

        func cart(_ token: String) throws -> TestResponse { try send("GET", "/cart", token: token) }

        /// The cart `token` sees, decoded.
        func shownCart(_ token: String) throws -> CartResponse { try cart(token).decode(CartResponse.self) }

        func lineID(_ cart: CartResponse, sku code: String) throws -> CartItemID {
            let skuID = try skuID(code)
            return try #require(cart.items.first { $0.skuID == skuID }?.id)
        }

        /// Creates an address for `token` and answers it.
        // Untyped on purpose: a request body (tests also send ill-typed, null and extra fields).
        func createAddress(_ body: [String: Any], token: String) throws -> AddressResponse {
            let response = try send("POST", "/addresses", json: body, token: token)
            try #require(response.status == 201, "\(response.text)")
            return try response.decode(AddressResponse.self)
        }

        func addresses(_ token: String) throws -> [AddressResponse] {
            let response = try send("GET", "/addresses", token: token)
            try #require(response.status == 200, "\(response.text)")
            return try response.decode(ItemsResponse<AddressResponse>.self).items
        }
    }

    // MARK: Cart shape and basics

    @Test func theCartHasExactlyTheDocumentedShape() throws {
        let world = try World()
        let added = try world.send("POST", "/cart/items", json: ["sku_id": try world.sku("A-2"), "quantity": 2], token: world.a.token)
        #expect(added.status == 201)
        #expect(added.headers["Content-Type"]?.hasPrefix("application/json") == true)
        #expect(added.keys == Self.cartKeys)
        let cart = try added.decode(CartResponse.self)
        let items = cart.items
        let line = try #require(items.first)
        #expect(items.count == 1)
        #expect(added.itemKeys == [Self.lineKeys])
        #expect(try line.skuID == world.skuID("A-2"))
        #expect(line.title == "花束FL-A")
        #expect(line.skuName == "规格A-2")
        #expect(line.coverURL == "https://img.floral.example/FL-A.jpg")
        #expect(line.coverThumbnailURL == "https://img.floral.example/FL-A.jpg", "a URL the shop did not re-encode is its own thumbnail")
        #expect(line.priceCents == 2_000)
        #expect(line.quantity == 2)
        #expect(line.selected == true)
        #expect(line.available == true)
        #expect(line.stock == 200)
        #expect(cart.totalQuantity == 2)
        #expect(cart.selectedQuantity == 2)
        #expect(cart.selectedTotalCents == 4_000)
        #expect(added.text.contains("\"selected\":true"))
        #expect(added.text.contains("\"available\":true"))
        // GET answers the same cart.
        let shown = try world.cart(world.a.token)
        #expect(shown.status == 200)
        #expect(shown.text == added.text)
        // The product id is the SKU's product.
        let product = try world.send("GET", "/products/\(line.productID)", token: nil).decode(ProductDetailResponse.self)
        #expect(product.own.skus.contains { $0.id == line.skuID })
    }

    @Test func anEmptyCartHasZeroTotals() throws {
        let world = try World()
        let cart = try world.cart(world.a.token)
        #expect(cart.status == 200)
        #expect(cart.keys == Self.cartKeys)
        let empty = try cart.decode(CartResponse.self)
        #expect(empty.items.isEmpty)
        #expect(empty.totalQuantity == 0)
        #expect(empty.selectedQuantity == 0)
        #expect(empty.selectedTotalCents == 0)
    }

    @Test func addingTheSameSKUTwiceMergesIntoOneLine() throws {
        let world = try World()
        let first = try world.add("A-1", 2)
        let second = try world.add("A-1", 3)
        #expect(second.items.count == 1)
        #expect(second.items.first?.quantity == 5)
        #expect(try world.lineID(first, sku: "A-1") == world.lineID(second, sku: "A-1"))
        #expect(second.totalQuantity == 5)
    }

    // MARK: Quantities

    // Untyped on purpose: a request body (tests also send ill-typed, null and extra fields).
    static var badAddQuantities: [(String, Any?)] { [
        ("0", 0), ("-1", -1), ("100", 100), ("1.5", 1.5), ("\"3\"", "3"), ("null", NSNull()), ("missing", nil), ("true", true),
    ] }

    @Test(arguments: 0..<8)
    func everyBadQuantityOnAddIsA400AndLeavesTheCartUnchanged(index: Int) throws {
        let (name, quantity) = Self.badAddQuantities[index]
        let world = try World()
        try world.add("A-1", 2)
        let before = try world.cart(world.a.token).text
        // Untyped on purpose: a request body (tests also send ill-typed, null and extra fields).
        var body: [String: Any] = ["sku_id": try world.sku("A-1")]
        if let quantity { body["quantity"] = quantity }
        let response = try world.send("POST", "/cart/items", json: body, token: world.a.token)
        expectError(response, 400, "validation_failed")
        #expect(response.status == 400, "quantity \(name)")
        #expect(try world.cart(world.a.token).text == before, "quantity \(name)")
    }

    static var badPatchQuantities: [(String, Any)] { [("0", 0), ("-1", -1), ("100", 100), ("1.5", 1.5), ("\"3\"", "3"), ("true", true)] }

    @Test(arguments: 0..<6)
    func everyBadQuantityOnUpdateIsA400AndLeavesTheCartUnchanged(index: Int) throws {
        let (name, quantity) = Self.badPatchQuantities[index]
        let world = try World()
        let line = try world.lineID(try world.add("A-1", 2), sku: "A-1")
        let before = try world.cart(world.a.token).text
        let response = try world.send("PATCH", "/cart/items/\(line)", json: ["quantity": quantity, "selected": false], token: world.a.token)
        expectError(response, 400, "validation_failed")
        #expect(response.status == 400, "quantity \(name)")
        #expect(try world.cart(world.a.token).text == before, "quantity \(name)")
    }

    @Test func aBadSKUIdIsA400() throws {
        let world = try World()
        // Untyped on purpose: a request body (tests also send ill-typed, null and extra fields).
        for body in [["quantity": 1], ["sku_id": "1", "quantity": 1], ["sku_id": NSNull(), "quantity": 1]] as [[String: Any]] {
            let response = try world.send("POST", "/cart/items", json: body, token: world.a.token)
            expectError(response, 400, "validation_failed")
        }
    }

    // MARK: The cap

    @Test func theCapErrorIsExactlyTheFloralClientsMessage() throws {
        let world = try World()
        try world.add("A-1", 98)
        let full = try world.add("B-1", 1)
        #expect(full.totalQuantity == 99)
        let before = try world.cart(world.a.token).text

        let refused = try world.send("POST", "/cart/items", json: ["sku_id": try world.sku("A-2"), "quantity": 1], token: world.a.token)
        expectError(refused, 422, "cart_limit_exceeded")
        #expect(refused.status == 422)
        #expect(refused.errorCode == "cart_limit_exceeded")
        #expect(refused.error?.message == "亲，企业采购请联系我们客服")
        #expect(refused.text.contains("亲，企业采购请联系我们客服"))
        #expect(try world.cart(world.a.token).text == before)

        // Merging into an existing line past the cap, and raising a line, are refused the same way.
        let merge = try world.send("POST", "/cart/items", json: ["sku_id": try world.sku("A-1"), "quantity": 1], token: world.a.token)
        expectError(merge, 422, "cart_limit_exceeded")
        let line = try world.lineID(full, sku: "B-1")
        let raise = try world.send("PATCH", "/cart/items/\(line)", json: ["quantity": 2], token: world.a.token)
        expectError(raise, 422, "cart_limit_exceeded")
        #expect(raise.error?.message == "亲，企业采购请联系我们客服")
        #expect(try world.cart(world.a.token).text == before)
    }

    @Test func theCapFollowsConfig() throws {
        let world = try World { $0.cart.maxItems = 5 }
        try world.add("A-1", 5)
        let refused = try world.send("POST", "/cart/items", json: ["sku_id": try world.sku("B-1"), "quantity": 1], token: world.a.token)
        expectError(refused, 422, "cart_limit_exceeded")
        #expect(try world.shownCart(world.a.token).totalQuantity == 5)
    }

    // MARK: Stock and sale status

    @Test func addingMoreThanTheStockIsA409OutOfStock() throws {
        let world = try World()
        let response = try world.send("POST", "/cart/items", json: ["sku_id": try world.sku("LOW-1"), "quantity": 4], token: world.a.token)
        expectError(response, 409, "out_of_stock")
        #expect(try world.shownCart(world.a.token).items.isEmpty)
        let cart = try world.add("LOW-1", 3)
        let line = try world.lineID(cart, sku: "LOW-1")
        #expect(try world.send("POST", "/cart/items", json: ["sku_id": try world.sku("LOW-1"), "quantity": 1], token: world.a.token).status == 409)
        expectError(try world.send("PATCH", "/cart/items/\(line)", json: ["quantity": 4], token: world.a.token), 409, "out_of_stock")
    }

    @Test func anOffSaleOrUnknownSKUIsA404() throws {
        let world = try World()
        expectError(try world.send("POST", "/cart/items", json: ["sku_id": try world.sku("OFF-1"), "quantity": 1], token: world.a.token),
                    404, "not_found")
        expectError(try world.send("POST", "/cart/items", json: ["sku_id": 999_999, "quantity": 1], token: world.a.token), 404, "not_found")
        #expect(try world.shownCart(world.a.token).items.isEmpty)
    }

    @Test func aLineThatWentOffSaleOrShortOfStockIsUnavailableAndLeftOutOfTheSelectedTotal() throws {
        let world = try World()
        try world.add("A-1", 2)
        try world.add("B-1", 1)
        try world.add("LOW-1", 3)
        #expect(try world.shownCart(world.a.token).selectedTotalCents == 2 * 1_250 + 9_999 + 3 * 500)

        try world.app.cartSeed([CartCatalogRow(product: "FL-B", sku: "B-1", price: "99.99", status: "off_sale"),
                                CartCatalogRow(product: "FL-LOW", sku: "LOW-1", price: "5.00", stock: 2)])
        let cart = try world.shownCart(world.a.token)
        let bySKU = Dictionary(uniqueKeysWithValues: cart.items.map { ($0.skuID, $0) })
        #expect(bySKU[try world.skuID("B-1")]?.available == false)
        #expect(bySKU[try world.skuID("LOW-1")]?.available == false)
        #expect(bySKU[try world.skuID("LOW-1")]?.stock == 2)
        #expect(bySKU[try world.skuID("A-1")]?.available == true)
        #expect(cart.selectedTotalCents == 2 * 1_250)
        #expect(cart.totalQuantity == 6)
    }

    // MARK: Select, remove, empty

    @Test func selectingAndDeselectingChangesTheSelectedTotals() throws {
        let world = try World()
        try world.add("A-1", 2)
        let cart = try world.add("B-1", 3)
        let line = try world.lineID(cart, sku: "B-1")
        let deselected = try world.send("PATCH", "/cart/items/\(line)", json: ["selected": false], token: world.a.token)
        #expect(deselected.status == 200)
        #expect(deselected.keys == Self.cartKeys)
        let without = try deselected.decode(CartResponse.self)
        #expect(without.selectedQuantity == 2)
        #expect(without.selectedTotalCents == 2_500)
        #expect(without.totalQuantity == 5)
        let reselected = try world.send("PATCH", "/cart/items/\(line)", json: ["selected": true], token: world.a.token)
            .decode(CartResponse.self)
        #expect(reselected.selectedQuantity == 5)
        #expect(reselected.selectedTotalCents == 2_500 + 3 * 9_999)
        let changed = try world.send("PATCH", "/cart/items/\(line)", json: ["quantity": 1], token: world.a.token)
        #expect(changed.status == 200)
        #expect(try changed.decode(CartResponse.self).totalQuantity == 3)
    }

    @Test func removingALineAndEmptyingTheCart() throws {
        let world = try World()
        try world.add("A-1", 2)
        let cart = try world.add("B-1", 3)
        let line = try world.lineID(cart, sku: "B-1")
        let removed = try world.send("DELETE", "/cart/items/\(line)", token: world.a.token)
        #expect(removed.status == 200)
        #expect(try removed.decode(CartResponse.self).items.map(\.skuID) == [world.skuID("A-1")])
        expectError(try world.send("DELETE", "/cart/items/\(line)", token: world.a.token), 404, "not_found")

        let emptied = try world.send("DELETE", "/cart", token: world.a.token)
        #expect(emptied.status == 200)
        #expect(emptied.keys == Self.cartKeys)
        let nothing = try emptied.decode(CartResponse.self)
        #expect(nothing.items.isEmpty)
        #expect(nothing.totalQuantity == 0)
        #expect(try world.shownCart(world.a.token).items.isEmpty)
    }

    // MARK: Ownership and authentication

    @Test func anotherUsersCartLineIsA404OnEveryRouteAndUntouched() throws {
        let world = try World()
        try world.add("A-1", 2)
        let line = try world.lineID(try world.add("B-1", 3), sku: "B-1")
        let before = try world.cart(world.a.token).text
        let attempts: [(String, Any?)] = [
            ("PATCH", ["quantity": 1]), ("PATCH", ["selected": false]), ("PATCH", ["quantity": 5, "selected": false]), ("DELETE", nil),
        ]
        for (method, body) in attempts {
            let response = try world.send(method, "/cart/items/\(line)", json: body, token: world.b.token)
            expectError(response, 404, "not_found")
        }
        // B emptying their own cart does not reach A's.
        #expect(try world.send("DELETE", "/cart", token: world.b.token).status == 200)
        #expect(try world.cart(world.a.token).text == before)
        #expect(try world.shownCart(world.b.token).items.isEmpty)
    }

    @Test func anotherUsersAddressIsA404OnEveryRouteAndUntouched() throws {
        let world = try World()
        let address = try world.createAddress(cartAddressBody(), token: world.a.token)
        _ = try world.createAddress(cartAddressBody("李四"), token: world.a.token)
        let id = address.own.id
        let before = try world.send("GET", "/addresses", token: world.a.token).text
        let attempts: [(String, String, Any?)] = [
            ("GET", "/addresses/\(id)", nil),
            ("PATCH", "/addresses/\(id)", ["recipient": "坏人", "is_default": true]),
            ("DELETE", "/addresses/\(id)", nil),
            ("POST", "/addresses/\(id)/default", nil),
        ]
        for (method, path, body) in attempts {
            expectError(try world.send(method, path, json: body, token: world.b.token), 404, "not_found")
        }
        #expect(try world.send("GET", "/addresses", token: world.a.token).text == before)
        #expect(try world.addresses(world.b.token).isEmpty)
        #expect(try world.send("GET", "/addresses/\(id)", token: world.a.token).status == 200)
    }

    static var signedInRoutes: [(String, String, Any?)] { [
        ("GET", "/cart", nil), ("DELETE", "/cart", nil), ("POST", "/cart/items", ["sku_id": 1, "quantity": 1]),
        ("PATCH", "/cart/items/1", ["quantity": 1]), ("DELETE", "/cart/items/1", nil),
        ("GET", "/addresses", nil), ("POST", "/addresses", cartAddressBody()), ("GET", "/addresses/1", nil),
        ("PATCH", "/addresses/1", ["city": "宁波市"]), ("DELETE", "/addresses/1", nil), ("POST", "/addresses/1/default", nil),
    ] }

    @Test func everyCartAndAddressRouteNeedsAValidToken() throws {
        let world = try World()
        try world.add("A-1", 2)
        _ = try world.createAddress(cartAddressBody(), token: world.a.token)
        let cartBefore = try world.cart(world.a.token).text
        let addressesBefore = try world.send("GET", "/addresses", token: world.a.token).text
        for (method, path, body) in Self.signedInRoutes {
            for token in [nil, "not-a-token", world.a.token + "x"] as [String?] {
                let response = try world.send(method, path, json: body, token: token)
                expectError(response, 401, "unauthorized")
                #expect(response.status == 401, "\(method) \(path) with \(token ?? "no token")")
            }
        }
        // A signed-out token no longer works either.
        let session = try world.app.cartSignUp("13700137000")
        #expect(try world.send("POST", "/auth/logout", token: session.token).status < 300)
        expectError(try world.cart(session.token), 401, "unauthorized")
        #expect(try world.cart(world.a.token).text == cartBefore)
        #expect(try world.send("GET", "/addresses", token: world.a.token).text == addressesBefore)
    }

    @Test func ownerFieldsInABodyAreIgnored() throws {
        let world = try World()
        let bAddress = try world.createAddress(cartAddressBody("李四"), token: world.b.token)
        let bID = bAddress.own.id
        let created = try world.send("POST", "/addresses",
                                     json: cartAddressBody("王小花", ["id": bID.rawValue, "user_id": world.b.id, "is_default": false,
                                                                     "created_at": 0]),
                                     token: world.a.token)
        #expect(created.status == 201, "\(created.text)")
        #expect(created.keys == Self.addressKeys)
        let id = try created.decode(AddressResponse.self).own.id
        #expect(id != bID)
        #expect(try created.decode(AddressResponse.self).own.isDefault == true)
        #expect(try world.addresses(world.a.token).map(\.own.id) == [id])
        // B's address is still B's alone, unchanged.
        #expect(try world.addresses(world.b.token).map(\.shared.recipient) == ["李四"])
        expectError(try world.send("GET", "/addresses/\(id)", token: world.b.token), 404, "not_found")

        // The same on update, and on the cart.
        let patched = try world.send("PATCH", "/addresses/\(id)", json: ["id": bID.rawValue, "user_id": world.b.id, "city": "宁波市"],
                                     token: world.a.token)
        #expect(patched.status == 200)
        #expect(try patched.decode(AddressResponse.self).own.id == id)
        #expect(try world.addresses(world.b.token).map(\.shared.city) == ["杭州市"])
        let added = try world.send("POST", "/cart/items", json: ["sku_id": try world.sku("A-1"), "quantity": 2, "user_id": world.b.id,
                                                               "price_cents": 1, "id": 1],
                                   token: world.a.token)
        #expect(added.status == 201)
        #expect(try added.decode(CartResponse.self).selectedTotalCents == 2_500)
        #expect(try world.shownCart(world.b.token).items.isEmpty)
        let line = try world.lineID(try added.decode(CartResponse.self), sku: "A-1")
        let changed = try world.send("PATCH", "/cart/items/\(line)", json: ["sku_id": try world.sku("B-1"), "price_cents": 1, "quantity": 3],
                                     token: world.a.token)
        #expect(changed.status == 200)
        let items = try changed.decode(CartResponse.self).items
        #expect(items.count == 1)
        #expect(try items.first?.skuID == world.skuID("A-1"))
        #expect(items.first?.priceCents == 1_250)
        #expect(items.first?.quantity == 3)
    }

    // MARK: Addresses

    @Test func theAddressHasExactlyTheDocumentedShape() throws {
        let world = try World()
        let response = try world.send("POST", "/addresses", json: cartAddressBody(), token: world.a.token)
        #expect(response.status == 201)
        #expect(response.keys == Self.addressKeys)
        let address = try response.decode(AddressResponse.self)
        #expect(address.shared.recipient == "王小花")
        #expect(address.shared.phone == "13800138000")
        #expect(address.shared.province == "浙江省")
        #expect(address.shared.city == "杭州市")
        #expect(address.shared.district == "西湖区")
        #expect(address.shared.detail == "人民路1号")
        #expect(address.shared.postalCode == "310000")
        #expect(address.own.isDefault == true)
        #expect(response.text.contains("\"is_default\":true"))

        // Without a postal code the key is still there, as null.
        var body = cartAddressBody("李四")
        body["postal_code"] = nil
        let second = try world.send("POST", "/addresses", json: body, token: world.a.token)
        #expect(second.keys == Self.addressKeys)
        let withoutCode = try second.decode(AddressResponse.self)
        #expect(withoutCode.shared.postalCode == nil)
        #expect(withoutCode.own.isDefault == false)

        let id = address.own.id
        let shown = try world.send("GET", "/addresses/\(id)", token: world.a.token)
        #expect(shown.status == 200)
        #expect(shown.text == response.text)
        let list = try world.send("GET", "/addresses", token: world.a.token)
        #expect(list.keys.contains("items"))
        let items = try list.decode(ItemsResponse<AddressResponse>.self).items
        #expect(items.count == 2)
        #expect(list.itemKeys == [Self.addressKeys, Self.addressKeys])
        #expect(items.first?.own.id == id)
    }

    @Test func theDefaultMovesWithCreateSetDefaultAndDelete() throws {
        let world = try World()
        let token = world.a.token
        func defaults() throws -> [AddressID] {
            try world.addresses(token).filter(\.own.isDefault).map(\.own.id)
        }
        let first = try world.createAddress(cartAddressBody("甲"), token: token).own.id
        #expect(try defaults() == [first])
        world.app.clock.advance(by: 10)
        let second = try world.createAddress(cartAddressBody("乙", ["is_default": true]), token: token).own.id
        #expect(try defaults() == [second])
        world.app.clock.advance(by: 10)
        let third = try world.createAddress(cartAddressBody("丙"), token: token).own.id
        #expect(try defaults() == [second])

        let made = try world.send("POST", "/addresses/\(first)/default", token: token)
        #expect(made.status == 200)
        #expect(made.keys == Self.addressKeys)
        #expect(try made.decode(AddressResponse.self).own.isDefault == true)
        #expect(try defaults() == [first])

        // Second is edited last: deleting the default promotes it over the newer third.
        world.app.clock.advance(by: 10)
        #expect(try world.send("PATCH", "/addresses/\(second)", json: ["detail": "人民路9号"], token: token).status == 200)
        let deleted = try world.send("DELETE", "/addresses/\(first)", token: token)
        #expect(deleted.status == 204 || deleted.status == 200)
        #expect(try defaults() == [second])
        expectError(try world.send("GET", "/addresses/\(first)", token: token), 404, "not_found")
        #expect(try world.send("DELETE", "/addresses/\(second)", token: token).status < 300)
        #expect(try defaults() == [third])
    }

    @Test func theTwentyFirstAddressIsA422() throws {
        let world = try World()
        for index in 1...20 { _ = try world.createAddress(cartAddressBody("第\(index)"), token: world.a.token) }
        let before = try world.send("GET", "/addresses", token: world.a.token).text
        let refused = try world.send("POST", "/addresses", json: cartAddressBody("第21", ["is_default": true]), token: world.a.token)
        expectError(refused, 422, "address_limit_exceeded")
        #expect(try world.send("GET", "/addresses", token: world.a.token).text == before)
    }

    static var badAddressFields: [(String, Any)] { [
        ("recipient", ""), ("recipient", String(repeating: "花", count: 21)), ("detail", String(repeating: "路", count: 121)),
        ("phone", "12345"), ("postal_code", "12ab56"),
    ] }

    @Test(arguments: 0..<5)
    func aFieldPastItsLimitIsA400NamingIt(index: Int) throws {
        let (field, value) = Self.badAddressFields[index]
        let world = try World()
        let created = try world.send("POST", "/addresses", json: cartAddressBody("王小花", [field: value]), token: world.a.token)
        expectError(created, 400, "validation_failed")
        #expect(created.error?.field == field)
        #expect(try world.addresses(world.a.token).isEmpty)

        let id = try world.createAddress(cartAddressBody(), token: world.a.token).own.id
        let before = try world.send("GET", "/addresses/\(id)", token: world.a.token).text
        let patched = try world.send("PATCH", "/addresses/\(id)", json: [field: value], token: world.a.token)
        expectError(patched, 400, "validation_failed")
        #expect(patched.error?.field == field)
        #expect(try world.send("GET", "/addresses/\(id)", token: world.a.token).text == before)
    }

    @Test func aFieldOfTheWrongTypeIsA400() throws {
        let world = try World()
        for (field, value) in [("recipient", 123), ("is_default", "yes"), ("phone", 13_800_138_000)] as [(String, Any)] {
            let response = try world.send("POST", "/addresses", json: cartAddressBody("王小花", [field: value]), token: world.a.token)
            expectError(response, 400, "validation_failed")
            #expect(response.error?.field == field)
        }
        #expect(try world.addresses(world.a.token).isEmpty)
    }

    @Test func patchingOneFieldKeepsTheOthers() throws {
        let world = try World()
        let created = try world.createAddress(cartAddressBody(), token: world.a.token)
        let id = created.own.id
        let response = try world.send("PATCH", "/addresses/\(id)", json: ["city": "宁波市"], token: world.a.token)
        #expect(response.status == 200)
        #expect(response.keys == Self.addressKeys)
        let patched = try response.decode(AddressResponse.self)
        #expect(patched.own.id == created.own.id)
        #expect(patched.own.isDefault == created.own.isDefault)
        #expect(patched.shared.recipient == created.shared.recipient)
        #expect(patched.shared.phone == created.shared.phone)
        #expect(patched.shared.province == created.shared.province)
        #expect(patched.shared.district == created.shared.district)
        #expect(patched.shared.detail == created.shared.detail)
        #expect(patched.shared.postalCode == created.shared.postalCode)
        #expect(patched.shared.city == "宁波市")
        #expect(try world.send("GET", "/addresses/\(id)", token: world.a.token).text == response.text)
    }
}
