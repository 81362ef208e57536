import Crypto
import Foundation
import HTTP
import Synchronization

/// WeChat Pay v2's merchant API on loopback, as far as the shop uses it: `/pay/unifiedorder` and
/// `/pay/orderquery`. It checks the shop's signature with its own implementation of WeChat's rule
/// (`PaymentSigner.wechat`), answers in WeChat's shapes (including its errors) signed with the API
/// key, and can be told to fail, to sign wrongly or to stay silent.
public final class FakeWechatPayGateway: Sendable {
    /// How the next calls are answered.
    public enum Mode: Sendable {
        case normal
        /// `return_code` FAIL with this `return_msg` (what WeChat answers to a bad signature).
        case returnFail(String)
        /// `result_code` FAIL with this `err_code` and `err_code_des`.
        case resultFail(code: String, description: String)
        /// A success signed with another key.
        case wrongSignature
        /// No answer for this many seconds.
        case silent(seconds: Double)
    }

    /// One order WeChat knows of.
    public struct Trade: Sendable {
        public let orderNumber: String
        public let totalFee: Int64
        public let prepayID: String
        public let notifyURL: String
        public var transactionID: String?
        /// `APP`, `NATIVE` (a QR code's `code_url`) or `MWEB` (H5: a page at `mweb_url`).
        public var tradeType = "APP"
        public var codeURL: String? = nil
        public var mwebURL: String? = nil
    }

    /// One refund WeChat took.
    public struct Refund: Sendable {
        public let orderNumber: String
        public let refundID: String
        public let refundFee: Int64
        /// Where its refund notification goes: the request's `notify_url`, else the pay notify URL.
        public let notifyURL: String
        public var confirmed: Bool
    }

    struct State {
        var mode = Mode.normal
        var trades: [String: Trade] = [:]
        var requests: [(path: String, fields: [String: String])] = []
        var counter = 0
        /// Refunds by `out_refund_no`.
        var refunds: [String: Refund] = [:]
        /// Refunds stay PROCESSING until `confirmRefund` (else they have gone through when asked about).
        var holdRefunds = false
    }

    public let apiKey: String
    public let appID: String
    public let mchID: String
    private let state = Mutex(State())
    private let server: LoopbackServer<FakeWechatPayGateway>

    public var baseURL: String { "http://127.0.0.1:\(server.port)" }

    public init(apiKey: String = FakeGatewayKeys.wechatAPIKey, appID: String = FakeGatewayKeys.wechatAppID,
                mchID: String = FakeGatewayKeys.wechatMchID, port: UInt16 = 0) throws {
        self.apiKey = apiKey
        self.appID = appID
        self.mchID = mchID
        server = LoopbackServer(port: port) { gateway, request in gateway.handle(request) }
        try server.start(serving: self)
    }

    public func stop() { server.stop() }

    public func setMode(_ mode: Mode) { state.withLock { $0.mode = mode } }

    /// Every request received, path and fields, oldest first.
    public var requests: [(path: String, fields: [String: String])] { state.withLock { $0.requests } }

    public func trade(_ orderNumber: String) -> Trade? { state.withLock { $0.trades[orderNumber] } }

    /// Every trade, by order number.
    public var trades: [String: Trade] { state.withLock { $0.trades } }

    /// Every refund taken, by our refund number.
    public var allRefunds: [String: Refund] { state.withLock { $0.refunds } }

    /// The buyer pays in the WeChat app: the trade succeeds, and the notification WeChat would post
    /// to `notify_url` is answered (signed XML), to deliver, lose or deliver twice.
    /// `totalFee` plays a trade paid at another amount than the shop asked for.
    public func pay(_ orderNumber: String, totalFee: Int64? = nil) throws -> [UInt8] {
        let trade = try state.withLock { state -> Trade in
            guard var trade = state.trades[orderNumber] else { throw FakeGatewayError("WeChat knows no order \(orderNumber)") }
            if let totalFee { trade = Trade(orderNumber: orderNumber, totalFee: totalFee, prepayID: trade.prepayID,
                                            notifyURL: trade.notifyURL, transactionID: trade.transactionID, tradeType: trade.tradeType,
                                            codeURL: trade.codeURL, mwebURL: trade.mwebURL) }
            state.counter += 1
            trade.transactionID = trade.transactionID ?? String(format: "42000000%010d", state.counter)
            state.trades[orderNumber] = trade
            return trade
        }
        var fields = ["return_code": "SUCCESS", "result_code": "SUCCESS", "appid": appID, "mch_id": mchID,
                      "nonce_str": nonce(), "openid": "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o", "trade_type": trade.tradeType,
                      "bank_type": "CMC", "total_fee": String(trade.totalFee), "fee_type": "CNY",
                      "transaction_id": trade.transactionID ?? "", "out_trade_no": orderNumber, "time_end": "20261201120000"]
        fields["sign"] = PaymentSigner.wechat(fields, key: apiKey)
        return PaymentSigner.wechatXML(fields)
    }

    /// The buyer scans a NATIVE trade's QR code with WeChat and pays: answers the order number
    /// and the notification WeChat would post (see `pay`).
    public func scan(codeURL: String) throws -> (orderNumber: String, notification: [UInt8]) {
        guard let number = state.withLock({ $0.trades.values.first { $0.codeURL == codeURL }?.orderNumber }) else {
            throw FakeGatewayError("WeChat issued no code_url \(codeURL)")
        }
        return (number, try pay(number))
    }

    /// The path of the H5 payment page an `mweb_url` opens.
    static let mwebPath = "/cgi-bin/mmpayweb-bin/checkmweb"

    /// WeChat's H5 payment page in a phone's browser, and its 付款 button: the trade is paid, the
    /// notification posted, and the browser sent to the `redirect_url` the shop appended.
    private func mweb(_ request: Request) -> Response {
        if request.method == "GET" {
            guard let prepay = request.query["prepay_id"],
                  let trade = state.withLock({ $0.trades.values.first { $0.prepayID == prepay && $0.tradeType == "MWEB" } }) else {
                return NotificationDelivery.errorPage("商家参数格式有误，请联系商家解决（没有这笔 H5 交易）")
            }
            var fields = ["prepay_id": prepay]
            if let redirect = request.query["redirect_url"] { fields["redirect_url"] = redirect }
            return NotificationDelivery.payPage(title: "微信支付", lines: ["订单号 \(trade.orderNumber)",
                                                                          String(format: "￥%.2f", Double(trade.totalFee) / 100)],
                                                action: "/mweb/pay", fields: fields)
        }
        let form = FakeAlipayGateway.decodeFormLeniently(request.body)
        guard let prepay = form["prepay_id"],
              let number = state.withLock({ $0.trades.values.first { $0.prepayID == prepay && $0.tradeType == "MWEB" }?.orderNumber }) else {
            return NotificationDelivery.errorPage("没有这笔 H5 交易")
        }
        do {
            let notification = try pay(number)
            _ = NotificationDelivery.post(notification, to: trade(number)?.notifyURL ?? "", contentType: NotificationDelivery.xml)
            guard let redirect = form["redirect_url"], redirect.hasPrefix("http") else { return .text("支付成功 \(number)\n") }
            return NotificationDelivery.redirect(to: redirect)
        } catch {
            return NotificationDelivery.errorPage("\(error)")
        }
    }

    fileprivate func handle(_ request: Request) -> Response {
        if request.path == Self.mwebPath && request.method == "GET" || request.path == "/mweb/pay" && request.method == "POST" {
            return mweb(request)
        }
        let fields = Self.parse(request.body)
        let mode = state.withLock { state -> Mode in
            state.requests.append((request.path, fields))
            return state.mode
        }
        if case .silent(let seconds) = mode { Thread.sleep(forTimeInterval: seconds) }
        if case .returnFail(let message) = mode { return reply(["return_code": "FAIL", "return_msg": message], signed: false) }
        guard let sign = fields["sign"], sign == PaymentSigner.wechat(fields, key: apiKey) else {
            return reply(["return_code": "FAIL", "return_msg": "签名错误"], signed: false)
        }
        guard fields["appid"] == appID, fields["mch_id"] == mchID, let nonce = fields["nonce_str"], !nonce.isEmpty,
              nonce.count <= 32 else {
            return reply(["return_code": "FAIL", "return_msg": "appid/mch_id/nonce_str 参数错误"], signed: false)
        }
        var answer = ["return_code": "SUCCESS", "return_msg": "OK", "appid": appID, "mch_id": mchID, "nonce_str": self.nonce()]
        if case .resultFail(let code, let description) = mode {
            answer.merge(["result_code": "FAIL", "err_code": code, "err_code_des": description]) { $1 }
            return reply(answer, signed: true)
        }
        switch request.path {
        case "/pay/unifiedorder": answer.merge(unifiedOrder(fields)) { $1 }
        case "/pay/orderquery": answer.merge(orderQuery(fields)) { $1 }
        case "/secapi/pay/refund": answer.merge(refund(fields)) { $1 }
        case "/pay/refundquery": answer.merge(refundQuery(fields)) { $1 }
        default: return .text("not found", status: .notFound)
        }
        if case .wrongSignature = mode {
            var forged = answer
            forged["sign"] = PaymentSigner.wechat(answer, key: String(apiKey.reversed()))
            return .text(String(decoding: PaymentSigner.wechatXML(forged), as: UTF8.self), contentType: "text/xml")
        }
        return reply(answer, signed: true)
    }

    private func unifiedOrder(_ fields: [String: String]) -> [String: String] {
        let required = ["body", "out_trade_no", "total_fee", "spbill_create_ip", "notify_url", "trade_type"]
        if let missing = required.first(where: { (fields[$0] ?? "").isEmpty }) {
            return ["result_code": "FAIL", "err_code": "PARAM_ERROR", "err_code_des": "缺少参数\(missing)"]
        }
        guard let tradeType = fields["trade_type"], ["APP", "NATIVE", "MWEB"].contains(tradeType) else {
            return ["result_code": "FAIL", "err_code": "PARAM_ERROR", "err_code_des": "trade_type 参数错误"]
        }
        // NATIVE names the product the QR code sells; MWEB (H5) names the site it is paid from
        if tradeType == "NATIVE", (fields["product_id"] ?? "").isEmpty {
            return ["result_code": "FAIL", "err_code": "PARAM_ERROR", "err_code_des": "trade_type=NATIVE时，product_id为必填参数"]
        }
        if tradeType == "MWEB" {
            let scene = fields["scene_info"].flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: Any]
            guard let h5 = scene?["h5_info"] as? [String: String], let type = h5["type"], ["Wap", "IOS", "Android"].contains(type),
                  h5["wap_url"]?.hasPrefix("http") ?? (type != "Wap") else {
                return ["result_code": "FAIL", "err_code": "PARAM_ERROR", "err_code_des": "scene_info 参数错误"]
            }
        }
        guard let fee = fields["total_fee"].flatMap({ Int64($0) }), fee > 0,
              let number = fields["out_trade_no"], let notify = fields["notify_url"], notify.hasPrefix("http") else {
            return ["result_code": "FAIL", "err_code": "PARAM_ERROR", "err_code_des": "参数格式错误"]
        }
        let base = baseURL
        return state.withLock { state in
            if let existing = state.trades[number] {
                // an order number is one trade: another amount or trade type under it is refused
                guard existing.totalFee == fee, existing.tradeType == tradeType else {
                    return ["result_code": "FAIL", "err_code": "INVALID_REQUEST", "err_code_des": "201 商户订单号重复"]
                }
                if existing.transactionID != nil { return ["result_code": "FAIL", "err_code": "ORDERPAID", "err_code_des": "该订单已支付"] }
                return Self.answer(existing)
            }
            state.counter += 1
            let prepay = String(format: "wx2026120112000000%08d", state.counter)
            var trade = Trade(orderNumber: number, totalFee: fee, prepayID: prepay, notifyURL: notify, transactionID: nil, tradeType: tradeType)
            if tradeType == "NATIVE" { trade.codeURL = "weixin://wxpay/bizpayurl?pr=" + String(format: "Fk%05d", state.counter) }
            if tradeType == "MWEB" { trade.mwebURL = base + Self.mwebPath + "?prepay_id=\(prepay)&package=\(1_405_458_241 + state.counter)" }
            state.trades[number] = trade
            return Self.answer(trade)
        }
    }

    /// A unified order's success: the prepay id, and the QR code's or the H5 page's URL.
    private static func answer(_ trade: Trade) -> [String: String] {
        var answer = ["result_code": "SUCCESS", "trade_type": trade.tradeType, "prepay_id": trade.prepayID]
        if let code = trade.codeURL { answer["code_url"] = code }
        if let mweb = trade.mwebURL { answer["mweb_url"] = mweb }
        return answer
    }

    /// The refunds WeChat took, by our refund number, each with its order number.
    public var refunds: [String: String] { state.withLock { $0.refunds.mapValues(\.orderNumber) } }

    private func refund(_ fields: [String: String]) -> [String: String] {
        guard let number = fields["out_trade_no"], let refundNumber = fields["out_refund_no"], !refundNumber.isEmpty,
              let refundFee = fields["refund_fee"].flatMap({ Int64($0) }) else {
            return ["result_code": "FAIL", "err_code": "PARAM_ERROR", "err_code_des": "参数错误"]
        }
        return state.withLock { state in
            guard let trade = state.trades[number], trade.transactionID != nil else {
                return ["result_code": "FAIL", "err_code": "TRADE_STATE_ERROR", "err_code_des": "订单状态错误"]
            }
            // a trade is refunded in parts, each its own out_refund_no, up to its total; total_fee is always the whole
            let before = state.refunds.values.filter { $0.orderNumber == number }.reduce(Int64(0)) { $0 + $1.refundFee }
            let fresh = state.refunds[refundNumber] == nil
            guard refundFee > 0, !fresh || before + refundFee <= trade.totalFee, fields["total_fee"] == String(trade.totalFee) else {
                return ["result_code": "FAIL", "err_code": "PARAM_ERROR", "err_code_des": "退款金额大于支付金额"]
            }
            if fresh {
                state.counter += 1
                state.refunds[refundNumber] = Refund(orderNumber: number, refundID: String(format: "503000000%010d", state.counter),
                                                     refundFee: refundFee, notifyURL: fields["notify_url"] ?? trade.notifyURL,
                                                     confirmed: !state.holdRefunds)
            }
            return ["result_code": "SUCCESS", "out_trade_no": number, "out_refund_no": refundNumber,
                    "refund_id": state.refunds[refundNumber]?.refundID ?? "", "refund_fee": String(refundFee),
                    "total_fee": String(trade.totalFee), "transaction_id": trade.transactionID ?? ""]
        }
    }

    /// Whether refunds wait for `confirmRefund` (PROCESSING until then) or go through at once.
    public func holdRefunds(_ hold: Bool) { state.withLock { $0.holdRefunds = hold } }

    /// The refund by our number, if WeChat took it.
    public func refund(_ refundNumber: String) -> Refund? { state.withLock { $0.refunds[refundNumber] } }

    /// A trade paid and refunded without the shop's calls (by hand in the merchant platform).
    public func recordRefund(orderNumber: String, totalFee: Int64, refundNumber: String) throws {
        state.withLock { state in
            state.counter += 1
            state.trades[orderNumber] = Trade(orderNumber: orderNumber, totalFee: totalFee,
                                              prepayID: String(format: "wx2026120112000000%08d", state.counter), notifyURL: "",
                                              transactionID: String(format: "42000000%020d", state.counter))
            state.refunds[refundNumber] = Refund(orderNumber: orderNumber, refundID: String(format: "503000000%010d", state.counter),
                                                 refundFee: totalFee, notifyURL: "", confirmed: true)
        }
    }

    /// A held refund goes through; answers its refund notification, to deliver or lose.
    public func confirmRefund(_ refundNumber: String) throws -> [UInt8] {
        try state.withLock { state in
            guard state.refunds[refundNumber] != nil else { throw FakeGatewayError("WeChat took no refund \(refundNumber)") }
            state.refunds[refundNumber]?.confirmed = true
        }
        return try refundNotification(refundNumber)
    }

    /// The refund notification WeChat posts once a refund has an outcome: unsigned XML whose
    /// `req_info` is the result (`<root>`) encrypted AES-256-ECB (PKCS#7) under the lowercase hex MD5
    /// of the API key, base64. `status` SUCCESS, CHANGE (refund failed) or REFUNDCLOSE; `refundFee`
    /// plays a notification for another amount.
    public func refundNotification(_ refundNumber: String, status: String = "SUCCESS", refundFee: Int64? = nil) throws -> [UInt8] {
        let (refund, trade) = try state.withLock { state -> (Refund, Trade) in
            guard let refund = state.refunds[refundNumber], let trade = state.trades[refund.orderNumber] else {
                throw FakeGatewayError("WeChat took no refund \(refundNumber)")
            }
            return (refund, trade)
        }
        let fee = String(refundFee ?? refund.refundFee)
        var result = ["transaction_id": trade.transactionID ?? "", "out_trade_no": refund.orderNumber, "refund_id": refund.refundID,
                      "out_refund_no": refundNumber, "total_fee": String(trade.totalFee), "settlement_total_fee": String(trade.totalFee),
                      "refund_fee": fee, "settlement_refund_fee": fee, "refund_status": status,
                      "refund_recv_accout": "支付用户零钱", "refund_account": "REFUND_SOURCE_RECHARGE_FUNDS",
                      "refund_request_source": "API"]
        if status == "SUCCESS" { result["success_time"] = "2026-12-01 12:30:00" }
        let root = "<root>" + result.sorted { $0.key < $1.key }.map { "<\($0.key)><![CDATA[\($0.value)]]></\($0.key)>" }.joined()
            + "</root>"
        let key = Array(Hex.encode(Digest.md5(Array(apiKey.utf8))).lowercased().utf8)
        let info = Base64.encode(try AES256ECB.encrypt(Array(root.utf8), key: key))
        return PaymentSigner.wechatXML(["return_code": "SUCCESS", "appid": appID, "mch_id": mchID, "nonce_str": nonce(), "req_info": info])
    }

    /// Every refund WeChat took has gone through by the time it is asked about, unless held.
    private func refundQuery(_ fields: [String: String]) -> [String: String] {
        guard let refundNumber = fields["out_refund_no"], let refund = state.withLock({ $0.refunds[refundNumber] }),
              let trade = state.withLock({ $0.trades[refund.orderNumber] }) else {
            return ["result_code": "FAIL", "err_code": "REFUNDNOTEXIST", "err_code_des": "退款订单查询失败"]
        }
        return ["result_code": "SUCCESS", "out_trade_no": refund.orderNumber, "refund_count": "1",
                "out_refund_no_0": refundNumber, "refund_id_0": refund.refundID, "refund_fee_0": String(refund.refundFee),
                "refund_status_0": refund.confirmed ? "SUCCESS" : "PROCESSING", "total_fee": String(trade.totalFee)]
    }

    private func orderQuery(_ fields: [String: String]) -> [String: String] {
        guard let number = fields["out_trade_no"], let trade = state.withLock({ $0.trades[number] }) else {
            return ["result_code": "FAIL", "err_code": "ORDERNOTEXIST", "err_code_des": "订单不存在"]
        }
        var answer = ["result_code": "SUCCESS", "out_trade_no": number, "trade_type": trade.tradeType, "total_fee": String(trade.totalFee),
                      "fee_type": "CNY"]
        if let transaction = trade.transactionID {
            answer.merge(["trade_state": "SUCCESS", "transaction_id": transaction, "time_end": "20261201120000"]) { $1 }
        } else {
            answer["trade_state"] = "NOTPAY"
            answer["trade_state_desc"] = "订单未支付"
        }
        return answer
    }

    private func reply(_ fields: [String: String], signed: Bool) -> Response {
        var fields = fields
        if signed { fields["sign"] = PaymentSigner.wechat(fields, key: apiKey) }
        return .text(String(decoding: PaymentSigner.wechatXML(fields), as: UTF8.self), contentType: "text/xml; charset=utf-8")
    }

    private func nonce() -> String { UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased() }

    /// `<xml><k><![CDATA[v]]></k>` or `<k>v</k>`, flat, as WeChat reads it.
    public static func parse(_ body: [UInt8]) -> [String: String] {
        let text = String(decoding: body, as: UTF8.self)
        var fields: [String: String] = [:]
        let pattern = /<([A-Za-z_0-9]+)>(?:<!\[CDATA\[(.*?)\]\]>|([^<]*))<\/\1>/
        for match in text.matches(of: pattern) where match.output.1 != "xml" {
            fields[String(match.output.1)] = String(match.output.2 ?? match.output.3 ?? "")
        }
        return fields
    }
}
