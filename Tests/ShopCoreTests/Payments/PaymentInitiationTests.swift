import Crypto
import Foundation
import ShopTestSupport
import Testing
@testable import ShopCore

/// A payment scenario whose providers' APIs are fakes on loopback.
final class GatewayScenario: @unchecked Sendable {
    let wechat: FakeWechatPayGateway
    let alipay: FakeAlipayGateway
    let s: PaymentScenario

    init(timeoutSeconds: Int = 2) throws {
        let wechat = try FakeWechatPayGateway()
        let alipay = try FakeAlipayGateway()
        self.wechat = wechat
        self.alipay = alipay
        s = try PaymentScenario {
            PaymentKeys.configure(&$0, wechatGateway: wechat, alipayGateway: alipay)
            $0.payments.providerTimeoutSeconds = timeoutSeconds
        }
    }

    /// Moves the clock past the order's pay deadline and runs the sweeper's two steps.
    func sweepPastDeadline() throws -> (cancelled: Int, completed: Int) {
        s.test.clock.advance(by: TimeInterval(s.test.config.orders.paymentTimeoutMinutes * 60 + 1))
        return try sweep()
    }

    func sweep() throws -> (cancelled: Int, completed: Int) {
        let held = try s.payments.settleExpiredOrders()
        return try s.shop.orders.sweep(holding: held)
    }

    func stock() throws -> Int64 { try s.test.orderStock(s.sku) }
}

@Suite("Payments: starting with Alipay and WeChat Pay")
struct PaymentInitiationTests {
    @Test func alipayOrderStringIsTheCompleteRequestSignedAsAlipayChecksIt() throws {
        let g = try GatewayScenario()
        let order = try g.s.placeOrder(quantity: 2)
        g.s.test.clock.advance(by: 5 * 60 + 30)

        let intent = try g.s.payments.start(order.id, provider: .alipay, for: g.s.buyer)
        let orderString = try #require(intent.payParams["order_string"])

        // Only unreserved characters and escapes: the phone SDK takes it as is.
        #expect(orderString.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "%&=+.-_*".contains($0)) })
        let fields = try g.alipay.openApp(orderString: orderString)
        #expect(fields["app_id"] == PaymentKeys.alipayAppID)
        #expect(fields["method"] == "alipay.trade.app.pay")
        #expect(fields["charset"] == "utf-8")
        #expect(fields["sign_type"] == "RSA2")
        #expect(fields["version"] == "1.0")
        #expect(fields["timestamp"] == "2026-11-30 16:05:30", "Beijing time of the manual clock (08:05:30 UTC)")
        #expect(fields["notify_url"] == "https://shop.floral.example/api/v1/webhooks/payments/alipay")
        let bizText = try #require(fields["biz_content"])
        let biz = try #require(try JSONSerialization.jsonObject(with: Data(bizText.utf8)) as? [String: String])
        #expect(biz == ["out_trade_no": order.number, "total_amount": "129.00", "subject": "红玫瑰花束 11枝",
                        "product_code": "QUICK_MSECURITY_PAY", "timeout_express": "24m"])

        // Anyone with the merchant public key can check it; a changed amount no longer verifies.
        let key = try RSAPublicKey(pem: PaymentKeys.merchantPublicPEM)
        let sign = try #require(fields["sign"])
        let signature = try #require(Base64.decode(sign))
        #expect(key.verifySHA256(signature: signature, message: Array(PaymentSigner.alipayRequestContent(fields).utf8)))
        var tampered = fields
        tampered["biz_content"] = fields["biz_content"]?.replacingOccurrences(of: "129.00", with: "1.29")
        #expect(!key.verifySHA256(signature: signature, message: Array(PaymentSigner.alipayRequestContent(tampered).utf8)))
        #expect(try g.s.paymentRows(order.id) == ["alipay pending"])
    }

    @Test func alipayIsNotOfferedWithoutTheMerchantPrivateKey() throws {
        let s = try PaymentScenario {
            PaymentKeys.configure(&$0)
            $0.payments.alipayPrivateKeyPEM = ""
        }
        let order = try s.placeOrder()
        #expect(throws: PaymentError.providerNotConfigured(.alipay)) { try s.payments.start(order.id, provider: .alipay, for: s.buyer) }
        #expect(throws: ConfigError.self) {
            try PaymentScenario {
                PaymentKeys.configure(&$0)
                $0.payments.alipayPrivateKeyPEM = "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----"
            }
        }
    }

    @Test func wechatCallsUnifiedOrderAndAnswersSignedPayReqParams() throws {
        let g = try GatewayScenario()
        let order = try g.s.placeOrder(quantity: 2)

        let intent = try g.s.payments.start(order.id, provider: .wechatpay, for: g.s.buyer, clientIP: "203.0.113.9")

        let request = try #require(g.wechat.requests.last)
        #expect(request.path == "/pay/unifiedorder")
        #expect(request.fields["out_trade_no"] == order.number)
        #expect(request.fields["total_fee"] == "12900")
        #expect(request.fields["trade_type"] == "APP")
        #expect(request.fields["spbill_create_ip"] == "203.0.113.9")
        #expect(request.fields["notify_url"] == "https://shop.floral.example/api/v1/webhooks/payments/wechatpay")
        #expect(request.fields["body"] == "红玫瑰花束 11枝")
        #expect(request.fields["time_expire"] == "20261130163000")

        let params = intent.payParams
        #expect(params["appid"] == PaymentKeys.wechatAppID)
        #expect(params["partnerid"] == PaymentKeys.wechatMchID)
        #expect(params["prepayid"] == g.wechat.trade(order.number)?.prepayID)
        #expect(params["package"] == "Sign=WXPay")
        #expect(params["timestamp"] == String(g.s.now))
        #expect(params["noncestr"]?.count == 32)
        #expect(params["sign"] == PaymentSigner.wechat(params))
    }

    @Test func wechatErrorsComeBackAsProviderErrorsWithWechatsMessage() throws {
        let g = try GatewayScenario()
        let order = try g.s.placeOrder()

        g.wechat.setMode(.resultFail(code: "ORDERPAID", description: "该订单已支付"))
        #expect(throws: PaymentError.providerError(.wechatpay, "ORDERPAID 该订单已支付")) {
            try g.s.payments.start(order.id, provider: .wechatpay, for: g.s.buyer)
        }
        g.wechat.setMode(.returnFail("签名错误"))
        #expect(throws: PaymentError.providerError(.wechatpay, "签名错误")) {
            try g.s.payments.start(order.id, provider: .wechatpay, for: g.s.buyer)
        }
        g.wechat.setMode(.wrongSignature)
        #expect(throws: PaymentError.providerError(.wechatpay, "answer signature does not match")) {
            try g.s.payments.start(order.id, provider: .wechatpay, for: g.s.buyer)
        }
        #expect(try g.s.order(order.id).status == .pendingPayment)
    }

    @Test func aSilentWechatGatewayIsATimeoutWithinTheBound() throws {
        let g = try GatewayScenario(timeoutSeconds: 1)
        let order = try g.s.placeOrder()
        g.wechat.setMode(.silent(seconds: 3))

        let started = Date()
        #expect(throws: PaymentError.providerTimeout(.wechatpay)) {
            try g.s.payments.start(order.id, provider: .wechatpay, for: g.s.buyer)
        }
        #expect(Date().timeIntervalSince(started) < 2.5)
    }

    @Test func anUnreachableGatewayIsAProviderError() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        let error = #expect(throws: PaymentError.self) { try s.payments.start(order.id, provider: .wechatpay, for: s.buyer) }
        guard case .providerError(.wechatpay, let message)? = error else {
            Issue.record("expected a WeChat Pay provider error, got \(String(describing: error))")
            return
        }
        #expect(message.hasPrefix("unreachable"))
    }
}

@Suite("Payments: asking the provider before giving up")
struct PaymentQueryTests {
    @Test(arguments: [PaymentProvider.wechatpay, .alipay])
    func aPaymentWhoseNotificationWasLostIsFoundByTheSweeperAndNeverCancelled(provider: PaymentProvider) throws {
        let g = try GatewayScenario()
        let order = try g.s.placeOrder(quantity: 2)
        let intent = try g.s.payments.start(order.id, provider: provider, for: g.s.buyer)
        let lostNotification: [UInt8]
        if provider == .alipay {
            try g.alipay.openApp(orderString: try #require(intent.payParams["order_string"]))
            lostNotification = try g.alipay.pay(order.number)
        } else {
            lostNotification = try g.wechat.pay(order.number)
        }
        #expect(try g.stock() == 18)

        let swept = try g.sweepPastDeadline()

        #expect(swept.cancelled == 0)
        #expect(try g.s.order(order.id).status == .paid)
        #expect(try g.s.payments.status(of: intent.paymentID) == .succeeded)
        #expect(try g.s.sales() == 2)
        #expect(try g.stock() == 18)

        // the notification turns up after all: recorded or de-duplicated, nothing counted twice
        _ = try g.s.payments.receive(provider: provider.rawValue, headers: [:], body: lostNotification)
        #expect(try g.s.order(order.id).status == .paid)
        #expect(try g.s.sales() == 2)
        #expect(try g.s.events().filter { $0.hasSuffix(" paid") }.count == 1)
    }

    @Test(arguments: [PaymentProvider.wechatpay, .alipay])
    func anUnpaidOrderIsCancelledAfterTheProviderSaysSo(provider: PaymentProvider) throws {
        let g = try GatewayScenario()
        let order = try g.s.placeOrder(quantity: 2)
        let intent = try g.s.payments.start(order.id, provider: provider, for: g.s.buyer)
        if provider == .alipay { try g.alipay.openApp(orderString: try #require(intent.payParams["order_string"])) }

        #expect(try g.sweepPastDeadline().cancelled == 1)

        #expect(try g.s.order(order.id).status == .cancelled)
        #expect(try g.stock() == 20)
        #expect(try g.s.sales() == 0)
        #expect(g.wechat.requests.contains { $0.path == "/pay/orderquery" } == (provider == .wechatpay))
        #expect(g.alipay.methods.contains("alipay.trade.query") == (provider == .alipay))
    }

    @Test func anOrderWhoseProviderCannotBeAskedIsKeptForADayThenCancelled() throws {
        let g = try GatewayScenario()
        let order = try g.s.placeOrder()
        _ = try g.s.payments.start(order.id, provider: .wechatpay, for: g.s.buyer)
        g.wechat.setMode(.returnFail("系统繁忙"))

        #expect(try g.sweepPastDeadline().cancelled == 0)
        #expect(try g.s.order(order.id).status == .pendingPayment)

        g.s.test.clock.advance(by: 86_400)
        #expect(try g.sweep().cancelled == 1)
        #expect(try g.s.order(order.id).status == .cancelled)
    }

    @Test func aQueriedPaymentOfAnotherAmountDoesNotPay() throws {
        let g = try GatewayScenario()
        let order = try g.s.placeOrder(quantity: 2)
        _ = try g.s.payments.start(order.id, provider: .wechatpay, for: g.s.buyer)
        _ = try g.wechat.pay(order.number, totalFee: 1)

        let outcomes = try g.s.payments.reconcile(since: 0)

        #expect(outcomes.map(\.result) == [.failed("amount or currency differ from the order's")])
        #expect(try g.s.order(order.id).status == .pendingPayment)
        #expect(try g.s.events().map { $0.components(separatedBy: " ").last } == ["amount_mismatch"])
        #expect(try g.s.sales() == 0)
    }

    @Test func reconcileAsksAboutEveryUnpaidOrderWithAStartedPaymentSinceATime() throws {
        let g = try GatewayScenario()
        let paidByWechat = try g.s.placeOrder()
        _ = try g.s.payments.start(paidByWechat.id, provider: .wechatpay, for: g.s.buyer)
        _ = try g.wechat.pay(paidByWechat.number)
        let unpaid = try g.s.placeOrder()
        _ = try g.s.payments.start(unpaid.id, provider: .alipay, for: g.s.buyer)
        let mockpayOnly = try g.s.placeOrder()
        _ = try g.s.payments.start(mockpayOnly.id, provider: .mockpay, for: g.s.buyer)

        let outcomes = try g.s.payments.reconcile(since: g.s.now - 60)

        #expect(Dictionary(uniqueKeysWithValues: outcomes.map { ($0.orderNumber, $0.result) })
                == [paidByWechat.number: .paid, unpaid.number: .notPaid])
        #expect(try g.s.order(paidByWechat.id).status == .paid)
        #expect(try g.s.order(unpaid.id).status == .pendingPayment)
        #expect(try g.s.payments.reconcile(since: g.s.now + 60).isEmpty)
    }
}
