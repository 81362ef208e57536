import Crypto
import Foundation
import HTTP
import Synchronization

/// Alipay on loopback, as far as the shop uses it: the phone SDK taking an app pay order string
/// (`openApp`), the buyer paying (`pay`, answering the signed async notification), and the
/// OpenAPI gateway answering `alipay.trade.query`. It checks the merchant's RSA2 signatures with its
/// own reading of Alipay's rules (`PaymentSigner.alipayRequestContent`) and signs what it sends
/// with Alipay's key; it can be told to fail or to stay silent.
public final class FakeAlipayGateway: Sendable {
    public enum Mode: Sendable {
        case normal
        /// `code` 40004 with this `sub_code` and `sub_msg`, signed.
        case businessError(subCode: String, message: String)
        /// No answer for this many seconds.
        case silent(seconds: Double)
    }

    public struct Trade: Sendable {
        public let orderNumber: String
        public let totalAmount: String
        public let subject: String
        public let notifyURL: String
        public var tradeNo: String?
        /// The request that opened it: `alipay.trade.app.pay`, `.wap.pay` or `.page.pay`.
        public var method = "alipay.trade.app.pay"
        /// Where the cashier sends the browser after paying (web payment only).
        public var returnURL: String? = nil
    }

    struct State {
        var mode = Mode.normal
        var trades: [String: Trade] = [:]
        var methods: [String] = []
        var counter = 0
        /// Refunds made, by `out_request_no`: the order number.
        var refunds: [String: String] = [:]
        /// Their amounts in cents, by `out_request_no` (none for one recorded by hand).
        var refundCents: [String: Int64] = [:]
    }

    /// The merchant's public key (checks the shop's requests) and Alipay's private key (signs answers).
    let merchantKey: RSAPublicKey
    let alipayKey: RSAPrivateKey
    public let appID: String
    public let sellerID: String
    private let state = Mutex(State())
    private let server: LoopbackServer<FakeAlipayGateway>

    public var gatewayURL: String { "http://127.0.0.1:\(server.port)/gateway.do" }

    public init(merchantPublicPEM: String = FakeGatewayKeys.merchantPublicPEM, alipayPrivatePEM: String = FakeGatewayKeys.alipayPrivatePEM,
                appID: String = FakeGatewayKeys.alipayAppID, sellerID: String = FakeGatewayKeys.alipaySellerID, port: UInt16 = 0) throws {
        merchantKey = try RSAPublicKey(pem: merchantPublicPEM)
        alipayKey = try RSAPrivateKey(pem: alipayPrivatePEM)
        self.appID = appID
        self.sellerID = sellerID
        server = LoopbackServer(port: port) { gateway, request in gateway.handle(request) }
        try server.start(serving: self)
    }

    public func stop() { server.stop() }

    public func setMode(_ mode: Mode) { state.withLock { $0.mode = mode } }

    /// The `method` of every gateway call, oldest first.
    public var methods: [String] { state.withLock { $0.methods } }

    public func trade(_ orderNumber: String) -> Trade? { state.withLock { $0.trades[orderNumber] } }

    /// Every trade, by order number.
    public var trades: [String: Trade] { state.withLock { $0.trades } }

    /// What the Alipay app does with an order string: decodes it, checks the merchant's signature
    /// and the parameters, and opens the trade. Answers the decoded parameters.
    @discardableResult
    public func openApp(orderString: String) throws -> [String: String] {
        let fields = try Self.decodeForm(orderString)
        try verify(fields)
        guard fields["method"] == "alipay.trade.app.pay", fields["charset"] == "utf-8", fields["version"] == "1.0",
              let notify = fields["notify_url"], notify.hasPrefix("http"),
              let biz = fields["biz_content"].flatMap({ try? JSONSerialization.jsonObject(with: Data($0.utf8)) }) as? [String: String],
              let number = biz["out_trade_no"], let amount = biz["total_amount"], let subject = biz["subject"], !subject.isEmpty,
              biz["product_code"] == "QUICK_MSECURITY_PAY" else {
            throw FakeGatewayError("not an app pay request: \(fields)")
        }
        state.withLock { state in
            if state.trades[number] == nil {
                state.trades[number] = Trade(orderNumber: number, totalAmount: amount, subject: subject, notifyURL: notify, tradeNo: nil)
            }
        }
        return fields
    }

    /// The buyer pays: the trade succeeds; answers the async notification Alipay would post (form
    /// body, RSA2-signed), to deliver, lose or deliver twice.
    public func pay(_ orderNumber: String) throws -> [UInt8] {
        let trade = try state.withLock { state -> Trade in
            guard var trade = state.trades[orderNumber] else { throw FakeGatewayError("Alipay knows no order \(orderNumber)") }
            state.counter += 1
            trade.tradeNo = trade.tradeNo ?? String(format: "2026120122001%08d", state.counter)
            state.trades[orderNumber] = trade
            return trade
        }
        var fields = ["notify_time": "2026-12-01 12:00:00", "notify_type": "trade_status_sync",
                      "notify_id": "ntf" + UUID().uuidString.replacingOccurrences(of: "-", with: ""), "app_id": appID,
                      "seller_id": sellerID, "charset": "utf-8", "version": "1.0", "out_trade_no": orderNumber,
                      "trade_no": trade.tradeNo ?? "", "trade_status": "TRADE_SUCCESS", "total_amount": trade.totalAmount,
                      "subject": trade.subject]
        fields["sign"] = Base64.encode(try alipayKey.signSHA256(Array(PaymentSigner.alipayContent(fields).utf8)))
        fields["sign_type"] = "RSA2"
        return PaymentSigner.form(fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// The web channels: the product code each method must carry.
    static let webMethods = ["alipay.trade.wap.pay": "QUICK_WAP_WAY", "alipay.trade.page.pay": "FAST_INSTANT_TRADE_PAY"]

    /// What Alipay's gateway does with a browser opening a signed `alipay.trade.wap.pay` or
    /// `alipay.trade.page.pay` URL: checks the merchant's signature (over every parameter but
    /// `sign`, `return_url` and `notify_url` included), the method and its `product_code`, and opens
    /// the trade with its notify and return URLs. Answers the decoded parameters.
    @discardableResult
    public func openWebPay(url: String) throws -> [String: String] {
        guard let query = url.split(separator: "?", maxSplits: 1).dropFirst().first else {
            throw FakeGatewayError("not a gateway URL with a query: \(url)")
        }
        return try openWebPay(fields: try Self.decodeForm(String(query)))
    }

    func openWebPay(fields: [String: String]) throws -> [String: String] {
        try verify(fields)
        guard let method = fields["method"], let productCode = Self.webMethods[method] else {
            throw FakeGatewayError("not a web pay method: \(fields["method"] ?? "none")")
        }
        guard fields["charset"] == "utf-8", fields["version"] == "1.0", let notify = fields["notify_url"], notify.hasPrefix("http"),
              fields["return_url"].map({ $0.hasPrefix("http") }) ?? true,
              let biz = fields["biz_content"].flatMap({ try? JSONSerialization.jsonObject(with: Data($0.utf8)) }) as? [String: String],
              let number = biz["out_trade_no"], let amount = biz["total_amount"], Self.cents(amount) != nil,
              let subject = biz["subject"], !subject.isEmpty else {
            throw FakeGatewayError("not a web pay request: \(fields)")
        }
        guard biz["product_code"] == productCode else {
            throw FakeGatewayError("\(method) takes product_code \(productCode), not \(biz["product_code"] ?? "none")")
        }
        try state.withLock { state in
            state.methods.append(method)
            if let existing = state.trades[number] {
                guard existing.totalAmount == amount else { throw FakeGatewayError("ACQ.CONTEXT_INCONSISTENT: \(number) has another amount") }
                state.trades[number]?.method = method
                state.trades[number]?.returnURL = fields["return_url"]
            } else {
                state.trades[number] = Trade(orderNumber: number, totalAmount: amount, subject: subject, notifyURL: notify, tradeNo: nil,
                                             method: method, returnURL: fields["return_url"])
            }
        }
        return fields
    }

    /// The buyer presses 付款 on the cashier: the trade is paid, the signed async notification is
    /// posted to its notify URL, and the answer is where the browser goes next: the return URL
    /// with Alipay's signed synchronous parameters (`method` = `<request method>.return`) added.
    public func payOnCashier(_ orderNumber: String) throws -> (returnURL: String?, delivery: String) {
        let notification = try pay(orderNumber)
        guard let trade = trade(orderNumber) else { throw FakeGatewayError("Alipay knows no order \(orderNumber)") }
        let delivery = NotificationDelivery.post(notification, to: trade.notifyURL, contentType: NotificationDelivery.form)
        guard let returnURL = trade.returnURL, var components = URLComponents(string: returnURL) else { return (nil, delivery) }
        var fields = ["charset": "utf-8", "out_trade_no": orderNumber, "method": trade.method + ".return",
                      "total_amount": trade.totalAmount, "trade_no": trade.tradeNo ?? "", "auth_app_id": appID, "version": "1.0",
                      "app_id": appID, "seller_id": sellerID, "timestamp": "2026-12-01 12:00:01"]
        fields["sign"] = Base64.encode(try alipayKey.signSHA256(Array(PaymentSigner.alipayContent(fields).utf8)))
        fields["sign_type"] = "RSA2"
        let added = String(decoding: PaymentSigner.form(fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }), as: UTF8.self)
        components.percentEncodedQuery = [components.percentEncodedQuery, added].compactMap { $0 }.joined(separator: "&")
        return (components.string ?? returnURL, delivery)
    }

    /// The cashier a browser sees at a signed web pay URL, and its 付款 button's answer.
    private func cashier(_ request: Request) -> Response {
        if request.method == "GET" {
            do {
                let fields = try openWebPay(fields: request.query)
                let biz = (fields["biz_content"].flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: String]) ?? [:]
                let number = biz["out_trade_no"] ?? ""
                return NotificationDelivery.payPage(title: "支付宝 收银台", lines: [biz["subject"] ?? "", "订单号 \(number)",
                                                                                 "￥\(biz["total_amount"] ?? "")"],
                                                    action: "/cashier/pay", fields: ["out_trade_no": number])
            } catch {
                return NotificationDelivery.errorPage("验签或参数错误：\(error)")
            }
        }
        guard let fields = try? Self.decodeForm(String(decoding: request.body, as: UTF8.self)), let number = fields["out_trade_no"],
              trade(number)?.method != "alipay.trade.app.pay" else {
            return NotificationDelivery.errorPage("没有这笔网页支付交易")
        }
        do {
            let (returnURL, _) = try payOnCashier(number)
            return returnURL.map(NotificationDelivery.redirect(to:)) ?? .text("支付成功 \(number)\n")
        } catch {
            return NotificationDelivery.errorPage("\(error)")
        }
    }

    fileprivate func handle(_ request: Request) -> Response {
        if request.method == "GET" && request.path == "/gateway.do" || request.method == "POST" && request.path == "/cashier/pay" {
            return cashier(request)
        }
        let mode = state.withLock { $0.mode }
        if case .silent(let seconds) = mode { Thread.sleep(forTimeInterval: seconds) }
        guard let fields = try? Self.decodeForm(String(decoding: request.body, as: UTF8.self)), let method = fields["method"] else {
            return .text("bad request", status: .badRequest)
        }
        state.withLock { $0.methods.append(method) }
        let name = method.replacingOccurrences(of: ".", with: "_") + "_response"
        do {
            try verify(fields)
        } catch {
            return answer(name, ["code": "40002", "msg": "Invalid Arguments", "sub_code": "isv.invalid-signature", "sub_msg": "验签出错"],
                          signed: false)
        }
        if case .businessError(let subCode, let message) = mode {
            return answer(name, ["code": "40004", "msg": "Business Failed", "sub_code": subCode, "sub_msg": message], signed: true)
        }
        guard let biz = fields["biz_content"].flatMap({ try? JSONSerialization.jsonObject(with: Data($0.utf8)) }) as? [String: String],
              let number = biz["out_trade_no"] else {
            return answer(name, ["code": "40002", "msg": "Invalid Arguments", "sub_code": "isv.missing-biz-content"], signed: true)
        }
        if method == "alipay.trade.refund" { return refund(name, number: number, biz: biz) }
        guard method == "alipay.trade.query" else {
            return answer(name, ["code": "40004", "msg": "Business Failed", "sub_code": "isv.invalid-method"], signed: true)
        }
        guard let trade = state.withLock({ $0.trades[number] }) else {
            return answer(name, ["code": "40004", "msg": "Business Failed", "sub_code": "ACQ.TRADE_NOT_EXIST", "sub_msg": "交易不存在"],
                          signed: true)
        }
        return answer(name, ["code": "10000", "msg": "Success", "out_trade_no": number, "trade_no": trade.tradeNo ?? "",
                             "trade_status": trade.tradeNo == nil ? "WAIT_BUYER_PAY" : "TRADE_SUCCESS",
                             "total_amount": trade.totalAmount, "buyer_logon_id": "159****5620"], signed: true)
    }

    /// The async notification Alipay posts to the trade's `notify_url` after a refund: the trade's
    /// fields plus `refund_fee` (all refunded so far), `gmt_refund` and `out_biz_no` (our
    /// `out_request_no`); `trade_status` TRADE_CLOSED after a full refund, TRADE_SUCCESS after a
    /// partial one. RSA2-signed by Alipay. `refundFee` (yuan) plays a notification for another amount.
    public func refundNotification(_ refundNumber: String, tradeStatus: String = "TRADE_CLOSED", refundFee: String? = nil) throws
        -> [UInt8] {
        let trade = try state.withLock { state -> Trade in
            guard let number = state.refunds[refundNumber], let trade = state.trades[number] else {
                throw FakeGatewayError("Alipay made no refund \(refundNumber)")
            }
            return trade
        }
        var fields = ["notify_time": "2026-12-01 12:30:01", "notify_type": "trade_status_sync",
                      "notify_id": "ntf" + UUID().uuidString.replacingOccurrences(of: "-", with: ""), "app_id": appID,
                      "seller_id": sellerID, "charset": "utf-8", "version": "1.0", "out_trade_no": trade.orderNumber,
                      "trade_no": trade.tradeNo ?? "", "trade_status": tradeStatus, "total_amount": trade.totalAmount,
                      "subject": trade.subject, "refund_fee": refundFee ?? trade.totalAmount, "gmt_refund": "2026-12-01 12:30:00.412",
                      "out_biz_no": refundNumber, "gmt_payment": "2026-12-01 12:00:00"]
        if tradeStatus == "TRADE_CLOSED" { fields["gmt_close"] = "2026-12-01 12:30:00" }
        fields["sign"] = Base64.encode(try alipayKey.signSHA256(Array(PaymentSigner.alipayContent(fields).utf8)))
        fields["sign_type"] = "RSA2"
        return PaymentSigner.form(fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// A paid trade refunded without the shop's call (by hand in the merchant platform, or a retry
    /// whose answer was lost), under `refundNumber`.
    public func recordRefund(orderNumber: String, refundNumber: String) throws {
        try state.withLock { state in
            guard state.trades[orderNumber]?.tradeNo != nil else { throw FakeGatewayError("Alipay holds no paid trade \(orderNumber)") }
            state.refunds[refundNumber] = orderNumber
        }
    }

    /// The refunds Alipay made, by `out_request_no`, each with its order number.
    public var refunds: [String: String] { state.withLock { $0.refunds } }

    private func refund(_ name: String, number: String, biz: [String: String]) -> Response {
        guard let requestNo = biz["out_request_no"], !requestNo.isEmpty, let amount = biz["refund_amount"] else {
            return answer(name, ["code": "40002", "msg": "Invalid Arguments", "sub_code": "isv.missing-out-request-no"], signed: true)
        }
        let outcome = state.withLock { state -> (fields: [String: String], ok: Bool) in
            guard let trade = state.trades[number], let tradeNo = trade.tradeNo else {
                return (["sub_code": "ACQ.TRADE_STATUS_ERROR", "sub_msg": "交易状态不合法"], false)
            }
            let fresh = state.refunds[requestNo] == nil
            if fresh {
                // a trade is refunded in parts, each its own out_request_no, up to its total
                let before = state.refunds.filter { $0.value == number }.keys.reduce(Int64(0)) { $0 + (state.refundCents[$1] ?? 0) }
                guard let cents = Self.cents(amount), let total = Self.cents(trade.totalAmount), cents > 0, before + cents <= total else {
                    return (["sub_code": "ACQ.REFUND_AMT_NOT_EQUAL_TOTAL", "sub_msg": "退款金额超限"], false)
                }
                state.refundCents[requestNo] = cents
            }
            state.refunds[requestNo] = number
            return (["out_trade_no": number, "trade_no": tradeNo, "refund_fee": amount, "fund_change": fresh ? "Y" : "N"], true)
        }
        guard outcome.ok else {
            return answer(name, ["code": "40004", "msg": "Business Failed"].merging(outcome.fields) { $1 }, signed: true)
        }
        return answer(name, ["code": "10000", "msg": "Success"].merging(outcome.fields) { $1 }, signed: true)
    }

    /// Yuan with up to two decimals (`12.9`, `12.90`) in cents; nil for anything else.
    static func cents(_ yuan: String) -> Int64? {
        let parts = yuan.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = Int64(parts[0]) else { return nil }
        guard parts.count == 2 else { return whole * 100 }
        let fraction = String(parts[1])
        guard (1...2).contains(fraction.count), fraction.allSatisfy(\.isASCII), let digits = Int64(fraction) else { return nil }
        return whole * 100 + (fraction.count == 1 ? digits * 10 : digits)
    }

    /// The merchant's signature over every non-empty parameter but `sign`, sorted, not encoded.
    private func verify(_ fields: [String: String]) throws {
        guard fields["app_id"] == appID, fields["sign_type"] == "RSA2", let sign = fields["sign"], let signature = Base64.decode(sign),
              merchantKey.verifySHA256(signature: signature, message: Array(PaymentSigner.alipayRequestContent(fields).utf8)) else {
            throw FakeGatewayError("merchant signature does not verify")
        }
    }

    /// `{"<name>": {...}, "sign": "..."}` with the signature over the exact text of the inner object.
    private func answer(_ name: String, _ fields: [String: String], signed: Bool) -> Response {
        let inner = String(decoding: (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data(), as: UTF8.self)
        var text = "{\"\(name)\":\(inner)"
        if signed, let signature = try? alipayKey.signSHA256(Array(inner.utf8)) {
            text += ",\"sign\":\"\(Base64.encode(signature))\""
        }
        return .text(text + "}", contentType: "application/json;charset=utf-8")
    }

    /// A browser's form body, fields that cannot be decoded left out.
    static func decodeFormLeniently(_ body: [UInt8]) -> [String: String] {
        (try? decodeForm(String(decoding: body, as: UTF8.self))) ?? [:]
    }

    /// `k=v&...` with `+` as space and percent escapes, as a servlet reads a form.
    public static func decodeForm(_ text: String) throws -> [String: String] {
        var fields: [String: String] = [:]
        for part in text.split(separator: "&") {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, let name = pair[0].replacingOccurrences(of: "+", with: " ").removingPercentEncoding,
                  let value = pair[1].replacingOccurrences(of: "+", with: " ").removingPercentEncoding else {
                throw FakeGatewayError("not form-encoded: \(part)")
            }
            fields[name] = value
        }
        return fields
    }
}
