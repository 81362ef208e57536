import Foundation
import HTTP
@testable import ShopAPI
@testable import ShopCore
import ShopTestSupport
import Testing

/// Web payment (issue 31): `POST /orders/{id}/payments` with `channel` — Alipay's cashier for a
/// phone (`wap`) or a computer (`page`), WeChat Pay's QR code (`native`) and H5 page (`h5`) —
/// checked by the fake gateways, which verify the shop's signatures and trade types.
@Suite("Web payment API")
struct WebPaymentAPITests {
    /// A scenario whose providers are the fakes given.
    static func scenario(wechat: FakeWechatPayGateway? = nil, alipay: FakeAlipayGateway? = nil,
                         _ more: @escaping (inout Config) -> Void = { _ in }) throws -> PaymentAPIScenario {
        try PaymentAPIScenario {
            PaymentKeys.configure(&$0, wechatGateway: wechat, alipayGateway: alipay)
            more(&$0)
        }
    }

    static func start(_ s: PaymentAPIScenario, _ order: Order, _ body: [String: String], from clientIP: String = "10.0.0.1",
                      headers: [(String, String)] = []) throws -> TestResponse {
        try s.app.send("POST", "/api/v1/orders/\(order.id.rawValue)/payments", json: body, token: s.token, headers: headers,
                       from: clientIP)
    }

    static func bizContent(_ fields: [String: String]) throws -> [String: String] {
        let text = try #require(fields["biz_content"])
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String])
    }

    // MARK: Alipay

    @Test func alipayPageAnswersASignedCashierURLThatAlipayAcceptsWithoutAnyCall() throws {
        let gateway = try FakeAlipayGateway()
        let s = try Self.scenario(alipay: gateway) { $0.app.publicURL = "https://flowers.example/" }
        let order = try s.placeOrder()

        let response = try Self.start(s, order, ["provider": "alipay", "channel": "page"])

        #expect(response.status == 201)
        let intent = try response.decode(PaymentController.IntentResponse.self)
        #expect(Set(intent.payParams.keys) == ["pay_url"])
        let url = try #require(intent.payParams["pay_url"])
        #expect(url.hasPrefix(gateway.gatewayURL + "?"))
        #expect(gateway.methods.isEmpty, "the URL is built by the shop; Alipay is not called")
        let fields = try gateway.openWebPay(url: url)   // throws unless the merchant's RSA2 signature verifies
        #expect(fields["method"] == "alipay.trade.page.pay")
        #expect(fields["return_url"] == "https://flowers.example/#/orders?order=\(order.id.rawValue)&returned=1")
        #expect(fields["notify_url"] == "https://shop.floral.example/api/v1/webhooks/payments/alipay")
        let biz = try Self.bizContent(fields)
        #expect(biz["product_code"] == "FAST_INSTANT_TRADE_PAY")
        #expect(biz["out_trade_no"] == order.number)
        #expect(biz["total_amount"] == "129.00")
        #expect(biz["quit_url"] == nil)
    }

    @Test func alipayWapAnswersAPhoneCashierURLWithItsQuitURL() throws {
        let gateway = try FakeAlipayGateway()
        let s = try Self.scenario(alipay: gateway)
        let order = try s.placeOrder()

        // development without app.public_url: the address the request came to
        let response = try Self.start(s, order, ["provider": "alipay", "channel": "wap"], headers: [("Host", "shop.test:8080")])

        #expect(response.status == 201)
        let url = try #require(try response.decode(PaymentController.IntentResponse.self).payParams["pay_url"])
        let fields = try gateway.openWebPay(url: url)
        #expect(fields["method"] == "alipay.trade.wap.pay")
        #expect(fields["return_url"] == "http://shop.test:8080/#/orders?order=\(order.id.rawValue)&returned=1")
        let biz = try Self.bizContent(fields)
        #expect(biz["product_code"] == "QUICK_WAP_WAY")
        #expect(biz["quit_url"] == "http://shop.test:8080/#/orders?order=\(order.id.rawValue)")
    }

    @Test func theFakeAlipayRefusesATamperedURLAWrongProductCodeAndAnAppOrderString() throws {
        let gateway = try FakeAlipayGateway()
        let s = try Self.scenario(alipay: gateway)
        let order = try s.placeOrder()
        let url = try #require(try Self.start(s, order, ["provider": "alipay", "channel": "page"])
            .decode(PaymentController.IntentResponse.self).payParams["pay_url"])

        let cheaper = url.replacingOccurrences(of: "129.00", with: "1.00")
        #expect(cheaper != url)
        #expect(throws: FakeGatewayError.self) { try gateway.openWebPay(url: cheaper) }
        let elsewhere = url.replacingOccurrences(of: "returned%3D1", with: "returned%3D2")
        #expect(elsewhere != url)
        #expect(throws: FakeGatewayError.self) { try gateway.openWebPay(url: elsewhere) }

        // a correctly signed page.pay whose product code is the app's
        var fields = try FakeAlipayGateway.decodeForm(String(url.split(separator: "?", maxSplits: 1)[1]))
        fields["biz_content"] = try #require(fields["biz_content"]).replacingOccurrences(of: "FAST_INSTANT_TRADE_PAY", with: "QUICK_MSECURITY_PAY")
        fields["sign"] = try PaymentSigner.rsaSHA256(PaymentSigner.alipayRequestContent(fields), privateKeyPEM: PaymentKeys.merchantPrivatePEM)
        let wrongProduct = gateway.gatewayURL + "?" + String(decoding: PaymentSigner.form(fields.map { ($0.key, $0.value) }), as: UTF8.self)
        #expect(throws: FakeGatewayError.self) { try gateway.openWebPay(url: wrongProduct) }

        let app = try s.app.send("POST", "/api/v1/orders/\(order.id.rawValue)/payments", json: ["provider": "alipay"], token: s.token)
        let orderString = try #require(try app.decode(PaymentController.IntentResponse.self).payParams["order_string"])
        #expect(throws: FakeGatewayError.self) { try gateway.openWebPay(url: gateway.gatewayURL + "?" + orderString) }
        #expect(gateway.trades.isEmpty)
        // the genuine URL still opens the cashier
        #expect(try gateway.openWebPay(url: url)["method"] == "alipay.trade.page.pay")
    }

    @Test func aPagePaymentIsPaidByAlipaysSignedNotificationOnly() throws {
        let gateway = try FakeAlipayGateway()
        let s = try Self.scenario(alipay: gateway)
        let order = try s.placeOrder()
        let url = try #require(try Self.start(s, order, ["provider": "alipay", "channel": "page"])
            .decode(PaymentController.IntentResponse.self).payParams["pay_url"])
        try gateway.openWebPay(url: url)
        #expect(try s.status(order) == .pendingPayment)

        let notification = try gateway.pay(order.number)   // the buyer pressed 付款 on the cashier
        let answer = try s.webhook("alipay", body: notification, contentType: "application/x-www-form-urlencoded")

        #expect(answer.status == 200 && answer.text == "success")
        #expect(try s.status(order) == .paid)
    }

    @Test func aForgedReturnFromAPaymentPageChangesNothing() throws {
        let gateway = try FakeAlipayGateway()
        let s = try Self.scenario(alipay: gateway)
        let order = try s.placeOrder()
        #expect(try Self.start(s, order, ["provider": "alipay", "channel": "page"]).status == 201)
        // what Alipay adds to return_url, made up; then the same signed with Alipay's own key: a
        // return is never trusted, signed or not
        var forged = ["charset": "utf-8", "out_trade_no": order.number, "method": "alipay.trade.page.pay.return",
                      "total_amount": "129.00", "trade_no": "2026120122001499999999", "auth_app_id": PaymentKeys.alipayAppID,
                      "version": "1.0", "app_id": PaymentKeys.alipayAppID, "seller_id": PaymentKeys.alipaySellerID,
                      "timestamp": "2026-12-01 12:00:01", "trade_status": "TRADE_SUCCESS", "sign_type": "RSA2", "sign": "Zm9yZ2Vk"]
        var signed = forged
        signed["sign"] = try PaymentSigner.rsaSHA256(PaymentSigner.alipayContent(signed), privateKeyPEM: PaymentKeys.alipayPrivatePEM)
        forged["returned"] = "1"

        for query in [forged, signed] {
            let page = try s.app.send("GET", "/", query: query, token: s.token)
            #expect(page.status == 200)
            #expect(page.headers["Content-Type"]?.hasPrefix("text/html") == true)
            let read = try s.app.send("GET", "/api/v1/orders/\(order.id.rawValue)", query: query, token: s.token)
            #expect(try read.decode(OrderResponse.self).status == .pendingPayment)
            let webhookByGET = try s.app.send("GET", "/api/v1/webhooks/payments/alipay", query: query)
            #expect(webhookByGET.status >= 400)
        }

        #expect(try s.status(order) == .pendingPayment)
        #expect(try s.events().isEmpty)
        #expect(try s.sales() == 0)
        let statuses = try s.shop.pool.read { db in
            try db.query("SELECT status FROM payments WHERE order_id = \(order.id)").map { try $0.decode("status", as: String.self) }
        }
        #expect(statuses == ["pending"])
    }

    // MARK: WeChat Pay

    @Test func wechatNativeAnswersACodeURLFromANativeUnifiedOrderAndKeepsIt() throws {
        let gateway = try FakeWechatPayGateway()
        let s = try Self.scenario(wechat: gateway)
        let order = try s.placeOrder()

        let first = try Self.start(s, order, ["provider": "wechatpay", "channel": "native"])
        let again = try Self.start(s, order, ["provider": "wechatpay", "channel": "native"])

        #expect(first.status == 201 && again.status == 201)
        let intent = try first.decode(PaymentController.IntentResponse.self)
        #expect(Set(intent.payParams.keys) == ["code_url"])
        let codeURL = try #require(intent.payParams["code_url"])
        #expect(codeURL.hasPrefix("weixin://wxpay/bizpayurl?pr="))
        let kept = try again.decode(PaymentController.IntentResponse.self)
        #expect(kept.paymentID == intent.paymentID && kept.payParams == intent.payParams)
        let calls = gateway.requests.filter { $0.path == "/pay/unifiedorder" }
        #expect(calls.count == 1)
        // the fake answered, so it verified the MD5 signature; the trade is a NATIVE one
        let call = try #require(calls.first).fields
        #expect(call["trade_type"] == "NATIVE")
        #expect(call["product_id"] == order.number)
        #expect(call["total_fee"] == "12900")
        #expect(gateway.trade(order.number)?.tradeType == "NATIVE")

        // scanned and paid: the signed notification pays the order
        let (number, notification) = try gateway.scan(codeURL: codeURL)
        #expect(number == order.number)
        #expect(try s.webhook("wechatpay", body: notification, contentType: "text/xml").status == 200)
        #expect(try s.status(order) == .paid)
    }

    @Test func wechatH5AnswersTheMwebURLWithTheReturnPageAndTheBuyersAddress() throws {
        let gateway = try FakeWechatPayGateway()
        let s = try Self.scenario(wechat: gateway)
        let order = try s.placeOrder()

        let response = try Self.start(s, order, ["provider": "wechatpay", "channel": "h5"], from: "198.51.100.23")

        #expect(response.status == 201)
        let intent = try response.decode(PaymentController.IntentResponse.self)
        #expect(Set(intent.payParams.keys) == ["mweb_url"])
        let mweb = try #require(intent.payParams["mweb_url"])
        #expect(mweb.hasPrefix(gateway.baseURL + "/cgi-bin/mmpayweb-bin/checkmweb?prepay_id="))
        let redirect = "https://shop.floral.example/#/orders?order=\(order.id.rawValue)&returned=1"
        let query = URLComponents(string: mweb)?.queryItems ?? []
        #expect(query.last?.name == "redirect_url" && query.last?.value == redirect)
        #expect(mweb.hasSuffix("%2F%23%2Forders%3Forder%3D\(order.id.rawValue)%26returned%3D1"), "the # and & of the page are escaped")
        let call = try #require(gateway.requests.last { $0.path == "/pay/unifiedorder" }).fields
        #expect(call["trade_type"] == "MWEB")
        #expect(call["spbill_create_ip"] == "198.51.100.23")
        let scene = try #require(call["scene_info"])
        let info = try #require(try JSONSerialization.jsonObject(with: Data(scene.utf8)) as? [String: [String: String]])
        #expect(info["h5_info"]?["type"] == "Wap")
        #expect(info["h5_info"]?["wap_url"] == "https://shop.floral.example")

        // an mweb_url lives five minutes: kept within them, asked for again after
        #expect(try Self.start(s, order, ["provider": "wechatpay", "channel": "h5"]).decode(PaymentController.IntentResponse.self)
            .payParams == intent.payParams)
        #expect(gateway.requests.filter { $0.path == "/pay/unifiedorder" }.count == 1)
        s.app.clock.advance(by: 300)
        #expect(try Self.start(s, order, ["provider": "wechatpay", "channel": "h5"]).status == 201)
        #expect(gateway.requests.filter { $0.path == "/pay/unifiedorder" }.count == 2)
    }

    // MARK: channels

    @Test func eachChannelKeepsItsOwnAnswer() throws {
        let gateway = try FakeAlipayGateway()
        let s = try Self.scenario(alipay: gateway)
        let order = try s.placeOrder()

        let page = try Self.start(s, order, ["provider": "alipay", "channel": "page"]).decode(PaymentController.IntentResponse.self)
        let pageAgain = try Self.start(s, order, ["provider": "alipay", "channel": "page"]).decode(PaymentController.IntentResponse.self)
        let wap = try Self.start(s, order, ["provider": "alipay", "channel": "wap"]).decode(PaymentController.IntentResponse.self)
        let app = try Self.start(s, order, ["provider": "alipay"]).decode(PaymentController.IntentResponse.self)
        let appAgain = try Self.start(s, order, ["provider": "alipay", "channel": "app"]).decode(PaymentController.IntentResponse.self)

        #expect(pageAgain.paymentID == page.paymentID && pageAgain.payParams == page.payParams)
        #expect(wap.paymentID != page.paymentID && wap.payParams["pay_url"] != page.payParams["pay_url"])
        #expect(app.payParams["order_string"] != nil && app.paymentID != wap.paymentID)
        #expect(appAgain.paymentID == app.paymentID)
        let channels = try s.shop.pool.read { db in
            try db.query("SELECT channel FROM payments WHERE order_id = \(order.id) ORDER BY id").map {
                try $0.decode("channel", as: String.self)
            }
        }
        #expect(channels == ["page", "wap", "app"])
    }

    @Test func aChannelThatIsUnknownOrNotTheProvidersIs400NamingTheField() throws {
        let s = try Self.scenario()
        let order = try s.placeOrder()
        for body in [["provider": "alipay", "channel": "native"], ["provider": "wechatpay", "channel": "page"],
                     ["provider": "mockpay", "channel": "wap"], ["provider": "alipay", "channel": "qr"],
                     ["provider": "wechatpay", "channel": "H5"]] {
            let response = try Self.start(s, order, body, headers: [("Accept-Language", "en")])
            #expect(response.status == 400, "\(body)")
            #expect(response.error?.code == "validation_failed", "\(body)")
            #expect(response.error?.field == "channel", "\(body)")
        }
        let refused = try Self.start(s, order, ["provider": "alipay", "channel": "native"])
        #expect(refused.error?.message.contains("支付宝") == true)
        let rows = try s.shop.pool.read { db in try db.scalar("SELECT COUNT(*) FROM payments WHERE order_id = \(order.id)", as: Int.self) }
        #expect(rows == 0)
    }
}

/// The fake gateways check what the shop sends them as the providers would.
@Suite("Web payment fakes")
struct WebPaymentFakeGatewayTests {
    /// A unified order as a merchant would post it, signed with `key`.
    static func unifiedOrder(_ gateway: FakeWechatPayGateway, _ edit: (inout [String: String]) -> Void,
                             key: String = PaymentKeys.wechatAPIKey) -> [String: String] {
        var fields = ["appid": PaymentKeys.wechatAppID, "mch_id": PaymentKeys.wechatMchID, "nonce_str": "5K8264ILTKCH16CQ2502SI8ZNMTM67VS",
                      "body": "红玫瑰花束 11枝", "out_trade_no": "F202612010001", "total_fee": "12900", "fee_type": "CNY",
                      "spbill_create_ip": "198.51.100.23", "notify_url": "https://shop.floral.example/api/v1/webhooks/payments/wechatpay",
                      "trade_type": "NATIVE", "product_id": "F202612010001"]
        edit(&fields)
        fields["sign"] = PaymentSigner.wechat(fields, key: key)
        let answer = NotificationDelivery.post(PaymentSigner.wechatXML(fields), to: gateway.baseURL + "/pay/unifiedorder",
                                               contentType: NotificationDelivery.xml)
        return FakeWechatPayGateway.parse(Array(answer.utf8))
    }

    @Test func fakeWechatAnswersNativeAndMwebAndRefusesBadSignaturesAndWrongTradeTypes() throws {
        let gateway = try FakeWechatPayGateway()

        let native = Self.unifiedOrder(gateway) { _ in }
        #expect(native["result_code"] == "SUCCESS" && native["trade_type"] == "NATIVE")
        #expect(native["code_url"]?.hasPrefix("weixin://") == true)
        let mweb = Self.unifiedOrder(gateway) {
            $0["out_trade_no"] = "F202612010002"
            $0["trade_type"] = "MWEB"
            $0["product_id"] = nil
            $0["scene_info"] = #"{"h5_info":{"type":"Wap","wap_url":"https://shop.floral.example","wap_name":"Floral"}}"#
        }
        #expect(mweb["result_code"] == "SUCCESS" && mweb["mweb_url"]?.hasPrefix(gateway.baseURL) == true)

        let forged = Self.unifiedOrder(gateway, { $0["out_trade_no"] = "F202612010003" }, key: String(PaymentKeys.wechatAPIKey.reversed()))
        #expect(forged["return_code"] == "FAIL" && forged["return_msg"] == "签名错误")
        let jsapi = Self.unifiedOrder(gateway) { $0["out_trade_no"] = "F202612010004"; $0["trade_type"] = "JSAPI" }
        #expect(jsapi["result_code"] == "FAIL" && jsapi["err_code"] == "PARAM_ERROR")
        let nativeWithoutProduct = Self.unifiedOrder(gateway) { $0["out_trade_no"] = "F202612010005"; $0["product_id"] = nil }
        #expect(nativeWithoutProduct["result_code"] == "FAIL")
        let mwebWithoutScene = Self.unifiedOrder(gateway) { $0["out_trade_no"] = "F202612010006"; $0["trade_type"] = "MWEB" }
        #expect(mwebWithoutScene["result_code"] == "FAIL")
        let otherTypeSameOrder = Self.unifiedOrder(gateway) { $0["trade_type"] = "APP"; $0["product_id"] = nil }
        #expect(otherTypeSameOrder["result_code"] == "FAIL" && otherTypeSameOrder["err_code"] == "INVALID_REQUEST")
        #expect(Set(gateway.trades.keys) == ["F202612010001", "F202612010002"])
        #expect(throws: FakeGatewayError.self) { try gateway.scan(codeURL: "weixin://wxpay/bizpayurl?pr=unknown") }
    }
}
