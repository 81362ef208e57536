import Foundation
import SQL
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("Notices: what each event writes into the outbox")
struct NoticeEnqueueTests {
    static let florist = StaffActor.commandLine(user: "florist")

    @Test func paidShippedAndDeliveredEachOweTheBuyerOneMessageAndTheRecipientTheLastTwo() throws {
        let g = try GatewayScenario()
        let order = try g.paidOrder(.alipay)
        let token = try #require(order.trackingToken)
        #expect(TrackingToken.isWellFormed(token))
        #expect(try outboxRows(g.s.test, order.id) == ["paid buyer"])

        _ = try g.s.shop.orders.ship(number: order.number, carrier: nil, trackingNumber: nil, by: Self.florist)
        _ = try g.s.shop.orders.deliver(number: order.number, photoURL: nil, by: Self.florist)
        #expect(try outboxRows(g.s.test, order.id)
                == ["paid buyer", "shipped buyer", "shipped recipient", "delivered buyer", "delivered recipient"])

        let notices = try g.s.shop.noticeOutbox.list(order: order.id).reversed()
        let link = "http://127.0.0.1:8080/track/\(token)"
        #expect(notices.allSatisfy { $0.text.contains(link) && $0.text.hasPrefix("【花田小憩】") && $0.status == .pending })
        #expect(notices.filter { $0.audience == .buyer }.allSatisfy { $0.to == "13900000001" && $0.text.contains(order.number) })
        #expect(notices.filter { $0.audience == .recipient }.allSatisfy { $0.to == order.address.phone })
        #expect(notices.first?.text.contains("已付款") == true)
    }

    @Test func theSameEventToldTwiceIsOneNotice() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        try s.deliverMockpay(s.mockpayBody(order, event: "evt-1"))
        try s.deliverMockpay(s.mockpayBody(order, event: "evt-2"))
        try s.test.pool.write { db in
            try s.shop.notices.enqueue(event: .paid, order: order.id, in: db)
            try s.shop.notices.enqueue(event: .afterSaleDecided, order: order.id, subject: "7", in: db)
            try s.shop.notices.enqueue(event: .afterSaleDecided, order: order.id, subject: "7", in: db)
            try s.shop.notices.enqueue(event: .afterSaleDecided, order: order.id, subject: "8", in: db)
        }
        #expect(try outboxRows(s.test, order.id) == ["paid buyer", "after_sale_decided buyer", "after_sale_decided buyer"])
    }

    @Test func anEventRolledBackOwesNothing() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try s.test.pool.write { db in
                try s.shop.notices.enqueue(event: .paid, order: order.id, in: db)
                throw Abort()
            }
        }
        #expect(try outboxRows(s.test, order.id).isEmpty)
    }

    @Test func aBuyerWhoAskedNotToNotifyTheRecipientLeavesThemOut() throws {
        let g = try GatewayScenario()
        let placed = try g.s.shop.orders.checkout(
            CheckoutRequest(addressID: g.s.address, items: [.init(skuID: g.s.sku, quantity: 1)], notifyRecipient: false),
            idempotencyKey: try IdempotencyKey(UUID().uuidString), for: g.s.buyer, clientIP: "127.0.0.1").order
        #expect(placed.notifyRecipient == false)
        try g.s.deliverMockpay(g.s.mockpayBody(placed, event: "evt-quiet"))
        _ = try g.s.shop.orders.ship(number: placed.number, carrier: nil, trackingNumber: nil, by: Self.florist)
        _ = try g.s.shop.orders.deliver(number: placed.number, photoURL: nil, by: Self.florist)
        #expect(try outboxRows(g.s.test, placed.id) == ["paid buyer", "shipped buyer", "delivered buyer"])
    }

    @Test func aConfirmedRefundTellsTheBuyerOncePerRefund() throws {
        let g = try GatewayScenario()
        let order = try g.paidOrder(.alipay)
        _ = try g.s.shop.orders.refund(number: order.number, amountCents: 1_000, reason: "少一枝", by: Self.florist)
        try g.s.payments.processRefunds()
        try g.s.payments.processRefunds()
        #expect(try outboxRows(g.s.test, order.id) == ["paid buyer", "refunded buyer"])
        _ = try g.s.shop.orders.cancel(order.id, for: g.s.buyer)
        try g.s.payments.processRefunds()
        #expect(try g.s.order(order.id).status == .refunded)
        #expect(try outboxRows(g.s.test, order.id) == ["paid buyer", "refunded buyer", "refunded buyer"])
        #expect(try g.s.shop.noticeOutbox.list(order: order.id).first?.text.contains("退款已完成") == true)
    }

    @Test func anUnpaidOrderOwesNothingAndItsTokenIsUnique() throws {
        let s = try PaymentScenario()
        let first = try s.placeOrder()
        let second = try s.placeOrder()
        #expect(try outboxRows(s.test, first.id).isEmpty)
        #expect(first.trackingToken != nil && first.trackingToken != second.trackingToken)
        #expect(first.trackingToken?.count == 32)
    }
}
