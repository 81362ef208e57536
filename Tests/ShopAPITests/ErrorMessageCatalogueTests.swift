import Foundation
import HTTP
import Localization
@testable import ShopAPI
import ShopCore
import ShopTestSupport
import Testing

/// One message the API can send, as a catalogue lists it.
struct CataloguedMessage: Sendable, CustomTestStringConvertible {
    let name: String
    let code: String
    let text: LocalizedText
    var testDescription: String { "\(code) \(name)" }
}

/// Every error message in Chinese and English: walked from the catalogues the code itself uses
/// (`APIMessage`, `HTTPMessage`, `ValidationRule`), so a message added there is checked here.
@Suite("Error message catalogue")
struct ErrorMessageCatalogueTests {
    static func messages<Message: ErrorMessage>(_ type: Message.Type) -> [CataloguedMessage] {
        Message.allCases.map { CataloguedMessage(name: "\(Message.self).\($0)", code: $0.code, text: $0.template) }
    }

    /// Every message the API can send: the shop's, the HTTP layer's, and input validation's (all `validation_failed`).
    static let catalogue: [CataloguedMessage] = messages(APIMessage.self) + messages(HTTPMessage.self)
        + messages(CouponMessage.self)
        + messages(BuyerBanMessage.self)
        + messages(AdminCatalogMessage.self)
        + ValidationRule.allCases.map { CataloguedMessage(name: "ValidationRule.\($0)", code: "validation_failed", text: $0.template) }
        + ZoneRule.allCases.map { CataloguedMessage(name: "ZoneRule.\($0)", code: "invalid_zones", text: $0.template) }

    static func hasHan(_ text: String) -> Bool {
        text.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) || (0x3400...0x4DBF).contains($0.value) }
    }

    /// The text with its placeholders taken out, so a product name in an argument never counts.
    static func withoutPlaceholders(_ text: String) -> String {
        LocalizedText(zh: text, en: text)
            .filling(Dictionary(uniqueKeysWithValues: LocalizedText.placeholders(in: text).map { ($0, LocalizedText.verbatim("")) })).zh
    }

    @Test(arguments: catalogue)
    func everyMessageExistsInChineseAndEnglishAndTheyDiffer(_ message: CataloguedMessage) {
        let zh = message.text.zh, en = message.text.en
        #expect(!zh.isEmpty && !en.isEmpty)
        #expect(zh != en)
        #expect(Self.hasHan(Self.withoutPlaceholders(zh)), "the Chinese message is not Chinese: \(zh)")
        #expect(!Self.hasHan(Self.withoutPlaceholders(en)), "the English message holds Chinese: \(en)")
        #expect(LocalizedText.placeholders(in: zh) == LocalizedText.placeholders(in: en), "both languages take the same arguments")
        let filled = message.text.filling(Dictionary(uniqueKeysWithValues: LocalizedText.placeholders(in: zh + en)
            .map { ($0, LocalizedText.verbatim("7")) }))
        #expect(!filled.zh.contains("{") && !filled.en.contains("{"), "\(filled)")
    }

    @Test func everyErrorCodeTheAPICanProduceHasAChineseAndAnEnglishMessage() {
        let byCode = Dictionary(grouping: Self.catalogue, by: \.code)
        #expect(byCode.count >= 30, "the walk found only \(byCode.keys.sorted())")
        for (code, messages) in byCode {
            #expect(code.range(of: #"^[a-z]+(_[a-z]+)*$"#, options: .regularExpression) != nil, "code \(code) is not snake_case")
            for message in messages {
                #expect(Self.hasHan(message.text.zh) && !message.text.en.isEmpty && message.text.zh != message.text.en,
                        "\(message.name)")
            }
        }
    }

    @Test func theCodesAndStatusesAreTheOnesClientsKnow() {
        // Spot checks of the contract: a code never moves to another status or changes its spelling.
        #expect(APIMessage.outOfStock.code == "out_of_stock" && APIMessage.outOfStock.status == .conflict)
        #expect(APIMessage.soldOut.code == "out_of_stock" && APIMessage.soldOut.status == .conflict)
        #expect(APIMessage.cartLimitExceeded.code == "cart_limit_exceeded" && APIMessage.cartLimitExceeded.status == .unprocessableEntity)
        #expect(APIMessage.codeLimitReached.code == "rate_limited" && APIMessage.codeLimitReached.status == .tooManyRequests)
        #expect(APIMessage.invalidCursor.code == "validation_failed" && APIMessage.invalidCursor.status == .badRequest)
        #expect(APIMessage.addressRegionUnknown.code == "invalid_region" && APIMessage.addressRegionUnknown.status == .unprocessableEntity)
        #expect(APIMessage.addressRegionNotALeaf.code == "invalid_region" && APIMessage.addressRegionNotALeaf.status == .unprocessableEntity)
        #expect(APIMessage.regionNotFound.code == "not_found" && APIMessage.regionNotFound.status == .notFound)
        #expect(APIMessage.malformedNotification.code == "invalid_request")
        #expect(APIMessage.channelNotOffered.code == "validation_failed" && APIMessage.channelNotOffered.status == .badRequest)
        #expect(APIMessage.outsideDeliveryArea.code == "delivery_unavailable" && APIMessage.outsideDeliveryArea.status == .unprocessableEntity)
        #expect(APIMessage.invalidZones.code == "invalid_zones" && APIMessage.invalidZones.status == .unprocessableEntity)
        #expect(HTTPMessage.controlCharacterInPath.code == "invalid_request")
        #expect(HTTPMessage.internalError.code == "internal" && HTTPMessage.internalError.status == .internalServerError)
        #expect(APIMessage.afterSaleOpen.code == "after_sale_open" && APIMessage.afterSaleOpen.status == .conflict)
        #expect(APIMessage.afterSaleClosed.code == "after_sale_closed" && APIMessage.afterSaleClosed.status == .unprocessableEntity)
        #expect(APIMessage.afterSaleDecided.code == "after_sale_decided" && APIMessage.afterSaleDecided.status == .conflict)
    }

    @Test func everyErrorCodeTheOpenAPIDocumentNamesHasMessages() throws {
        let text = try String(contentsOf: Repository.root().appendingPathComponent("openapi.json"), encoding: .utf8)
        var documented = Set<String>()
        for pattern in [#"`error\.code`: ((?:`[a-z_]+`(?:, | or | and )?)+)"#, #""code": "([a-z_]+)""#] {
            let regex = try NSRegularExpression(pattern: pattern)
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let range = Range(match.range(at: 1), in: text) else { continue }
                documented.formUnion(text[range].split(whereSeparator: { !$0.isLetter && $0 != "_" }).map(String.init))
            }
        }
        documented.remove("field")
        let catalogued = Set(Self.catalogue.map(\.code))
        #expect(documented.count >= 20)
        #expect(documented.subtracting(catalogued).isEmpty, "documented codes without messages: \(documented.subtracting(catalogued).sorted())")
    }

    @Test func everyFieldNameAShopperSeesHasAChineseName() {
        for (field, name) in ValidationRule.chineseNames {
            #expect(Self.hasHan(name), "\(field)")
            #expect(ValidationRule.name(of: field) == LocalizedText(zh: name, en: field))
        }
        #expect(ValidationRule.name(of: "sku_id") == .verbatim("sku_id"), "a field without a Chinese name keeps its wire name")
    }
}
