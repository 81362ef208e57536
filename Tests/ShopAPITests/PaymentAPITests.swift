import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTP
import SQL
import SQLite
import ShopAPI
@testable import ShopCore
import ShopTestSupport
import Testing

/// An API over a fresh database with every provider configured, one SKU at 64.50 and a signed-in buyer.
final class PaymentAPIScenario: @unchecked Sendable {
    let app: TestAPI
    let sku: SKUID
    let buyer: UserID
    let token: String
    let address: AddressID
    var shop: Shop { app.shop }
    var now: Int64 { app.clock.clock.unixNow }

    init(_ configure: (inout Config) -> Void = PaymentKeys.configure) throws {
        app = try TestAPI(configure)
        sku = try app.testShop.paymentSeedRose()
        (buyer, token, address) = try Self.person(app, phone: "13900000001")
    }

    /// Registers `phone` over the API and gives the user an address: (user, token, address).
    static func person(_ app: TestAPI, phone: String) throws -> (UserID, String, AddressID) {
        let registered = try app.register(phone)
        guard let token = registered["token"] as? String,
              let id = ((registered["user"] as? [String: Any])?["id"] as? NSNumber)?.int64Value else {
            throw FixtureError("register answered no token or user id")
        }
        let user = UserID(id)
        return (user, token, try app.testShop.paymentAddress(for: user))
    }

    /// A "buy now" order of `quantity` roses by the buyer, waiting for payment.
    func placeOrder(quantity: Int = 2) throws -> Order {
        try shop.orders.checkout(CheckoutRequest(addressID: address, items: [.init(skuID: sku, quantity: quantity)]),
                                 idempotencyKey: try IdempotencyKey(UUID().uuidString), for: buyer, clientIP: "127.0.0.1").order
    }

    func status(_ order: Order) throws -> OrderStatus { try shop.orders.order(order.id, for: buyer).status }

    func sales() throws -> Int64 { try app.testShop.orderSales(of: sku) }

    /// `event_id status outcome` of every recorded event, oldest first.
    func events() throws -> [String] { try app.testShop.paymentEvents() }

    /// Posts raw bytes to the provider's webhook, with no bearer token.
    func webhook(_ provider: String, body: [UInt8], contentType: String, headers extra: [(String, String)] = []) throws
        -> TestResponse {
        var headers = Headers()
        headers.set("Content-Type", contentType)
        for (name, value) in extra { headers.set(name, value) }
        return try app.send(Request(method: "POST", path: "/api/v1/webhooks/payments/\(provider)", headers: headers, body: body,
                                    remoteAddress: "203.0.113.9"))
    }

    func mockpayBody(_ order: Order, event: String, status: String = "succeeded", amount: Int64? = nil) -> [UInt8] {
        let object: [String: Any] = ["event_id": event, "order_number": order.number, "amount_cents": amount ?? order.totalCents,
                                     "currency": "CNY", "status": status, "occurred_at": "2026-11-30T08:00:00Z"]
        return Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
    }

    /// Posts a mockpay body signed at `timestamp` (now unless given); the header name in its documented spelling.
    func mockpay(_ body: [UInt8], timestamp: Int64? = nil) throws -> TestResponse {
        let signature = MockpayVerifier.signatureHeader(secret: PaymentKeys.mockpaySecret, timestamp: timestamp ?? now, body: body)
        return try webhook("mockpay", body: body, contentType: "application/json", headers: [("Mockpay-Signature", signature)])
    }

    /// A WeChat Pay v2 notify for `order`, MD5-signed with the test API key.
    func wechatBody(_ order: Order, transaction: String, edit: (inout [String: String]) -> Void = { _ in }) -> [UInt8] {
        var fields = ["appid": PaymentKeys.wechatAppID, "mch_id": PaymentKeys.wechatMchID, "fee_type": "CNY",
                      "nonce_str": "5d2b6c2a8db53831f7eda20af46e531c", "out_trade_no": order.number, "result_code": "SUCCESS",
                      "return_code": "SUCCESS", "total_fee": String(order.totalCents), "trade_type": "APP",
                      "transaction_id": transaction]
        edit(&fields)
        fields["sign"] = WechatPayVerifier.md5Sign(fields, apiKey: PaymentKeys.wechatAPIKey)
        return Array(WechatXML.document(fields).utf8)
    }

    /// An Alipay async notify for `order`, RSA2-signed by the openssl command line with `privateKeyPEM`.
    func alipayBody(_ order: Order, notify: String, status: String = "TRADE_SUCCESS", appID: String = PaymentKeys.alipayAppID,
                    privateKeyPEM: String = PaymentKeys.alipayPrivatePEM) throws -> [UInt8] {
        var fields = ["app_id": appID, "auth_app_id": appID, "seller_id": PaymentKeys.alipaySellerID, "charset": "utf-8",
                      "notify_id": notify, "notify_type": "trade_status_sync", "notify_time": "2026-11-30 16:00:06",
                      "out_trade_no": order.number, "subject": "鲜花订单 \(order.number)", "total_amount": Money.yuan(fromCents: order.totalCents),
                      "trade_no": "20261130220014468805\(notify)", "trade_status": status, "version": "1.0"]
        fields["sign"] = try PaymentSigner.rsaSHA256(AlipayVerifier.signingString(fields), privateKeyPEM: privateKeyPEM)
        fields["sign_type"] = "RSA2"
        return Array(FormEncoding.encode(fields).utf8)
    }
}

@Suite("Payments API")
struct PaymentAPITests {
    // MARK: POST /orders/{id}/payments

    @Test func startingAPaymentAnswers201WithTheAttemptAndPayParams() throws {
        let s = try PaymentAPIScenario()
        let order = try s.placeOrder(quantity: 2)

        let response = try s.app.send("POST", "/api/v1/orders/\(order.id.rawValue)/payments", json: ["provider": "mockpay"], token: s.token)

        #expect(response.status == 201)
        #expect(Set(response.json.keys) == ["payment_id", "provider", "amount_cents", "pay_params"])
        #expect(response.json["provider"] as? String == "mockpay")
        #expect((response.json["amount_cents"] as? NSNumber)?.int64Value == 12_900)
        let paymentID = try #require((response.json["payment_id"] as? NSNumber)?.int64Value)
        let params = try #require(response.json["pay_params"] as? [String: String])
        #expect(params["payment_id"] == String(paymentID))
        #expect(params["order_number"] == order.number)

        let alipay = try s.app.send("POST", "/api/v1/orders/\(order.id.rawValue)/payments", json: ["provider": "alipay"], token: s.token)
        #expect(alipay.status == 201)
        let orderString = try #require((alipay.json["pay_params"] as? [String: String])?["order_string"])
        #expect(orderString.contains("total_amount%22%3A%22129.00%22"))
    }

    @Test func startingAPaymentForAnOrderNotWaitingForPaymentIs409() throws {
        let s = try PaymentAPIScenario()
        let order = try s.placeOrder()
        #expect(try s.mockpay(s.mockpayBody(order, event: "evt_1")).status == 200)

        let response = try s.app.send("POST", "/api/v1/orders/\(order.id.rawValue)/payments", json: ["provider": "mockpay"], token: s.token)

        #expect(response.status == 409)
        #expect(response.errorCode == "order_state_conflict")
    }

    @Test func startingAPaymentForAnotherUsersOrderIs404() throws {
        let s = try PaymentAPIScenario()
        let order = try s.placeOrder()
        let (_, stranger, _) = try PaymentAPIScenario.person(s.app, phone: "13900000002")

        let response = try s.app.send("POST", "/api/v1/orders/\(order.id.rawValue)/payments", json: ["provider": "mockpay"], token: stranger)

        #expect(response.status == 404)
        #expect(response.errorCode == "not_found")
        let anonymous = try s.app.send("POST", "/api/v1/orders/\(order.id.rawValue)/payments", json: ["provider": "mockpay"])
        #expect(anonymous.status == 401)
    }

    @Test func startingWithAnUnknownProviderIs400AndWithAnUnconfiguredOneIs422() throws {
        let s = try PaymentAPIScenario { $0.payments.mockpaySecret = PaymentKeys.mockpaySecret }
        let order = try s.placeOrder()
        let unknown = try s.app.send("POST", "/api/v1/orders/\(order.id.rawValue)/payments", json: ["provider": "paypal"], token: s.token)
        #expect(unknown.status == 400)
        let unconfigured = try s.app.send("POST", "/api/v1/orders/\(order.id.rawValue)/payments", json: ["provider": "wechatpay"],
                                          token: s.token)
        #expect(unconfigured.status == 422)
        #expect(unconfigured.errorCode == "provider_unavailable")
    }

    @Test func wechatPayAnswersTheAppsPayParamsAndItsFailuresAre502And504() throws {
        let gateway = try FakeWechatPayGateway()
        let s = try PaymentAPIScenario {
            PaymentKeys.configure(&$0, wechatGateway: gateway, alipayGateway: nil)
            $0.payments.providerTimeoutSeconds = 1
        }
        let order = try s.placeOrder()
        let path = "/api/v1/orders/\(order.id.rawValue)/payments"

        let started = try s.app.send("POST", path, json: ["provider": "wechatpay"], token: s.token)
        #expect(started.status == 201)
        let params = try #require(started.json["pay_params"] as? [String: String])
        #expect(Set(params.keys) == ["appid", "partnerid", "prepayid", "package", "noncestr", "timestamp", "sign"])
        #expect(params["sign"] == PaymentSigner.wechat(params))

        gateway.setMode(.resultFail(code: "NOTENOUGH", description: "余额不足"))
        let second = try s.placeOrder()
        let refused = try s.app.send("POST", "/api/v1/orders/\(second.id.rawValue)/payments", json: ["provider": "wechatpay"],
                                     token: s.token, headers: [("Accept-Language", "en")])
        #expect(refused.status == 502)
        #expect(refused.errorCode == "provider_error")
        #expect((refused.error["message"] as? String)?.contains("NOTENOUGH 余额不足") == true)

        gateway.setMode(.silent(seconds: 3))
        let third = try s.placeOrder()
        let silent = try s.app.send("POST", "/api/v1/orders/\(third.id.rawValue)/payments", json: ["provider": "wechatpay"],
                                    token: s.token)
        #expect(silent.status == 504)
        #expect(silent.errorCode == "provider_timeout")
        #expect(try s.status(third) == .pendingPayment)
    }

    @Test func startingAgainWhileThePrepayIDIsValidReturnsItWithoutCallingWechatPay() throws {
        let gateway = try FakeWechatPayGateway()
        let s = try PaymentAPIScenario { PaymentKeys.configure(&$0, wechatGateway: gateway, alipayGateway: nil) }
        let order = try s.placeOrder()
        let path = "/api/v1/orders/\(order.id.rawValue)/payments"
        let first = try s.app.send("POST", path, json: ["provider": "wechatpay"], token: s.token)
        let again = try s.app.send("POST", path, json: ["provider": "wechatpay"], token: s.token)
        #expect(first.status == 201 && again.status == 201)
        #expect(again.json["payment_id"] as? NSNumber == first.json["payment_id"] as? NSNumber)
        #expect((again.json["pay_params"] as? [String: String])?["prepayid"] != nil)
        #expect((again.json["pay_params"] as? [String: String]) == (first.json["pay_params"] as? [String: String]))
        #expect(gateway.requests.filter { $0.path == "/pay/unifiedorder" }.count == 1)
        // once the prepay id has expired, a start calls again
        s.app.clock.advance(by: 2 * 3_600)
        let later = try s.app.send("POST", path, json: ["provider": "wechatpay"], token: s.token)
        #expect(later.status == 201 || later.errorCode == "order_not_payable")
    }

    @Test func paymentStartsPerOrderAreBoundedAndTheNextIs429() throws {
        let gateway = try FakeWechatPayGateway()
        let s = try PaymentAPIScenario {
            PaymentKeys.configure(&$0, wechatGateway: gateway, alipayGateway: nil)
            $0.payments.maxAttemptsPerOrder = 3
        }
        let order = try s.placeOrder()
        let path = "/api/v1/orders/\(order.id.rawValue)/payments"
        gateway.setMode(.resultFail(code: "SYSTEMERROR", description: "系统超时"))
        for _ in 0..<3 {
            #expect(try s.app.send("POST", path, json: ["provider": "wechatpay"], token: s.token).status == 502)
        }
        let refused = try s.app.send("POST", path, json: ["provider": "wechatpay"], token: s.token)
        #expect(refused.status == 429)
        #expect(refused.errorCode == "too_many_attempts")
        #expect(gateway.requests.filter { $0.path == "/pay/unifiedorder" }.count == 3)
        let rows = try s.shop.pool.read { db in try db.scalar("SELECT COUNT(*) FROM payments WHERE order_id = \(order.id)", as: Int.self) }
        #expect(rows == 3)
    }

    // MARK: webhooks

    @Test func mockpaySuccessAnswersReceivedAndPaysTheOrder() throws {
        let s = try PaymentAPIScenario()
        let order = try s.placeOrder(quantity: 2)

        let response = try s.mockpay(s.mockpayBody(order, event: "evt_1"))

        #expect(response.status == 200)
        #expect(response.text == #"{"received":true}"#)
        #expect(try s.status(order) == .paid)
        #expect(try s.sales() == 2)
        let shown = try s.app.send("GET", "/api/v1/orders/\(order.id.rawValue)", token: s.token)
        #expect(shown.json["status"] as? String == "paid")
        #expect(shown.json["paid_at"] as? String == "2026-11-30T08:00:00Z")
    }

    @Test func tamperedBodyIs400InvalidSignatureAndChangesNothing() throws {
        let s = try PaymentAPIScenario()
        let order = try s.placeOrder()
        let body = s.mockpayBody(order, event: "evt_1")
        let signature = MockpayVerifier.signatureHeader(secret: PaymentKeys.mockpaySecret, timestamp: s.now, body: body)
        let tampered = Array(String(decoding: body, as: UTF8.self).replacingOccurrences(of: "evt_1", with: "evt_9").utf8)

        let response = try s.webhook("mockpay", body: tampered, contentType: "application/json",
                                     headers: [("Mockpay-Signature", signature)])

        #expect(response.status == 400)
        #expect(response.errorCode == "invalid_signature")
        #expect(try s.events().isEmpty)
        #expect(try s.status(order) == .pendingPayment)
        let unsigned = try s.webhook("mockpay", body: body, contentType: "application/json")
        #expect(unsigned.status == 400)
        #expect(unsigned.errorCode == "invalid_signature")
    }

    @Test func staleTimestampIs400InvalidSignature() throws {
        let s = try PaymentAPIScenario()
        let order = try s.placeOrder()

        let response = try s.mockpay(s.mockpayBody(order, event: "evt_1"), timestamp: s.now - 301)

        #expect(response.status == 400)
        #expect(response.errorCode == "invalid_signature")
        #expect(try s.events().isEmpty)
        #expect(try s.status(order) == .pendingPayment)
    }

    @Test func wrongAmountIs400AmountMismatchRecordedWithTheOrderUnchanged() throws {
        let s = try PaymentAPIScenario()
        let order = try s.placeOrder()

        let response = try s.mockpay(s.mockpayBody(order, event: "evt_cheap", amount: 1))

        #expect(response.status == 400)
        #expect(response.errorCode == "amount_mismatch")
        #expect(try s.events() == ["evt_cheap succeeded amount_mismatch"])
        #expect(try s.status(order) == .pendingPayment)
        #expect(try s.sales() == 0)
    }

    @Test func duplicateEventIs200WithNoSecondEffect() throws {
        let s = try PaymentAPIScenario()
        let order = try s.placeOrder(quantity: 3)
        let body = s.mockpayBody(order, event: "evt_1")

        let first = try s.mockpay(body)
        let second = try s.mockpay(body)

        #expect(first.status == 200)
        #expect(second.status == 200)
        #expect(second.text == #"{"received":true}"#)
        #expect(try s.events() == ["evt_1 succeeded paid"])
        #expect(try s.sales() == 3)
    }

    @Test func tenConcurrentReplaysThroughTheAPIChangeTheOrderOnce() throws {
        let s = try PaymentAPIScenario()
        let order = try s.placeOrder(quantity: 2)
        let body = s.mockpayBody(order, event: "evt_race")
        let statuses = Outcomes<Int>()
        race(10) { _ in statuses.record((try? s.mockpay(body).status) ?? -1) }

        #expect(statuses.all == Array(repeating: 200, count: 10))
        #expect(try s.events() == ["evt_race succeeded paid"])
        #expect(try s.sales() == 2)
        #expect(try s.status(order) == .paid)
    }

    @Test func failedAfterSucceededLeavesTheOrderPaidAndSucceededAfterFailedPays() throws {
        let s = try PaymentAPIScenario()
        let first = try s.placeOrder()
        #expect(try s.mockpay(s.mockpayBody(first, event: "evt_a1")).status == 200)
        #expect(try s.mockpay(s.mockpayBody(first, event: "evt_a2", status: "failed")).status == 200)
        #expect(try s.status(first) == .paid)

        let second = try s.placeOrder()
        #expect(try s.mockpay(s.mockpayBody(second, event: "evt_b1", status: "failed")).status == 200)
        #expect(try s.status(second) == .pendingPayment)
        #expect(try s.mockpay(s.mockpayBody(second, event: "evt_b2")).status == 200)
        #expect(try s.status(second) == .paid)
        #expect(try s.sales() == 4)
    }

    @Test func successForACancelledOrderIsAcknowledgedAndFlaggedForRefund() throws {
        let s = try PaymentAPIScenario()
        let order = try s.placeOrder()
        #expect(try s.app.send("POST", "/api/v1/orders/\(order.id.rawValue)/cancel", token: s.token).status == 200)

        let response = try s.mockpay(s.mockpayBody(order, event: "evt_late"))

        #expect(response.status == 200)
        #expect(try s.status(order) == .cancelled)
        #expect(try s.events() == ["evt_late succeeded needs_refund"])
        let statuses = try s.shop.pool.read { db in
            try db.query("SELECT status FROM payments WHERE order_id = \(order.id)").map { try $0.string("status") }
        }
        #expect(statuses == ["needs_refund"])
    }

    @Test func unknownProviderIs404() throws {
        let s = try PaymentAPIScenario()
        let response = try s.webhook("paypal", body: Array("{}".utf8), contentType: "application/json")
        #expect(response.status == 404)
        #expect(response.errorCode == "not_found")
    }

    @Test func providerWithoutConfiguredKeysIs422ProviderUnavailable() throws {
        let s = try PaymentAPIScenario { $0.payments.mockpaySecret = PaymentKeys.mockpaySecret }
        let order = try s.placeOrder()
        let wechat = try s.webhook("wechatpay", body: Array(WechatXML.document(["return_code": "SUCCESS"]).utf8),
                                   contentType: "text/xml")
        #expect(wechat.status == 422)
        #expect(wechat.errorCode == "provider_unavailable")
        let alipay = try s.webhook("alipay", body: Array("notify_id=1".utf8), contentType: "application/x-www-form-urlencoded")
        #expect(alipay.status == 422)
        #expect(alipay.errorCode == "provider_unavailable")
        #expect(try s.status(order) == .pendingPayment)
    }

    @Test func wechatNotifyIsAnsweredInWeChatsOwnFormat() throws {
        let s = try PaymentAPIScenario()
        let order = try s.placeOrder()

        let response = try s.webhook("wechatpay", body: s.wechatBody(order, transaction: "4200000001"), contentType: "text/xml")

        #expect(response.status == 200)
        #expect(response.text == "<xml><return_code><![CDATA[SUCCESS]]></return_code><return_msg><![CDATA[OK]]></return_msg></xml>")
        #expect(try s.status(order) == .paid)
    }

    @Test func wechatTamperedNotifyIs400InvalidSignature() throws {
        let s = try PaymentAPIScenario()
        let order = try s.placeOrder()
        let signed = String(decoding: s.wechatBody(order, transaction: "4200000002"), as: UTF8.self)
        let tampered = signed.replacingOccurrences(of: "<total_fee><![CDATA[\(order.totalCents)]]>", with: "<total_fee><![CDATA[1]]>")
        #expect(tampered != signed)

        let response = try s.webhook("wechatpay", body: Array(tampered.utf8), contentType: "text/xml")

        #expect(response.status == 400)
        #expect(response.errorCode == "invalid_signature")
        #expect(try s.status(order) == .pendingPayment)
    }

    @Test func wechatXMLWithADoctypeIsRefused() throws {
        let s = try PaymentAPIScenario()
        let order = try s.placeOrder()
        let signed = String(decoding: s.wechatBody(order, transaction: "4200000003"), as: UTF8.self)
        let xxe = #"<!DOCTYPE xml [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>"# + signed.replacingOccurrences(
            of: "<nonce_str><![CDATA[5d2b6c2a8db53831f7eda20af46e531c]]></nonce_str>", with: "<nonce_str>&xxe;</nonce_str>")

        let response = try s.webhook("wechatpay", body: Array(xxe.utf8), contentType: "text/xml")

        #expect(response.status == 400)
        #expect(!response.text.contains("root:"))
        #expect(try s.events().isEmpty)
        #expect(try s.status(order) == .pendingPayment)
    }

    @Test func alipayNotifyIsAnsweredWithBareSuccess() throws {
        let s = try PaymentAPIScenario()
        let order = try s.placeOrder()

        let response = try s.webhook("alipay", body: try s.alipayBody(order, notify: "000001"),
                                     contentType: "application/x-www-form-urlencoded; charset=utf-8")

        #expect(response.status == 200)
        #expect(response.text == "success")
        #expect(try s.status(order) == .paid)
    }

    @Test func alipayNotifyByAnotherKeyOrForAnotherAppIsRefused() throws {
        let s = try PaymentAPIScenario()
        let order = try s.placeOrder()

        let forged = try s.webhook("alipay", body: try s.alipayBody(order, notify: "000002", privateKeyPEM: PaymentKeys.otherPrivatePEM),
                                   contentType: "application/x-www-form-urlencoded")
        #expect(forged.status == 400)
        #expect(forged.errorCode == "invalid_signature")

        let otherApp = try s.webhook("alipay", body: try s.alipayBody(order, notify: "000003", appID: "2021000000000009"),
                                     contentType: "application/x-www-form-urlencoded")
        #expect(otherApp.status == 400)
        #expect(otherApp.text != "success")
        #expect(try s.events().isEmpty)
        #expect(try s.status(order) == .pendingPayment)
    }

    @Test func alipayWaitBuyerPayIsAcknowledgedAndRecordedButDoesNotPay() throws {
        let s = try PaymentAPIScenario()
        let order = try s.placeOrder()

        let response = try s.webhook("alipay", body: try s.alipayBody(order, notify: "000004", status: "WAIT_BUYER_PAY"),
                                     contentType: "application/x-www-form-urlencoded")

        #expect(response.status == 200)
        #expect(response.text == "success")
        #expect(try s.events() == ["000004 ignored recorded"])
        #expect(try s.status(order) == .pendingPayment)
    }
}

/// `shop pay simulate` as an operator runs it: the built binary against a real server on the same database.
@Suite("shop pay simulate")
struct PaymentSimulateCommandTests {
    /// The `shop` executable built beside this test bundle, if there is one.
    static var binary: URL? {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [directory, directory.deletingLastPathComponent()] {
            let url = candidate.appendingPathComponent("shop")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    @Test(.enabled(if: binary != nil, "the shop executable is not built beside the tests"))
    func simulatedMockpaySuccessPaysTheOrderOverHTTP() throws {
        let s = try PaymentAPIScenario()
        // The binary signs with the wall clock; bring the shop's clock to it so the signature is fresh.
        s.app.clock.advance(by: Date().timeIntervalSince(s.app.clock.now))
        let order = try s.placeOrder(quantity: 2)
        let server = Server(options: ServerOptions(host: "127.0.0.1", port: 0, threads: 2), responder: s.app.api.responder)
        try server.start()
        defer { server.stop(grace: 5) }

        let (status, output) = try Self.run(["pay", "simulate", order.number, "--url", "http://127.0.0.1:\(server.port)"],
                                            database: s.shop.config)

        #expect(status == 0, "\(output)")
        #expect(output.contains("order \(order.number) is now paid"), "\(output)")
        #expect(output.contains("-> 200"))
        #expect(output.contains(#"{"received":true}"#))
        #expect(try s.status(order) == .paid)
        let (again, second) = try Self.run(["pay", "simulate", order.number, "--url", "http://127.0.0.1:\(server.port)"],
                                           database: s.shop.config)
        #expect(again == 0 && second.contains("already paid"), "\(second)")
        #expect(try s.sales() == 2)
        #expect(try s.events().count == 1)
    }

    @Test(.enabled(if: binary != nil, "the shop executable is not built beside the tests"))
    func simulatingForAnUnknownOrderFailsWithExitStatus1() throws {
        let s = try PaymentAPIScenario()
        let (status, output) = try Self.run(["pay", "simulate", "20991231999999", "--url", "http://127.0.0.1:9"],
                                            database: s.shop.config)
        #expect(status == 1, "\(output)")
        #expect(try s.events().isEmpty)
    }

    /// Runs `shop` in the repository (for `Config/` and `Migrations/`) on the database of `database`
    /// (either engine); answers exit status and output.
    static func run(_ arguments: [String], database: Config) throws -> (Int32, String) {
        guard let executable = binary else { throw FixtureError("no shop executable") }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = Repository.root()
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SHOP_") }
        environment.merge(TestDatabase.environment(for: database)) { $1 }
        environment["SHOP_PAYMENTS_MOCKPAY_SECRET"] = PaymentKeys.mockpaySecret
        environment["SHOP_AUTH_PEPPER"] = TestShop.pepper  // passwords the command sets verify in the test shop
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
