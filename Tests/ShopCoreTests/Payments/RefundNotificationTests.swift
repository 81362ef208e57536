import Crypto
import Foundation
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("Payments: the providers' refund notifications")
struct RefundNotificationTests {
    /// An order paid with WeChat Pay (notification delivered), cancelled, its refund requested.
    func wechatRefundRequested(_ g: GatewayScenario) throws -> (order: Order, refund: Refund) {
        g.wechat.holdRefunds(true)
        let order = try g.s.placeOrder(quantity: 2)
        _ = try g.s.payments.start(order.id, provider: .wechatpay, for: g.s.buyer)
        try g.s.deliverWechat(try g.wechat.pay(order.number))
        _ = try g.s.shop.orders.cancel(order.id, for: g.s.buyer)
        try g.s.payments.processRefunds()
        let refund = try #require(try g.s.payments.refunds(status: .requested).first)
        return (order, refund)
    }

    @Test func wechatsRefundNotificationConfirmsTheRefundOnceThroughTheRefundPath() throws {
        let g = try GatewayScenario()
        let (order, refund) = try wechatRefundRequested(g)
        let request = try #require(g.wechat.requests.last { $0.path == "/secapi/pay/refund" })
        #expect(request.fields["notify_url"] == "https://shop.floral.example/api/v1/webhooks/payments/wechatpay")
        g.s.test.clock.advance(by: 61)
        try g.s.payments.processRefunds()
        #expect(try g.s.order(order.id).status == .refunding, "WeChat still says PROCESSING")

        let body = try g.wechat.confirmRefund(refund.number)
        #expect(!String(decoding: body, as: UTF8.self).contains(refund.number), "the result travels encrypted")
        #expect(try g.s.deliverWechat(body) == .wechatpay)
        #expect(try g.s.deliverWechat(body) == .wechatpay)

        let refunded = try g.s.order(order.id)
        #expect(refunded.status == .refunded)
        #expect(refunded.refund == OrderRefund(status: .refunded, amountCents: 12_900, refundedAt: g.s.test.clock.now))
        #expect(try g.stock() == 20)
        #expect(try g.s.sales() == 0)
        let refundID = try #require(g.wechat.refund(refund.number)?.refundID)
        #expect(try g.s.events().filter { $0.hasPrefix("refund:") } == ["refund:\(refundID):SUCCESS refunded refunded"])
        g.s.test.clock.advance(by: 3_600)
        #expect(try g.s.payments.processRefunds() == 0, "nothing left to ask WeChat")
    }

    @Test func aWechatRefundNotificationForAnotherAmountIsRefusedAndChangesNothing() throws {
        let g = try GatewayScenario()
        let (order, refund) = try wechatRefundRequested(g)
        let body = try g.wechat.refundNotification(refund.number, refundFee: 100)

        #expect(paymentError { try g.s.deliverWechat(body) } == .amountMismatch)
        #expect(try g.s.order(order.id).status == .refunding)
        #expect(try g.s.payments.refunds(status: .requested).map(\.number) == [refund.number])
        #expect(try g.s.events().last?.hasSuffix("refunded amount_mismatch") == true)
    }

    @Test func aWechatRefundNotificationThatDoesNotDecryptUnderOurAPIKeyIsRefusedUnrecorded() throws {
        let g = try GatewayScenario()
        let (order, refund) = try wechatRefundRequested(g)
        let forger = try FakeWechatPayGateway(apiKey: String(PaymentKeys.wechatAPIKey.reversed()))
        defer { forger.stop() }
        // a gateway with another API key that holds the same paid trade and refund
        try forger.recordRefund(orderNumber: order.number, totalFee: order.totalCents, refundNumber: refund.number)
        let before = try g.s.snapshot()

        let forged = try forger.refundNotification(refund.number)
        #expect(paymentError { try g.s.deliverWechat(forged) }?.isInvalidSignature == true)
        let garbage = PaymentSigner.wechatXML(["return_code": "SUCCESS", "appid": PaymentKeys.wechatAppID,
                                               "mch_id": PaymentKeys.wechatMchID, "req_info": "bm90IGVuY3J5cHRlZA=="])
        #expect(paymentError { try g.s.deliverWechat(garbage) }?.isInvalidSignature == true)
        #expect(try g.s.snapshot() == before)
        #expect(try g.s.order(order.id).status == .refunding)
    }

    @Test func aWechatRefundClosedByWechatMarksTheRefundFailedForAnOperator() throws {
        let g = try GatewayScenario()
        let (order, refund) = try wechatRefundRequested(g)

        try g.s.deliverWechat(try g.wechat.refundNotification(refund.number, status: "REFUNDCLOSE"))

        let failed = try #require(try g.s.payments.refunds(status: .failed).first)
        #expect(failed.number == refund.number)
        #expect(failed.lastError == "WeChat Pay refund_status REFUNDCLOSE")
        #expect(try g.s.order(order.id).status == .refunding)
    }

    /// The refund answer lost (the shop timed out), Alipay's notification of the refunded trade
    /// confirms it: TRADE_CLOSED after a full refund, TRADE_SUCCESS with refund fields after a partial one.
    @Test(arguments: ["TRADE_CLOSED", "TRADE_SUCCESS"])
    func alipaysNotificationOfARefundedTradeConfirmsARefundWhoseAnswerWasLost(tradeStatus: String) throws {
        let g = try GatewayScenario(timeoutSeconds: 1)
        let order = try g.s.placeOrder(quantity: 2)
        let intent = try g.s.payments.start(order.id, provider: .alipay, for: g.s.buyer)
        try g.alipay.openApp(orderString: try #require(intent.payParams["order_string"]))
        try g.s.deliverAlipay(try g.alipay.pay(order.number))
        _ = try g.s.shop.orders.cancel(order.id, for: g.s.buyer)
        g.alipay.setMode(.silent(seconds: 1.5))
        try g.s.payments.processRefunds()
        let refund = try #require(try g.s.payments.refunds(status: .pending).first)
        #expect(refund.lastError == "no answer in time")
        g.alipay.setMode(.normal)
        let deadline = Date().addingTimeInterval(5)
        while g.alipay.refunds[refund.number] == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }

        let body = try g.alipay.refundNotification(refund.number, tradeStatus: tradeStatus)
        #expect(try g.s.deliverAlipay(body) == .alipay)
        #expect(try g.s.deliverAlipay(body) == .alipay)

        #expect(try g.s.order(order.id).status == .refunded)
        #expect(try g.s.payments.refunds(status: .refunded).map(\.number) == [refund.number])
        #expect(try g.stock() == 20)
        #expect(try g.s.sales() == 0)
        #expect(try g.s.events().filter { $0.hasSuffix("refunded refunded") }.count == 1)
    }

    @Test func anAlipayRefundNotificationForAnotherAmountOrARefundWeNeverAskedForChangesNothing() throws {
        let g = try GatewayScenario()
        let order = try g.s.placeOrder(quantity: 2)
        let intent = try g.s.payments.start(order.id, provider: .alipay, for: g.s.buyer)
        try g.alipay.openApp(orderString: try #require(intent.payParams["order_string"]))
        try g.s.deliverAlipay(try g.alipay.pay(order.number))
        _ = try g.s.shop.orders.cancel(order.id, for: g.s.buyer)
        g.alipay.setMode(.businessError(subCode: "ACQ.SYSTEM_ERROR", message: "系统错误"))
        try g.s.payments.processRefunds()
        let refund = try #require(try g.s.payments.refunds(status: .pending).first)
        g.alipay.setMode(.normal)
        // Alipay refunds it under our number (as a retry would), but says so for 1.00 only
        _ = try g.alipay.recordRefund(orderNumber: order.number, refundNumber: refund.number)

        #expect(paymentError { try g.s.deliverAlipay(try g.alipay.refundNotification(refund.number, refundFee: "1.00")) }
            == .amountMismatch)
        #expect(try g.s.order(order.id).status == .refunding)

        _ = try g.alipay.recordRefund(orderNumber: order.number, refundNumber: "R-someone-else")
        #expect(try g.s.deliverAlipay(try g.alipay.refundNotification("R-someone-else")) == .alipay)
        #expect(try g.s.order(order.id).status == .refunding)
        #expect(try g.s.payments.refunds(status: .pending).map(\.number) == [refund.number])
    }
}
