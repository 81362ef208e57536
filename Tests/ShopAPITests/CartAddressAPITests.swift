import Foundation
import HTTP
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

/// A valid address body; override what a test is about.
func cartAddressBody(_ recipient: String = "王小花", _ changes: [String: Any] = [:]) -> [String: Any] {
    var body: [String: Any] = ["recipient": recipient, "phone": "13800138000", "province": "浙江省", "city": "杭州市",
                               "district": "西湖区", "detail": "人民路1号", "postal_code": "310000"]
    for (key, value) in changes { body[key] = value }
    return body
}

@Suite("API: /cart and /addresses")
struct CartAddressAPITests {
    static let cartKeys: Set<String> = ["items", "total_quantity", "selected_quantity", "selected_total_cents",
                                          "discount_cents", "coupon"]
    static let lineKeys: Set<String> = ["id", "sku_id", "product_id", "title", "sku_name", "cover_url", "cover_thumbnail_url", "price_cents", "quantity",
                                        "selected", "available", "stock"]
    static let addressKeys: Set<String> = ["id", "recipient", "phone", "province", "city", "district", "detail", "postal_code",
                                           "is_default"]

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

        func send(_ method: String, _ path: String, json: Any? = nil, token: String?) throws -> TestResponse {
            try app.send(method, "/api/v1" + path, json: json, token: token)
        }

        /// Adds to A's cart and answers the new cart.
        @discardableResult
        func add(_ code: String, _ quantity: Int, token: String? = nil) throws -> [String: Any] {
            let response = try send("POST", "/cart/items", json: ["sku_id": try sku(code), "quantity": quantity], token: token ?? a.token)
            try #require(response.status == 201, "\(response.text)")
            return response.json
        }

        func cart(_ token: String) throws -> TestResponse { try send("GET", "/cart", token: token) }

        func lineID(_ cart: [String: Any], sku code: String) throws -> Int {
            let items = try #require(cart["items"] as? [[String: Any]])
            let skuID = try sku(code)
            return try #require(items.first { $0["sku_id"] as? Int == skuID }?["id"] as? Int)
        }

        /// Creates an address for `token` and answers it.
        func createAddress(_ body: [String: Any], token: String) throws -> [String: Any] {
            let response = try send("POST", "/addresses", json: body, token: token)
            try #require(response.status == 201, "\(response.text)")
            return response.json
        }

        func addresses(_ token: String) throws -> [[String: Any]] {
            let response = try send("GET", "/addresses", token: token)
            try #require(response.status == 200, "\(response.text)")
            return try #require(response.json["items"] as? [[String: Any]])
        }
    }

    // MARK: Cart shape and basics

    @Test func theCartHasExactlyTheDocumentedShape() throws {
        let world = try World()
        let added = try world.send("POST", "/cart/items", json: ["sku_id": try world.sku("A-2"), "quantity": 2], token: world.a.token)
        #expect(added.status == 201)
        #expect(added.headers["Content-Type"]?.hasPrefix("application/json") == true)
        let cart = added.json
        #expect(Set(cart.keys) == Self.cartKeys)
        let items = try #require(cart["items"] as? [[String: Any]])
        let line = try #require(items.first)
        #expect(items.count == 1)
        #expect(Set(line.keys) == Self.lineKeys)
        #expect(line["id"] as? Int != nil)
        #expect(try line["sku_id"] as? Int == world.sku("A-2"))
        #expect(line["product_id"] as? Int != nil)
        #expect(line["title"] as? String == "花束FL-A")
        #expect(line["sku_name"] as? String == "规格A-2")
        #expect(line["cover_url"] as? String == "https://img.floral.example/FL-A.jpg")
        #expect(line["cover_thumbnail_url"] as? String == "https://img.floral.example/FL-A.jpg", "a URL the shop did not re-encode is its own thumbnail")
        #expect(line["price_cents"] as? Int == 2_000)
        #expect(line["quantity"] as? Int == 2)
        #expect(line["selected"] as? Bool == true)
        #expect(line["available"] as? Bool == true)
        #expect(line["stock"] as? Int == 200)
        #expect(cart["total_quantity"] as? Int == 2)
        #expect(cart["selected_quantity"] as? Int == 2)
        #expect(cart["selected_total_cents"] as? Int == 4_000)
        #expect(added.text.contains("\"selected\":true"))
        #expect(added.text.contains("\"available\":true"))
        // GET answers the same cart.
        let shown = try world.cart(world.a.token)
        #expect(shown.status == 200)
        #expect(shown.text == added.text)
        // The product id is the SKU's product.
        let product = try world.send("GET", "/products/\(try #require(line["product_id"] as? Int))", token: nil)
        #expect((product.json["skus"] as? [[String: Any]])?.contains { $0["id"] as? Int == line["sku_id"] as? Int } == true)
    }

    @Test func anEmptyCartHasZeroTotals() throws {
        let world = try World()
        let cart = try world.cart(world.a.token)
        #expect(cart.status == 200)
        #expect(Set(cart.json.keys) == Self.cartKeys)
        #expect((cart.json["items"] as? [Any])?.isEmpty == true)
        #expect(cart.json["total_quantity"] as? Int == 0)
        #expect(cart.json["selected_quantity"] as? Int == 0)
        #expect(cart.json["selected_total_cents"] as? Int == 0)
    }

    @Test func addingTheSameSKUTwiceMergesIntoOneLine() throws {
        let world = try World()
        let first = try world.add("A-1", 2)
        let second = try world.add("A-1", 3)
        let items = try #require(second["items"] as? [[String: Any]])
        #expect(items.count == 1)
        #expect(items.first?["quantity"] as? Int == 5)
        #expect(try world.lineID(first, sku: "A-1") == world.lineID(second, sku: "A-1"))
        #expect(second["total_quantity"] as? Int == 5)
    }

    // MARK: Quantities

    static var badAddQuantities: [(String, Any?)] { [
        ("0", 0), ("-1", -1), ("100", 100), ("1.5", 1.5), ("\"3\"", "3"), ("null", NSNull()), ("missing", nil), ("true", true),
    ] }

    @Test(arguments: 0..<8)
    func everyBadQuantityOnAddIsA400AndLeavesTheCartUnchanged(index: Int) throws {
        let (name, quantity) = Self.badAddQuantities[index]
        let world = try World()
        try world.add("A-1", 2)
        let before = try world.cart(world.a.token).text
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
        #expect(full["total_quantity"] as? Int == 99)
        let before = try world.cart(world.a.token).text

        let refused = try world.send("POST", "/cart/items", json: ["sku_id": try world.sku("A-2"), "quantity": 1], token: world.a.token)
        expectError(refused, 422, "cart_limit_exceeded")
        #expect(refused.status == 422)
        #expect(refused.errorCode == "cart_limit_exceeded")
        #expect(refused.error["message"] as? String == "亲，企业采购请联系我们客服")
        #expect(refused.text.contains("亲，企业采购请联系我们客服"))
        #expect(try world.cart(world.a.token).text == before)

        // Merging into an existing line past the cap, and raising a line, are refused the same way.
        let merge = try world.send("POST", "/cart/items", json: ["sku_id": try world.sku("A-1"), "quantity": 1], token: world.a.token)
        expectError(merge, 422, "cart_limit_exceeded")
        let line = try world.lineID(full, sku: "B-1")
        let raise = try world.send("PATCH", "/cart/items/\(line)", json: ["quantity": 2], token: world.a.token)
        expectError(raise, 422, "cart_limit_exceeded")
        #expect(raise.error["message"] as? String == "亲，企业采购请联系我们客服")
        #expect(try world.cart(world.a.token).text == before)
    }

    @Test func theCapFollowsConfig() throws {
        let world = try World { $0.cart.maxItems = 5 }
        try world.add("A-1", 5)
        let refused = try world.send("POST", "/cart/items", json: ["sku_id": try world.sku("B-1"), "quantity": 1], token: world.a.token)
        expectError(refused, 422, "cart_limit_exceeded")
        #expect(try world.cart(world.a.token).json["total_quantity"] as? Int == 5)
    }

    // MARK: Stock and sale status

    @Test func addingMoreThanTheStockIsA409OutOfStock() throws {
        let world = try World()
        let response = try world.send("POST", "/cart/items", json: ["sku_id": try world.sku("LOW-1"), "quantity": 4], token: world.a.token)
        expectError(response, 409, "out_of_stock")
        #expect((try world.cart(world.a.token).json["items"] as? [Any])?.isEmpty == true)
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
        #expect((try world.cart(world.a.token).json["items"] as? [Any])?.isEmpty == true)
    }

    @Test func aLineThatWentOffSaleOrShortOfStockIsUnavailableAndLeftOutOfTheSelectedTotal() throws {
        let world = try World()
        try world.add("A-1", 2)
        try world.add("B-1", 1)
        try world.add("LOW-1", 3)
        #expect(try world.cart(world.a.token).json["selected_total_cents"] as? Int == 2 * 1_250 + 9_999 + 3 * 500)

        try world.app.cartSeed([CartCatalogRow(product: "FL-B", sku: "B-1", price: "99.99", status: "off_sale"),
                                CartCatalogRow(product: "FL-LOW", sku: "LOW-1", price: "5.00", stock: 2)])
        let cart = try world.cart(world.a.token).json
        let items = try #require(cart["items"] as? [[String: Any]])
        let bySKU = Dictionary(uniqueKeysWithValues: items.compactMap { item in (item["sku_id"] as? Int).map { ($0, item) } })
        #expect(bySKU[try world.sku("B-1")]?["available"] as? Bool == false)
        #expect(bySKU[try world.sku("LOW-1")]?["available"] as? Bool == false)
        #expect(bySKU[try world.sku("LOW-1")]?["stock"] as? Int == 2)
        #expect(bySKU[try world.sku("A-1")]?["available"] as? Bool == true)
        #expect(cart["selected_total_cents"] as? Int == 2 * 1_250)
        #expect(cart["total_quantity"] as? Int == 6)
    }

    // MARK: Select, remove, empty

    @Test func selectingAndDeselectingChangesTheSelectedTotals() throws {
        let world = try World()
        try world.add("A-1", 2)
        let cart = try world.add("B-1", 3)
        let line = try world.lineID(cart, sku: "B-1")
        let deselected = try world.send("PATCH", "/cart/items/\(line)", json: ["selected": false], token: world.a.token)
        #expect(deselected.status == 200)
        #expect(Set(deselected.json.keys) == Self.cartKeys)
        #expect(deselected.json["selected_quantity"] as? Int == 2)
        #expect(deselected.json["selected_total_cents"] as? Int == 2_500)
        #expect(deselected.json["total_quantity"] as? Int == 5)
        let reselected = try world.send("PATCH", "/cart/items/\(line)", json: ["selected": true], token: world.a.token)
        #expect(reselected.json["selected_quantity"] as? Int == 5)
        #expect(reselected.json["selected_total_cents"] as? Int == 2_500 + 3 * 9_999)
        let changed = try world.send("PATCH", "/cart/items/\(line)", json: ["quantity": 1], token: world.a.token)
        #expect(changed.status == 200)
        #expect(changed.json["total_quantity"] as? Int == 3)
    }

    @Test func removingALineAndEmptyingTheCart() throws {
        let world = try World()
        try world.add("A-1", 2)
        let cart = try world.add("B-1", 3)
        let line = try world.lineID(cart, sku: "B-1")
        let removed = try world.send("DELETE", "/cart/items/\(line)", token: world.a.token)
        #expect(removed.status == 200)
        #expect(try (removed.json["items"] as? [[String: Any]])?.map { $0["sku_id"] as? Int } == [world.sku("A-1")])
        expectError(try world.send("DELETE", "/cart/items/\(line)", token: world.a.token), 404, "not_found")

        let emptied = try world.send("DELETE", "/cart", token: world.a.token)
        #expect(emptied.status == 200)
        #expect(Set(emptied.json.keys) == Self.cartKeys)
        #expect((emptied.json["items"] as? [Any])?.isEmpty == true)
        #expect(emptied.json["total_quantity"] as? Int == 0)
        #expect((try world.cart(world.a.token).json["items"] as? [Any])?.isEmpty == true)
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
        #expect((try world.cart(world.b.token).json["items"] as? [Any])?.isEmpty == true)
    }

    @Test func anotherUsersAddressIsA404OnEveryRouteAndUntouched() throws {
        let world = try World()
        let address = try world.createAddress(cartAddressBody(), token: world.a.token)
        _ = try world.createAddress(cartAddressBody("李四"), token: world.a.token)
        let id = try #require(address["id"] as? Int)
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
        let bID = try #require(bAddress["id"] as? Int)
        let created = try world.createAddress(cartAddressBody("王小花", ["id": bID, "user_id": world.b.id, "is_default": false,
                                                                        "created_at": 0]),
                                              token: world.a.token)
        let id = try #require(created["id"] as? Int)
        #expect(id != bID)
        #expect(Set(created.keys) == Self.addressKeys)
        #expect(created["is_default"] as? Bool == true)
        #expect(try world.addresses(world.a.token).map { $0["id"] as? Int } == [id])
        // B's address is still B's alone, unchanged.
        #expect(try world.addresses(world.b.token).map { $0["recipient"] as? String } == ["李四"])
        expectError(try world.send("GET", "/addresses/\(id)", token: world.b.token), 404, "not_found")

        // The same on update, and on the cart.
        let patched = try world.send("PATCH", "/addresses/\(id)", json: ["id": bID, "user_id": world.b.id, "city": "宁波市"],
                                     token: world.a.token)
        #expect(patched.status == 200)
        #expect(patched.json["id"] as? Int == id)
        #expect(try world.addresses(world.b.token).map { $0["city"] as? String } == ["杭州市"])
        let added = try world.send("POST", "/cart/items", json: ["sku_id": try world.sku("A-1"), "quantity": 2, "user_id": world.b.id,
                                                               "price_cents": 1, "id": 1],
                                   token: world.a.token)
        #expect(added.status == 201)
        #expect(added.json["selected_total_cents"] as? Int == 2_500)
        #expect((try world.cart(world.b.token).json["items"] as? [Any])?.isEmpty == true)
        let line = try world.lineID(added.json, sku: "A-1")
        let changed = try world.send("PATCH", "/cart/items/\(line)", json: ["sku_id": try world.sku("B-1"), "price_cents": 1, "quantity": 3],
                                     token: world.a.token)
        #expect(changed.status == 200)
        let items = try #require(changed.json["items"] as? [[String: Any]])
        #expect(items.count == 1)
        #expect(try items.first?["sku_id"] as? Int == world.sku("A-1"))
        #expect(items.first?["price_cents"] as? Int == 1_250)
        #expect(items.first?["quantity"] as? Int == 3)
    }

    // MARK: Addresses

    @Test func theAddressHasExactlyTheDocumentedShape() throws {
        let world = try World()
        let response = try world.send("POST", "/addresses", json: cartAddressBody(), token: world.a.token)
        #expect(response.status == 201)
        let address = response.json
        #expect(Set(address.keys) == Self.addressKeys)
        #expect(address["id"] as? Int != nil)
        #expect(address["recipient"] as? String == "王小花")
        #expect(address["phone"] as? String == "13800138000")
        #expect(address["province"] as? String == "浙江省")
        #expect(address["city"] as? String == "杭州市")
        #expect(address["district"] as? String == "西湖区")
        #expect(address["detail"] as? String == "人民路1号")
        #expect(address["postal_code"] as? String == "310000")
        #expect(address["is_default"] as? Bool == true)
        #expect(response.text.contains("\"is_default\":true"))

        // Without a postal code the key is still there, as null.
        var body = cartAddressBody("李四")
        body["postal_code"] = nil
        let second = try world.send("POST", "/addresses", json: body, token: world.a.token)
        #expect(Set(second.json.keys) == Self.addressKeys)
        #expect(second.json["postal_code"] is NSNull)
        #expect(second.json["is_default"] as? Bool == false)

        let id = try #require(address["id"] as? Int)
        let shown = try world.send("GET", "/addresses/\(id)", token: world.a.token)
        #expect(shown.status == 200)
        #expect(shown.text == response.text)
        let list = try world.send("GET", "/addresses", token: world.a.token)
        #expect(Set(list.json.keys).contains("items"))
        let items = try #require(list.json["items"] as? [[String: Any]])
        #expect(items.count == 2)
        #expect(items.allSatisfy { Set($0.keys) == Self.addressKeys })
        #expect(items.first?["id"] as? Int == id)
    }

    @Test func theDefaultMovesWithCreateSetDefaultAndDelete() throws {
        let world = try World()
        let token = world.a.token
        func defaults() throws -> [Int] {
            try world.addresses(token).filter { $0["is_default"] as? Bool == true }.compactMap { $0["id"] as? Int }
        }
        let first = try #require(try world.createAddress(cartAddressBody("甲"), token: token)["id"] as? Int)
        #expect(try defaults() == [first])
        world.app.clock.advance(by: 10)
        let second = try #require(try world.createAddress(cartAddressBody("乙", ["is_default": true]), token: token)["id"] as? Int)
        #expect(try defaults() == [second])
        world.app.clock.advance(by: 10)
        let third = try #require(try world.createAddress(cartAddressBody("丙"), token: token)["id"] as? Int)
        #expect(try defaults() == [second])

        let made = try world.send("POST", "/addresses/\(first)/default", token: token)
        #expect(made.status == 200)
        #expect(Set(made.json.keys) == Self.addressKeys)
        #expect(made.json["is_default"] as? Bool == true)
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
        #expect(created.error["field"] as? String == field)
        #expect(try world.addresses(world.a.token).isEmpty)

        let id = try #require(try world.createAddress(cartAddressBody(), token: world.a.token)["id"] as? Int)
        let before = try world.send("GET", "/addresses/\(id)", token: world.a.token).text
        let patched = try world.send("PATCH", "/addresses/\(id)", json: [field: value], token: world.a.token)
        expectError(patched, 400, "validation_failed")
        #expect(patched.error["field"] as? String == field)
        #expect(try world.send("GET", "/addresses/\(id)", token: world.a.token).text == before)
    }

    @Test func aFieldOfTheWrongTypeIsA400() throws {
        let world = try World()
        for (field, value) in [("recipient", 123), ("is_default", "yes"), ("phone", 13_800_138_000)] as [(String, Any)] {
            let response = try world.send("POST", "/addresses", json: cartAddressBody("王小花", [field: value]), token: world.a.token)
            expectError(response, 400, "validation_failed")
            #expect(response.error["field"] as? String == field)
        }
        #expect(try world.addresses(world.a.token).isEmpty)
    }

    @Test func patchingOneFieldKeepsTheOthers() throws {
        let world = try World()
        let created = try world.createAddress(cartAddressBody(), token: world.a.token)
        let id = try #require(created["id"] as? Int)
        let patched = try world.send("PATCH", "/addresses/\(id)", json: ["city": "宁波市"], token: world.a.token)
        #expect(patched.status == 200)
        for key in Self.addressKeys where key != "city" {
            #expect("\(patched.json[key] ?? "absent")" == "\(created[key] ?? "absent")", "\(key) changed")
        }
        #expect(patched.json["city"] as? String == "宁波市")
        #expect(try world.send("GET", "/addresses/\(id)", token: world.a.token).text == patched.text)
    }
}
