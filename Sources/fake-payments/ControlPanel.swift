import FakePaymentGateways
import Foundation
import HTTP

/// The operator's side of the fakes, over plain HTTP on loopback: the buyer pays (the notification
/// delivered, lost or delivered twice), the app opens an Alipay order string, refunds go through and
/// their notifications are sent. Every answer is a few lines of text.
struct ControlPanel: Sendable {
    let wechat: FakeWechatPayGateway
    let alipay: FakeAlipayGateway

    static let help = """
        fake-payments control (POST unless noted; notify=send|lose|twice, default send)
          GET  /                                   this text, then every trade and refund
          POST /alipay/open            body: the order_string the shop answered (what the Alipay app does)
          POST /alipay/pay?order=NUMBER&notify=send
          POST /alipay/refunds/notify?refund=REFUND_NUMBER      Alipay's notification of the refunded trade
          POST /wechatpay/pay?order=NUMBER&notify=send
          POST /wechatpay/scan         body: the code_url of a QR code the storefront drew (WeChat scans it and pays)
        Web payment in a browser: the shop's Alipay pay_url opens the fake cashier (:9302), WeChat's
        mweb_url its H5 page (:9301); each has a 付款 button that pays, notifies and returns to the shop.
          POST /wechatpay/refunds/confirm?refund=REFUND_NUMBER&notify=send   (with --hold-refunds)
          POST /wechatpay/refunds/notify?refund=REFUND_NUMBER   WeChat's refund notification (req_info encrypted)
        notify=lose leaves the shop to find the payment by its query (shop payments reconcile).

        """

    func handle(_ request: Request) -> Response {
        do {
            switch (request.method, request.path) {
            case ("GET", "/"): return .text(Self.help + state())
            case ("POST", "/alipay/open"):
                // a pasted order string may end in a newline, which is not part of it
                let text = String(decoding: request.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                let fields = try alipay.openApp(orderString: text)
                return .text("Alipay opened the trade of order \(Self.order(of: fields)): signature verified\n")
            case ("POST", "/alipay/pay"):
                let number = try Self.required(request, "order")
                let body = try alipay.pay(number)
                guard let trade = alipay.trade(number) else { throw FakeGatewayError("no trade \(number)") }
                return .text("Alipay: order \(number) paid, trade_no \(trade.tradeNo ?? "")\n"
                             + deliver(body, to: trade.notifyURL, contentType: Self.form, notify: request.query["notify"]))
            case ("POST", "/alipay/refunds/notify"):
                let refund = try Self.required(request, "refund")
                guard let number = alipay.refunds[refund], let trade = alipay.trade(number) else {
                    throw FakeGatewayError("Alipay made no refund \(refund)")
                }
                return .text(deliver(try alipay.refundNotification(refund), to: trade.notifyURL, contentType: Self.form,
                                     notify: request.query["notify"]))
            case ("POST", "/wechatpay/pay"):
                let number = try Self.required(request, "order")
                let body = try wechat.pay(number)
                guard let trade = wechat.trade(number) else { throw FakeGatewayError("no trade \(number)") }
                return .text("WeChat Pay: order \(number) paid, transaction_id \(trade.transactionID ?? "")\n"
                             + deliver(body, to: trade.notifyURL, contentType: Self.xml, notify: request.query["notify"]))
            case ("POST", "/wechatpay/scan"):
                let code = String(decoding: request.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                let (number, body) = try wechat.scan(codeURL: code)
                guard let trade = wechat.trade(number) else { throw FakeGatewayError("no trade \(number)") }
                return .text("WeChat Pay: scanned \(code), order \(number) paid, transaction_id \(trade.transactionID ?? "")\n"
                             + deliver(body, to: trade.notifyURL, contentType: Self.xml, notify: request.query["notify"]))
            case ("POST", "/wechatpay/refunds/confirm"):
                let refund = try Self.required(request, "refund")
                let body = try wechat.confirmRefund(refund)
                return .text("WeChat Pay: refund \(refund) went through\n"
                             + deliver(body, to: wechat.refund(refund)?.notifyURL ?? "", contentType: Self.xml,
                                       notify: request.query["notify"]))
            case ("POST", "/wechatpay/refunds/notify"):
                let refund = try Self.required(request, "refund")
                return .text(deliver(try wechat.refundNotification(refund), to: wechat.refund(refund)?.notifyURL ?? "",
                                     contentType: Self.xml, notify: request.query["notify"]))
            default:
                return .text("unknown command\n\n" + Self.help, status: .notFound)
            }
        } catch {
            return .text("refused: \(error)\n", status: .badRequest)
        }
    }

    static let form = NotificationDelivery.form
    static let xml = NotificationDelivery.xml

    static func required(_ request: Request, _ name: String) throws -> String {
        guard let value = request.query[name], !value.isEmpty else { throw FakeGatewayError("?\(name)= is required") }
        return value
    }

    static func order(of fields: [String: String]) -> String {
        guard let biz = fields["biz_content"], let object = try? JSONSerialization.jsonObject(with: Data(biz.utf8)) as? [String: Any],
              let number = object["out_trade_no"] as? String else { return "?" }
        return number
    }

    /// Posts a notification as the provider would (or not), and reports what the shop answered.
    func deliver(_ body: [UInt8], to url: String, contentType: String, notify: String?) -> String {
        let times: Int
        switch notify ?? "send" {
        case "lose": return "notification to \(url) LOST (not sent)\n"
        case "twice": times = 2
        default: times = 1
        }
        return (0..<times).map { _ in "notification to \(url): " + Self.post(body, to: url, contentType: contentType) + "\n" }.joined()
    }

    static func post(_ body: [UInt8], to url: String, contentType: String) -> String {
        NotificationDelivery.post(body, to: url, contentType: contentType)
    }

    /// Every trade and refund the fakes hold.
    func state() -> String {
        var lines = ["trades:"]
        for trade in wechat.trades.values.sorted(by: { $0.orderNumber < $1.orderNumber }) {
            lines.append("  wechatpay \(trade.orderNumber) \(trade.tradeType) total_fee=\(trade.totalFee) "
                         + (trade.codeURL.map { "code_url=\($0) " } ?? "")
                         + (trade.transactionID.map { "PAID \($0)" } ?? "NOTPAY"))
        }
        for trade in alipay.trades.values.sorted(by: { $0.orderNumber < $1.orderNumber }) {
            lines.append("  alipay    \(trade.orderNumber) \(trade.method) total_amount=\(trade.totalAmount) "
                         + (trade.tradeNo.map { "TRADE_SUCCESS \($0)" } ?? "WAIT_BUYER_PAY"))
        }
        lines.append("refunds:")
        for (number, refund) in wechat.allRefunds.sorted(by: { $0.key < $1.key }) {
            lines.append("  wechatpay \(number) order \(refund.orderNumber) refund_fee=\(refund.refundFee) "
                         + (refund.confirmed ? "SUCCESS" : "PROCESSING"))
        }
        for (number, order) in alipay.refunds.sorted(by: { $0.key < $1.key }) {
            lines.append("  alipay    \(number) order \(order) refunded")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The shop's settings that point it at the fakes, as `export` lines a shell can source.
enum ShopEnvironmentLines {
    static func make(wechat: FakeWechatPayGateway, alipay: FakeAlipayGateway, shopURL: String) -> String {
        let values = [
            ("SHOP_PAYMENTS_PUBLIC_BASE_URL", shopURL),
            ("SHOP_PAYMENTS_WECHATPAY_GATEWAY_URL", wechat.baseURL),
            ("SHOP_PAYMENTS_WECHATPAY_API_KEY", wechat.apiKey),
            ("SHOP_PAYMENTS_WECHATPAY_APP_ID", wechat.appID),
            ("SHOP_PAYMENTS_WECHATPAY_MCH_ID", wechat.mchID),
            ("SHOP_PAYMENTS_ALIPAY_GATEWAY_URL", alipay.gatewayURL),
            ("SHOP_PAYMENTS_ALIPAY_APP_ID", alipay.appID),
            ("SHOP_PAYMENTS_ALIPAY_SELLER_ID", alipay.sellerID),
            ("SHOP_PAYMENTS_ALIPAY_PUBLIC_KEY_PEM", FakeGatewayKeys.alipayPublicPEM),
            ("SHOP_PAYMENTS_ALIPAY_PRIVATE_KEY_PEM", FakeGatewayKeys.merchantPrivatePEM),
        ]
        return "# fake-payments: a development shop against the fake gateways (test keys, never production)\n"
            + values.map { "export \($0.0)='\($0.1)'" }.joined(separator: "\n") + "\n"
    }
}
