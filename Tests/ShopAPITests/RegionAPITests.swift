import Foundation
import HTTP
@testable import ShopAPI
import ShopCore
import ShopTestSupport
import Testing

/// `GET /regions` (China's divisions by GB/T 2260 code) and addresses that name their district by code.
@Suite("API: /regions and region codes on addresses")
struct RegionAPITests {
    typealias RegionBody = RegionController.RegionBody

    /// The divisions `GET /regions` answers for `parent` (the provinces when nil), requiring 200.
    func regions(_ app: TestAPI, parent: String? = nil) throws -> [RegionBody] {
        let response = try app.send("GET", "/api/v1/regions", query: parent.map { ["parent": $0] } ?? [:])
        try #require(response.status == 200, "\(response.text)")
        return try response.decode(ItemsResponse<RegionBody>.self).items
    }

    func names(_ items: [RegionBody]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: items.map { ($0.code.rawValue, $0.name) })
    }

    /// A signed-up buyer's token.
    func buyer(_ app: TestAPI, _ phone: String = "13800138000") throws -> String {
        try app.register(phone).decode(SessionResponse.self).token
    }

    // Untyped on purpose: a request body (tests also send ill-typed and extra fields).
    func addressBody(_ changes: [String: Any]) -> [String: Any] {
        var body: [String: Any] = ["recipient": "王小花", "phone": "13800138000", "detail": "人民路1号"]
        for (key, value) in changes { body[key] = value }
        return body
    }

    // MARK: The tree

    @Test func theProvincesComeFirstByCodeWithHongKongMacauAndTaiwanAndNoPlaceholders() throws {
        let app = try TestAPI()
        let provinces = try regions(app)
        #expect(provinces.count == 34)
        #expect(provinces.map(\.code) == provinces.map(\.code).sorted())
        #expect(provinces.first == RegionBody(code: try #require(RegionCode("110000")), name: "北京市"))
        let byCode = names(provinces)
        #expect(byCode["810000"] == "香港特别行政区" && byCode["820000"] == "澳门特别行政区" && byCode["710000"] == "台湾省")
        #expect(byCode["990000"] == nil, "the source's 苏鲁交界 placeholder is not a division")
    }

    @Test func aMunicipalityIsWalkedProvinceCityDistrictDownToALeaf() throws {
        let app = try TestAPI()
        #expect(names(try regions(app, parent: "110000")) == ["110100": "北京市"])
        let districts = try regions(app, parent: "110100")
        #expect(districts.count == 16)
        #expect(names(districts)["110105"] == "朝阳区")
        #expect(try regions(app, parent: "110105").isEmpty, "a district is a leaf: no items")
        let chongqing = names(try regions(app, parent: "500000"))
        #expect(chongqing == ["500100": "重庆市", "500200": "重庆市"], "the data's two cities of 重庆 (districts, counties)")
    }

    @Test func countyLevelCitiesDirectlyUnderAProvinceAreItsChildrenAndLeaves() throws {
        let app = try TestAPI()
        let henan = names(try regions(app, parent: "410000"))
        #expect(henan["419001"] == "济源市")
        #expect(henan["410100"] == "郑州市")
        let hainan = names(try regions(app, parent: "460000"))
        #expect(hainan["469001"] == "五指山市")
        #expect(hainan["460400"] == "儋州市")
        #expect(names(try regions(app, parent: "650000"))["659001"] == "石河子市")
        #expect(names(try regions(app, parent: "810000"))["810101"] == "中西区", "Hong Kong's districts sit under it directly")
        for leaf in ["419001", "469001", "659001", "810101"] {
            #expect(try regions(app, parent: leaf).isEmpty, "\(leaf)")
        }
    }

    @Test func prefectureCitiesWithoutDistrictsAreLeaves() throws {
        let app = try TestAPI()
        let guangdong = names(try regions(app, parent: "440000"))
        #expect(guangdong["441900"] == "东莞市" && guangdong["442000"] == "中山市")
        for city in ["441900", "442000", "620200", "460400"] {
            #expect(try regions(app, parent: city).isEmpty, "\(city)")
        }
        #expect(try !regions(app, parent: "440100").isEmpty, "广州市 has districts")
    }

    @Test func aCodeOfTheWrongShapeIs400NamingParent() throws {
        let app = try TestAPI()
        for bad in ["", "11000", "1100000", "11000a", "１１００００", "110000 ", "-11000"] {
            let response = try app.send("GET", "/api/v1/regions", query: ["parent": bad])
            #expect(response.status == 400, "\(bad): \(response.text)")
            #expect(response.error?.code == "validation_failed")
            #expect(response.error?.field == "parent")
        }
    }

    @Test func aWellFormedCodeNoDivisionHasIs404() throws {
        let app = try TestAPI()
        for unknown in ["990000", "999900", "110199", "000000"] {
            let response = try app.send("GET", "/api/v1/regions", query: ["parent": unknown])
            #expect(response.status == 404, "\(unknown): \(response.text)")
            #expect(response.error?.code == "not_found")
        }
    }

    @Test func answersArePublicCacheableAndRevalidateWith304() throws {
        let app = try TestAPI()
        let first = try app.send("GET", "/api/v1/regions", query: ["parent": "330000"])
        #expect(first.status == 200)
        #expect(first.headers["Cache-Control"] == RegionController.cacheControl)
        let etag = try #require(first.headers["ETag"])
        let again = try app.send("GET", "/api/v1/regions", query: ["parent": "330000"], headers: [("If-None-Match", etag)])
        #expect(again.status == 304)
        #expect(again.headers["ETag"] == etag && again.headers["Cache-Control"] == RegionController.cacheControl)
        #expect(again.headers["Content-Type"] == nil, "a 304 carries no body (the server sends none)")
        let provinces = try app.send("GET", "/api/v1/regions", headers: [("If-None-Match", etag)])
        #expect(provinces.status == 200, "another parent's answer has another tag")
        #expect(provinces.headers["ETag"] != etag)
    }

    // MARK: Addresses

    @Test func aRegionCodeFillsTheNamesAndReplacesTheClientsOwn() throws {
        let app = try TestAPI()
        let token = try buyer(app)
        let response = try app.send("POST", "/api/v1/addresses", json: addressBody([
            "region_code": "110105", "province": "火星", "city": "某城", "district": "某区",
        ]), token: token)
        #expect(response.status == 201, "\(response.text)")
        let address = try response.decode(AddressResponse.self)
        #expect(address.shared.province == "北京市" && address.shared.city == "北京市" && address.shared.district == "朝阳区")
        #expect(address.own.regionCode?.rawValue == "110105")
        #expect(response.json["region_code"] as? String == "110105", "the code is a string on the wire")
        let shown = try app.send("GET", "/api/v1/addresses/\(address.own.id)", token: token).decode(AddressResponse.self)
        #expect(shown.own.regionCode?.rawValue == "110105" && shown.shared.district == "朝阳区")
    }

    @Test func aLeafCityOrCountyLevelCityFillsProvinceAndCityAndRepeatsTheCityAsDistrict() throws {
        let app = try TestAPI()
        let token = try buyer(app)
        let cases: [(String, String, String)] = [("441900", "广东省", "东莞市"), ("419001", "河南省", "济源市"),
                                                 ("469001", "海南省", "五指山市"), ("810101", "香港特别行政区", "中西区")]
        for (code, province, city) in cases {
            let response = try app.send("POST", "/api/v1/addresses", json: addressBody(["region_code": code]), token: token)
            #expect(response.status == 201, "\(code): \(response.text)")
            let address = try response.decode(AddressResponse.self)
            #expect(address.shared.province == province && address.shared.city == city && address.shared.district == city, "\(code)")
            #expect(address.own.regionCode?.rawValue == code)
        }
    }

    @Test func aCodeThatIsNotALeafOrIsUnknownIsRefusedWithFieldRegionCode() throws {
        let app = try TestAPI()
        let token = try buyer(app)
        for code in ["110000", "110100", "330100", "990000", "110199"] {
            let response = try app.send("POST", "/api/v1/addresses", json: addressBody(["region_code": code]), token: token)
            #expect(response.status == 422, "\(code): \(response.text)")
            #expect(response.error?.code == "invalid_region")
            #expect(response.error?.field == "region_code")
        }
        for bad: Any in ["11010", "abcdef", "", 110105] {
            let response = try app.send("POST", "/api/v1/addresses", json: addressBody(["region_code": bad]), token: token)
            #expect(response.status == 400, "\(bad): \(response.text)")
            #expect(response.error?.code == "validation_failed")
        }
        // names sent beside a good code are replaced, but are still checked as input
        for (field, bad) in [("district", "\u{0}\u{9B}"), ("city", String(repeating: "城", count: 21)), ("province", " "), ("district", NSNull())] as [(String, Any)] {
            let response = try app.send("POST", "/api/v1/addresses", json: addressBody(["region_code": "330106", field: bad]), token: token)
            #expect(response.status == 400 && response.error?.field == field, "\(field): \(response.text)")
        }
        #expect(try app.send("GET", "/api/v1/addresses", token: token).decode(ItemsResponse<AddressResponse>.self).items.isEmpty,
                "nothing was saved")
        let english = try app.send("POST", "/api/v1/addresses", json: addressBody(["region_code": "330100"]), token: token,
                                   headers: [("Accept-Language", "en")])
        #expect(english.error?.message.contains("杭州市") == true && english.error?.message.contains("district") == true)
    }

    @Test func addressesTypedByHandStillWorkAndShowANullRegionCode() throws {
        let app = try TestAPI()
        let token = try buyer(app)
        let response = try app.send("POST", "/api/v1/addresses", json: cartAddressBody(), token: token)
        #expect(response.status == 201, "\(response.text)")
        #expect(response.json.keys.contains("region_code") && response.json["region_code"] is NSNull)
        #expect(try response.decode(AddressResponse.self).shared.district == "西湖区")
        let missing = try app.send("POST", "/api/v1/addresses", json: addressBody([:]), token: token)
        #expect(missing.status == 400, "without a code the names are required")
        #expect(missing.error?.field == "province")
    }

    @Test func anUpdateKeepsTheCodeUnlessTheNamesAreChangedByHand() throws {
        let app = try TestAPI()
        let token = try buyer(app)
        let typed = try app.send("POST", "/api/v1/addresses", json: cartAddressBody(), token: token).decode(AddressResponse.self)
        let path = "/api/v1/addresses/\(typed.own.id)"
        let coded = try app.send("PATCH", path, json: ["region_code": "330106"], token: token).decode(AddressResponse.self)
        #expect(coded.shared.province == "浙江省" && coded.shared.city == "杭州市" && coded.shared.district == "西湖区")
        #expect(coded.own.regionCode?.rawValue == "330106")
        let detail = try app.send("PATCH", path, json: ["detail": "古墩路88号", "district": "西湖区"], token: token)
            .decode(AddressResponse.self)
        #expect(detail.own.regionCode?.rawValue == "330106", "the same names sent back keep the code")
        let byHand = try app.send("PATCH", path, json: ["district": "余杭区"], token: token).decode(AddressResponse.self)
        #expect(byHand.shared.district == "余杭区")
        #expect(byHand.own.regionCode == nil, "names changed by hand no longer match the code")
        let refused = try app.send("PATCH", path, json: ["region_code": "330100"], token: token)
        #expect(refused.status == 422 && refused.error?.field == "region_code")
        #expect(try app.send("GET", path, token: token).decode(AddressResponse.self).shared.district == "余杭区", "unchanged")
    }

    @Test func anOrderFromACodedAddressKeepsItsNamesAfterTheAddressChanges() throws {
        let app = try TestAPI()
        let skus = try app.orderSeed([(code: "R-1", price: "99.00", stock: 5)])
        let token = try buyer(app)
        let address = try app.send("POST", "/api/v1/addresses", json: addressBody(["region_code": "441900"]), token: token)
            .decode(AddressResponse.self)
        let placed = try app.send("POST", "/api/v1/orders",
                                  json: ["address_id": address.own.id.rawValue, "items": [["sku_id": try #require(skus["R-1"]), "quantity": 1]]],
                                  token: token, headers: [("Idempotency-Key", "region-order-1")])
        #expect(placed.status == 201, "\(placed.text)")
        _ = try app.send("PATCH", "/api/v1/addresses/\(address.own.id)", json: ["region_code": "110105"], token: token)
        let order = try placed.decode(OrderResponse.self)
        let shown = try app.send("GET", "/api/v1/orders/\(order.id)", token: token).decode(OrderResponse.self)
        #expect(shown.address.province == "广东省" && shown.address.city == "东莞市" && shown.address.district == "东莞市")
    }
}
