import Foundation
import SQL
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("Notices: the recipient's tracking page's order")
struct TrackingTests {
    @Test func aTokenOfTheWrongShapeIsUnknownWithoutAStatement() throws {
        let s = try PaymentScenario()
        let (shop, database) = try s.test.counted()
        for token in ["", "abc", String(repeating: "g", count: 32), String(repeating: "A", count: 32),
                      String(repeating: "a", count: 33), "../../etc/passwd", String(repeating: "a", count: 31) + "'"] {
            #expect(throws: OrderError.notFound) { try shop.orders.tracked(token: token) }
        }
        #expect(database.statements == 0)
        #expect(throws: OrderError.notFound) { try shop.orders.tracked(token: String(repeating: "a", count: 32)) }
    }

    @Test func theSenderIsShownUnlessTheBuyerStaysAnonymous() throws {
        let s = try PaymentScenario()
        let named = try s.placeOrder()
        let tracked = try s.shop.orders.tracked(token: try #require(named.trackingToken))
        #expect(tracked.order.id == named.id)
        #expect(tracked.senderPhone == "13900000001")

        let anonymous = try s.shop.orders.checkout(
            CheckoutRequest(addressID: s.address, items: [.init(skuID: s.sku, quantity: 1)], anonymousSender: true),
            idempotencyKey: try IdempotencyKey(UUID().uuidString), for: s.buyer, clientIP: "127.0.0.1").order
        #expect(anonymous.anonymousSender)
        let hidden = try s.shop.orders.tracked(token: try #require(anonymous.trackingToken))
        #expect(hidden.senderName == nil && hidden.senderPhone == nil)
    }

    @Test func phonesAreMaskedToTheirFirstThreeAndLastFourDigits() {
        #expect(MaskedPhone.mask("13812341234") == "138****1234")
        #expect(MaskedPhone.mask("123") == "***")
    }
}
