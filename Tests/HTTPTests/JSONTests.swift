import Foundation
@testable import HTTP
import Localization
import Testing

@Suite("JSON bodies")
struct JSONTests {
    struct AddItemRequest: Decodable, Equatable {
        let skuID: Int64
        let quantity: Int
    }

    struct CreateOrderRequest: Decodable {
        struct Item: Decodable {
            let skuID: Int64
            let quantity: Int
        }
        struct Address: Decodable {
            let postalCode: String
        }
        let address: Address
        let items: [Item]
    }

    struct LoginRequest: Decodable {
        let phone: String
        let passwordMD5: String
        let avatarURL: String?
    }

    private func request(_ body: String, contentType: String? = "application/json; charset=utf-8") -> Request {
        var headers = Headers()
        if let contentType { headers.set("Content-Type", contentType) }
        return Request(method: "POST", path: "/", headers: headers, body: Array(body.utf8))
    }

    @Test func aFractionForAWholeNumberIsA400InGenericWords() {
        let error = #expect(throws: HTTPError.self) { try request(#"{"sku_id": 7, "quantity": 1.5}"#).decode(AddItemRequest.self) }
        #expect(error?.status == .badRequest)
        #expect(error?.message == LocalizedText(zh: "请求内容中有一个值类型不对（应为整数）。",
                                                en: "A value in the body has the wrong type (a whole number is expected)."))
    }

    @Test func snakeCaseKeysDecodeIntoSwiftNamesWithAcronyms() throws {
        let decoded = try request(#"{"sku_id": 7, "quantity": 2, "unknown_field": true}"#).decode(AddItemRequest.self)
        #expect(decoded == AddItemRequest(skuID: 7, quantity: 2))
        let login = try request(#"{"phone": "13800138000", "password_md5": "abc", "avatar_url": "https://x/y.png"}"#)
            .decode(LoginRequest.self)
        #expect(login.passwordMD5 == "abc")
        #expect(login.avatarURL == "https://x/y.png")
    }

    @Test func aFieldOfTheWrongTypeIsA400NamingItInSnakeCase() {
        let error = #expect(throws: HTTPError.self) {
            try request(#"{"sku_id": "seven", "quantity": 2}"#).decode(AddItemRequest.self)
        }
        #expect(error?.status == .badRequest)
        #expect(error?.code == "validation_failed")
        #expect(error?.field == "sku_id")
    }

    @Test func aNullForARequiredFieldIsA400NamingIt() {
        let error = #expect(throws: HTTPError.self) {
            try request(#"{"sku_id": 1, "quantity": null}"#).decode(AddItemRequest.self)
        }
        #expect(error?.code == "validation_failed")
        #expect(error?.field == "quantity")
    }

    @Test func aMissingFieldIsA400NamingIt() {
        let error = #expect(throws: HTTPError.self) {
            try request(#"{"quantity": 2}"#).decode(AddItemRequest.self)
        }
        #expect(error?.status == .badRequest)
        #expect(error?.code == "validation_failed")
        #expect(error?.field == "sku_id")
        #expect(error?.message == LocalizedText(zh: "缺少 sku_id。", en: "sku_id is required."))
    }

    @Test func nestedFieldsAreNamedWithTheirPath() {
        let wrongType = #expect(throws: HTTPError.self) {
            try request(#"{"address": {"postal_code": 100000}, "items": []}"#).decode(CreateOrderRequest.self)
        }
        #expect(wrongType?.field == "address.postal_code")
        let inArray = #expect(throws: HTTPError.self) {
            try request(#"{"address": {"postal_code": "100000"}, "items": [{"sku_id": 1, "quantity": 1}, {"quantity": 1}]}"#)
                .decode(CreateOrderRequest.self)
        }
        #expect(inArray?.field == "items.1.sku_id")
    }

    @Test func aBodyThatIsNotJSONIsA415() {
        let error = #expect(throws: HTTPError.self) {
            try request(#"{"sku_id": 1, "quantity": 1}"#, contentType: "text/plain").decode(AddItemRequest.self)
        }
        #expect(error?.status == .unsupportedMediaType)
        #expect(error?.code == "unsupported_media_type")
        #expect(throws: HTTPError.self) {
            try request("sku_id=1", contentType: "application/x-www-form-urlencoded").decode(AddItemRequest.self)
        }
    }

    @Test func jsonContentTypesAreAcceptedInAnyCase() throws {
        for type in ["application/json", "Application/JSON; charset=UTF-8", "application/merge-patch+json"] {
            #expect(try request(#"{"sku_id": 1, "quantity": 1}"#, contentType: type).decode(AddItemRequest.self).skuID == 1)
        }
        #expect(try request(#"{"sku_id": 1, "quantity": 1}"#, contentType: nil).decode(AddItemRequest.self).skuID == 1)
    }

    @Test func anEmptyBodyIsA400() {
        let error = #expect(throws: HTTPError.self) { try request("").decode(AddItemRequest.self) }
        #expect(error?.status == .badRequest)
        #expect(error?.code == "invalid_request")
    }

    @Test func malformedJSONIsA400() {
        for body in ["{", "not json", #"{"sku_id": 1,}"#] {
            let error = #expect(throws: HTTPError.self) { try request(body).decode(AddItemRequest.self) }
            #expect(error?.status == .badRequest)
        }
    }

    @Test func wireNamesBecomeSwiftNames() {
        #expect(JSON.camelCase("password_md5") == "passwordMD5")
        #expect(JSON.camelCase("sku_id") == "skuID")
        #expect(JSON.camelCase("reply_to") == "replyTo")
        #expect(JSON.camelCase("avatar_url") == "avatarURL")
        #expect(JSON.camelCase("image_urls") == "imageURLs")
        #expect(JSON.camelCase("order_ids") == "orderIDs")
        #expect(JSON.camelCase("quantity") == "quantity")
        #expect(JSON.camelCase("selected_total_cents") == "selectedTotalCents")
    }

    @Test("Swift names and wire names convert both ways", arguments: [
        ("skuID", "sku_id"), ("passwordMD5", "password_md5"), ("imageURLs", "image_urls"), ("orderIDs", "order_ids"),
        ("avatarURL", "avatar_url"), ("avatarURLString", "avatar_url_string"), ("userIDsByPhone", "user_ids_by_phone"),
        ("replyTo", "reply_to"), ("sha256Hex", "sha256_hex"), ("quantity", "quantity"),
        ("selectedTotalCents", "selected_total_cents"),
    ])
    func swiftNamesAndWireNamesConvertBothWays(_ swift: String, _ wire: String) {
        #expect(JSON.snakeCase(swift) == wire)
        #expect(JSON.camelCase(wire) == swift)
    }

    @Test func encodingAndDecodingAgreeOnWireNames() throws {
        struct Sample: Codable, Equatable {
            var skuID = 1
            var passwordMD5 = "x"
            var avatarURL = "u"
            var imageURLs = ["a"]
            var orderIDs = [1, 2]
            var selectedTotalCents = 12_900
            var payParams = ["k": "v"]
        }
        let data = try JSON.encoder().encode(Sample())
        let keys = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]).keys.sorted()
        #expect(keys == ["avatar_url", "image_urls", "order_ids", "password_md5", "pay_params", "selected_total_cents", "sku_id"])
        #expect(try JSON.decoder().decode(Sample.self, from: data) == Sample())
    }

    @Test func responsesAreJSONWithSortedSnakeCaseKeys() throws {
        struct Body: Encodable {
            let totalQuantity: Int
            let coverURL: String
            let createdAt: Date
        }
        let response = try Response.json(Body(totalQuantity: 3, coverURL: "https://img/a.png",
                                              createdAt: Date(timeIntervalSince1970: 1_796_025_600)), status: .created)
        #expect(response.status == .created)
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(String(decoding: response.body, as: UTF8.self)
                == #"{"cover_url":"https://img/a.png","created_at":"2026-11-30T08:00:00Z","total_quantity":3}"#)
    }

    @Test func theErrorShapeOmitsFieldsThatDoNotApply() throws {
        let error = HTTPError(.badRequest, code: "validation_failed",
                              message: LocalizedText(zh: "数量应为 1 到 99。", en: "quantity must be 1..99."), field: "quantity")
        let response = error.response(in: .english)
        #expect(response.status == .badRequest)
        #expect(response.headers["Retry-After"] == nil)
        let text = String(decoding: response.body, as: UTF8.self)
        #expect(text == #"{"error":{"code":"validation_failed","field":"quantity","message":"quantity must be 1..99."}}"#)
        let bare = String(decoding: HTTPError.notFound().response(in: .english).body, as: UTF8.self)
        #expect(bare == #"{"error":{"code":"not_found","message":"Not found."}}"#)
    }

    @Test func aBodyWithInvalidUTF8IsRefusedEvenInAFieldTheEndpointIgnores() throws {
        var headers = Headers()
        headers.set("Content-Type", "application/json")
        // 0xC3 0x28 is a broken two-byte sequence; 0xFF never appears in UTF-8.
        for bad: [UInt8] in [[0xC3, 0x28], [0xFF], [0xED, 0xA0, 0x80]] {
            let body = Array(#"{"sku_id": 7, "quantity": 2, "note": ""#.utf8) + bad + Array(#""}"#.utf8)
            let request = Request(method: "POST", path: "/", headers: headers, body: body)
            #expect(throws: HTTPError(HTTPMessage.bodyNotUTF8)) {
                try request.decode(AddItemRequest.self)
            }
        }
    }

    @Test func aBodyInUTF16WithoutABOMIsRefused() throws {
        var headers = Headers()
        headers.set("Content-Type", "application/json")
        let text = #"{"sku_id": 7, "quantity": 2}"#
        let littleEndian = text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let bigEndian = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        for body in [littleEndian, bigEndian, Array(text.utf8) + [0]] {
            let request = Request(method: "POST", path: "/", headers: headers, body: body)
            #expect(throws: HTTPError(HTTPMessage.bodyNotUTF8)) {
                try request.decode(AddItemRequest.self)
            }
        }
    }
}
