import Foundation
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("Payments: refunds")
struct PaymentRefundTests {
    /// The whole life the issue asks for: placed, paid through the provider's real initiation, its
    /// notification lost, found paid by the sweeper's query, cancelled, refunded; stock and sales
    /// right at each step.
    @Test(arguments: [PaymentProvider.wechatpay, .alipay])
    func aPaidOrderWhoseNotificationWasLostIsFoundCancelledAndRefunded(provider: PaymentProvider) throws {
        let g = try GatewayScenario()
        let order = try g.s.placeOrder(quantity: 2)
        #expect(try g.stock() == 18)
        let intent = try g.s.payments.start(order.id, provider: provider, for: g.s.buyer)
        if provider == .alipay {
            try g.alipay.openApp(orderString: try #require(intent.payParams["order_string"]))
            _ = try g.alipay.pay(order.number)
        } else {
            _ = try g.wechat.pay(order.number)
        }

        #expect(try g.sweepPastDeadline().cancelled == 0)
        #expect(try g.s.order(order.id).status == .paid)
        #expect(try g.stock() == 18)
        #expect(try g.s.sales() == 2)

        let cancelled = try g.s.shop.orders.cancel(order.id, for: g.s.buyer)
        #expect(cancelled.status == .refunding)
        #expect(cancelled.refund == OrderRefund(status: .pending, amountCents: 12_900, refundedAt: nil))
        #expect(try g.stock() == 20)
        #expect(try g.s.sales() == 0)

        try g.s.payments.processRefunds()
        if provider == .wechatpay {
            // WeChat took it; its refund query confirms it on the next try
            #expect(try g.s.order(order.id).status == .refunding)
            #expect(try g.s.order(order.id).refund?.status == .requested)
            g.s.test.clock.advance(by: 61)
            try g.s.payments.processRefunds()
        }

        let refunded = try g.s.order(order.id)
        #expect(refunded.status == .refunded)
        #expect(refunded.refund == OrderRefund(status: .refunded, amountCents: 12_900, refundedAt: g.s.test.clock.now))
        #expect(try g.stock() == 20)
        #expect(try g.s.sales() == 0)
        let providerRefunds = provider == .wechatpay ? g.wechat.refunds : g.alipay.refunds
        #expect(providerRefunds == ["R\(order.number)-\(intent.paymentID.rawValue)": order.number])
        #expect(try g.s.payments.refunds(status: .refunded).map(\.orderNumber) == [order.number])
        // Alipay's answer confirmed the one try; WeChat Pay took the refund, then its query confirmed it
        #expect(try g.s.payments.refunds(status: .refunded).first?.attempts == (provider == .alipay ? 1 : 2))
    }

    @Test func aRefundTheProviderCannotTakeIsRetriedWithTheSameNumberUntilItIs() throws {
        let g = try GatewayScenario()
        let order = try g.s.placeOrder()
        let intent = try g.s.payments.start(order.id, provider: .alipay, for: g.s.buyer)
        try g.alipay.openApp(orderString: try #require(intent.payParams["order_string"]))
        _ = try g.s.payments.receive(provider: "alipay", headers: [:], body: try g.alipay.pay(order.number))
        g.alipay.setMode(.businessError(subCode: "ACQ.SYSTEM_ERROR", message: "系统错误"))

        _ = try g.s.shop.orders.cancel(order.id, for: g.s.buyer)
        try g.s.payments.processRefunds()

        let waiting = try #require(try g.s.payments.refunds(status: .pending).first)
        #expect(waiting.attempts == 1)
        #expect(waiting.lastError == "40004 Business Failed ACQ.SYSTEM_ERROR 系统错误")
        #expect(try g.s.order(order.id).status == .refunding)
        try g.s.payments.processRefunds()
        #expect(try g.s.payments.refunds(status: .pending).first?.attempts == 1, "not due again before its back-off")

        g.alipay.setMode(.normal)
        let retried = try #require(try g.s.payments.retryRefund(number: waiting.number))
        #expect(retried.status == .refunded)
        #expect(try g.s.order(order.id).status == .refunded)
        #expect(g.alipay.refunds.count == 1)
    }

    @Test func mockpayRefundsAreConfirmedByItsSignedRefundedEvent() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder(quantity: 2)
        try s.deliverMockpay(s.mockpayBody(order, event: "evt_paid"))
        _ = try s.shop.orders.cancel(order.id, for: s.buyer)
        try s.payments.processRefunds()
        let refund = try #require(try s.payments.refunds(status: .requested).first)

        let body = s.mockpayRefundBody(order, event: "evt_refunded", refund: refund.number)
        try s.deliverMockpay(body)
        try s.deliverMockpay(body)

        #expect(try s.order(order.id).status == .refunded)
        #expect(try s.events() == ["evt_paid succeeded paid", "evt_refunded refunded refunded"])
        #expect(try s.sales() == 0)
    }

    @Test func aPaymentFlaggedNeedsRefundIsRefundedAndItsOrderStaysCancelled() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        _ = try s.shop.orders.cancel(order.id, for: s.buyer)
        try s.deliverMockpay(s.mockpayBody(order, event: "evt_late"))
        #expect(try s.paymentRows(order.id) == ["mockpay needs_refund"])

        try s.payments.processRefunds()
        let refund = try #require(try s.payments.refunds(status: .requested).first)
        try s.deliverMockpay(s.mockpayRefundBody(order, event: "evt_back", refund: refund.number))

        #expect(try s.payments.refunds(status: .refunded).map(\.number) == [refund.number])
        #expect(try s.order(order.id).status == .cancelled)
        #expect(try s.order(order.id).refund == nil)
    }

    /// A first attempt left unpaid, a second one paid: the refund goes to the paid one (the refund
    /// looks the payment up by its paid status, not by being the order's first).
    @Test func aRefundAfterAnAbandonedFirstAttemptRefundsThePaidSecondOne() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        let abandoned = try s.payments.start(order.id, provider: .mockpay, for: s.buyer)
        // a start while the first answer is valid would return it: the second is a new attempt once it lapsed
        try s.expireKeptAnswers()
        let paid = try s.payments.start(order.id, provider: .mockpay, for: s.buyer)
        #expect(abandoned.paymentID != paid.paymentID)
        try s.deliverMockpay(s.mockpayBody(order, event: "evt_paid", payment: paid.paymentID))
        #expect(try s.paymentRows(order.id).last == "mockpay succeeded")

        #expect(try s.shop.orders.cancel(order.id, for: s.buyer).status == .refunding)
        let refund = try #require(try s.payments.refunds(status: .pending).first)
        #expect(refund.number == "R\(order.number)-\(paid.paymentID.rawValue)", "the paid attempt's refund, not the abandoned one's")

        try s.payments.processRefunds()
        try s.deliverMockpay(s.mockpayRefundBody(order, event: "evt_back", refund: refund.number))
        #expect(try s.order(order.id).status == .refunded)
        #expect(try s.order(order.id).refund?.status == .refunded)
    }

    @Test func aShippedOrderCannotBeCancelled() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        try s.deliverMockpay(s.mockpayBody(order, event: "evt_paid"))
        _ = try s.shop.orders.ship(number: order.number, carrier: "顺丰", trackingNumber: "SF100", by: .commandLine(user: "test"))
        #expect(throws: OrderError.stateConflict(current: .shipped, action: .cancel)) {
            try s.shop.orders.cancel(order.id, for: s.buyer)
        }
        #expect(try s.payments.refunds(status: nil).isEmpty)
    }
}

extension PaymentScenario {
    /// A mockpay `refunded` event for `order`'s refund `refund`.
    func mockpayRefundBody(_ order: Order, event: String, refund: String) -> [UInt8] {
        let object: [String: Any] = ["event_id": event, "order_number": order.number, "amount_cents": order.totalCents,
                                     "currency": "CNY", "status": "refunded", "refund_number": refund,
                                     "occurred_at": "2026-11-30T08:00:00Z"]
        return Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
    }
}
