import Foundation
import HTTP
@testable import ShopAPI
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("API: refund notifications on the payments webhook")
struct RefundNotificationAPITests {
    @Test func wechatsRefundNotificationIsAnsweredInItsFormatAndRefundsTheCancelledOrder() throws {
        let gateway = try FakeWechatPayGateway()
        gateway.holdRefunds(true)
        let s = try PaymentAPIScenario { PaymentKeys.configure(&$0, wechatGateway: gateway, alipayGateway: nil) }
        let order = try s.placeOrder(quantity: 2)
        #expect(try s.app.send("POST", "/api/v1/orders/\(order.id.rawValue)/payments", json: ["provider": "wechatpay"],
                               token: s.token).status == 201)
        #expect(try s.webhook("wechatpay", body: try gateway.pay(order.number), contentType: "text/xml").status == 200)
        let cancelled = try s.app.send("POST", "/api/v1/orders/\(order.id.rawValue)/cancel", token: s.token)
        #expect(try cancelled.decode(OrderResponse.self).status == .refunding)
        // the refund reaches WeChat Pay off the request (the payments bulkhead), not before the answer
        let deadline = Date().addingTimeInterval(10)
        while gateway.refunds.isEmpty, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        let refund = try #require(gateway.refunds.keys.first)

        let garbled = String(decoding: try gateway.refundNotification(refund), as: UTF8.self)
            .replacingOccurrences(of: "<req_info><![CDATA[", with: "<req_info><![CDATA[AAAA")
        let refused = try s.webhook("wechatpay", body: Array(garbled.utf8), contentType: "text/xml")
        #expect(refused.status == 400)
        #expect(refused.errorCode == "invalid_signature")
        #expect(try s.status(order) == .refunding)

        let response = try s.webhook("wechatpay", body: try gateway.confirmRefund(refund), contentType: "text/xml")
        #expect(response.status == 200)
        #expect(response.text == "<xml><return_code><![CDATA[SUCCESS]]></return_code><return_msg><![CDATA[OK]]></return_msg></xml>")
        #expect(try s.status(order) == .refunded)
        #expect(try s.sales() == 0)
    }
}
