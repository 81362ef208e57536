import Foundation
import HTTP
import ShopCore
import ShopTestSupport
import Testing

/// `shop orders cancel|refund|deliver` (and `ship` without a carrier): the built binary on the
/// test database, each write audited as the command line.
@Suite("shop orders: the desk's writes")
struct OrdersDeskCommandTests {
    typealias CLI = PaymentSimulateCommandTests

    /// An order of two roses paid with mockpay (whose refunds need no network).
    static func paidOrder(_ s: PaymentAPIScenario) throws -> Order {
        let order = try s.placeOrder(quantity: 2)
        #expect(try s.app.send("POST", "/api/v1/orders/\(order.id.rawValue)/payments", json: ["provider": "mockpay"], token: s.token).status == 201)
        #expect(try s.mockpay(s.mockpayBody(order, event: "evt-\(order.number)")).status == 200)
        return try s.shop.orders.order(order.id, for: s.buyer)
    }

    @Test(.enabled(if: CLI.binary != nil, "the shop executable is not built beside the tests"))
    func shipByTheShopsCourierThenDeliverWithAPhotoAreAuditedAsTheCommandLine() throws {
        let s = try PaymentAPIScenario()
        let order = try Self.paidOrder(s)
        let (shipStatus, shipped) = try CLI.run(["orders", "ship", order.number], database: s.shop.config)
        #expect(shipStatus == 0, "\(shipped)")
        #expect(shipped.contains("shipped by the shop's own courier"), "\(shipped)")
        let (status, output) = try CLI.run(["orders", "deliver", order.number, "--photo-url", "/media/ab/door.jpg", "--format", "json"],
                                           database: s.shop.config)
        #expect(status == 0, "\(output)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: String]])
        #expect(json.first?["status"] == "delivered" && json.first?["delivery_photo_url"] == "/media/ab/door.jpg")
        #expect(try s.status(order) == .delivered)
        let audit = try s.shop.audit.entries(AuditFilter(target: "order:\(order.number)"), page: try PageRequest()).items
        #expect(audit.map(\.action) == ["order.deliver", "order.ship"])
        #expect(audit.allSatisfy { $0.actor.hasPrefix("cli:") && $0.staffID == nil })

        let (again, refused) = try CLI.run(["orders", "deliver", order.number], database: s.shop.config)
        #expect(again == 1 && refused.contains("is delivered: it cannot be delivered"), "\(refused)")
    }

    @Test(.enabled(if: CLI.binary != nil, "the shop executable is not built beside the tests"))
    func refundTakesYuanNeverMoreThanWasPaidAndCancelRefundsTheRest() throws {
        let s = try PaymentAPIScenario()
        let order = try Self.paidOrder(s)
        let (status, output) = try CLI.run(["orders", "refund", order.number, "--amount", "29.00", "--reason", "少一枝", "--format", "csv"],
                                           database: s.shop.config)
        #expect(status == 0, "\(output)")
        #expect(output.contains("R\(order.number)-"), "\(output)")
        #expect(output.contains("29.00"), "\(output)")
        let (over, refused) = try CLI.run(["orders", "refund", order.number, "--amount", "100.01", "--reason", "多退"], database: s.shop.config)
        #expect(over == 1 && refused.contains("at most 100.00 yuan is left"), "\(refused)")
        let (usage, missing) = try CLI.run(["orders", "refund", order.number, "--amount", "5"], database: s.shop.config)
        #expect(usage == 2 && missing.contains("--reason"), "\(missing)")

        let (cancelStatus, cancelled) = try CLI.run(["orders", "cancel", order.number, "--reason", "缺货"], database: s.shop.config)
        #expect(cancelStatus == 0, "\(cancelled)")
        #expect(try s.status(order) == .refunding)
        let refunds = try s.shop.payments.refunds(order: order.id)
        #expect(refunds.map(\.amountCents) == [2_900, 10_000])
        // mockpay took both at once; its signed events confirm them
        #expect(refunds.allSatisfy { $0.status == .requested })
        #expect(try s.shop.audit.entries(AuditFilter(target: "order:\(order.number)"), page: try PageRequest()).items.map(\.action)
                == ["order.cancel", "order.refund"])
    }
}
