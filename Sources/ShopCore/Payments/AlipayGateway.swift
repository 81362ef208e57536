import Crypto
import Foundation

/// Alipay's OpenAPI as the merchant calls it: requests signed RSA2 with the merchant private key,
/// answers checked with Alipay's public key. App pay hands the signed request to the phone
/// (`orderString`); the order query is a server-to-server call.
struct AlipayGateway: Sendable {
    let appID: String
    let privateKey: RSAPrivateKey
    let publicKey: RSAPublicKey
    let gatewayURL: URL
    let notifyURL: String
    let timeout: TimeInterval
    let transport: any ProviderTransport

    /// What the app's SDK takes as is: the complete signed `alipay.trade.app.pay` request,
    /// URL-encoded. `timeoutMinutes` is what is left of the order's pay deadline.
    func orderString(orderNumber: String, amountCents: Int64, subject: String, timeoutMinutes: Int64, at now: Int64) throws -> String {
        let biz = BizContent(out_trade_no: orderNumber, total_amount: Money.yuan(fromCents: amountCents), subject: subject,
                             product_code: "QUICK_MSECURITY_PAY", timeout_express: "\(max(1, timeoutMinutes))m")
        let fields = try signed(method: "alipay.trade.app.pay", bizContent: try Self.json(biz), notify: true, at: now)
        return Self.query(fields)
    }

    /// The signed `alipay.trade.wap.pay` (a phone's browser) or `alipay.trade.page.pay` (a
    /// computer's) request as one GET URL to the gateway: the buyer's browser opens it and lands on
    /// Alipay's cashier. Built here without a call (the trade opens when the buyer arrives);
    /// `return_url` and `notify_url` are signed with the rest, and `quit_url` (wap) is in `biz_content`.
    func webPayURL(_ channel: PaymentChannel, orderNumber: String, amountCents: Int64, subject: String, timeoutMinutes: Int64,
                   pages: PaymentPages?, at now: Int64) throws -> String {
        let (method, productCode) = switch channel {
        case .wap: ("alipay.trade.wap.pay", "QUICK_WAP_WAY")
        case .page: ("alipay.trade.page.pay", "FAST_INSTANT_TRADE_PAY")
        case .app, .native, .h5: throw PaymentError.channelNotOffered(.alipay, channel)
        }
        var biz = ["out_trade_no": orderNumber, "total_amount": Money.yuan(fromCents: amountCents), "subject": subject,
                   "product_code": productCode, "timeout_express": "\(max(1, timeoutMinutes))m"]
        if channel == .wap, let pages { biz["quit_url"] = pages.quitURL }
        let fields = try signed(method: method, bizContent: try Self.json(biz), notify: true, returnURL: pages?.returnURL, at: now)
        let gateway = gatewayURL.absoluteString
        return gateway + (gateway.contains("?") ? "&" : "?") + Self.query(fields)
    }

    /// `alipay.trade.query`: whether Alipay holds a paid trade for `orderNumber`.
    func query(orderNumber: String, at now: Int64) throws -> ProviderQueryResult {
        let fields = try signed(method: "alipay.trade.query", bizContent: try Self.json(["out_trade_no": orderNumber]),
                                notify: false, at: now)
        let answer = try transport.post(gatewayURL, body: Array(Self.query(fields).utf8),
                                        contentType: "application/x-www-form-urlencoded;charset=utf-8", timeout: timeout,
                                        provider: .alipay)
        guard answer.status == 200 else { throw PaymentError.providerError(.alipay, "HTTP \(answer.status)") }
        let response = try verifiedResponse(answer.body, name: "alipay_trade_query_response")
        let code = response["code"] as? String
        if code == "40004", response["sub_code"] as? String == "ACQ.TRADE_NOT_EXIST" { return .notPaid }
        guard code == "10000" else { throw Self.error(response) }
        guard response["out_trade_no"] as? String == orderNumber else {
            throw PaymentError.providerError(.alipay, "answer is about another order")
        }
        switch response["trade_status"] as? String {
        case "TRADE_SUCCESS", "TRADE_FINISHED":
            guard let tradeNo = response["trade_no"] as? String, !tradeNo.isEmpty,
                  let amount = (response["total_amount"] as? String).flatMap(Money.cents(fromYuan:)) else {
                throw PaymentError.providerError(.alipay, "paid trade without trade_no or total_amount")
            }
            return .paid(eventID: "query:" + tradeNo, tradeNo: tradeNo, amountCents: amount, currency: "CNY",
                         raw: String(decoding: answer.body, as: UTF8.self))
        default:
            return .notPaid
        }
    }

    /// `alipay.trade.refund` of the whole trade under `refundNumber` (`out_request_no`): Alipay
    /// refunds one number once, so a retry after a lost answer cannot refund twice. Its success
    /// answer is the confirmation.
    func refund(orderNumber: String, amountCents: Int64, refundNumber: String, at now: Int64) throws -> ProviderRefundResult {
        let biz = ["out_trade_no": orderNumber, "refund_amount": Money.yuan(fromCents: amountCents), "out_request_no": refundNumber]
        let fields = try signed(method: "alipay.trade.refund", bizContent: try Self.json(biz), notify: false, at: now)
        let answer = try transport.post(gatewayURL, body: Array(Self.query(fields).utf8),
                                        contentType: "application/x-www-form-urlencoded;charset=utf-8", timeout: timeout,
                                        provider: .alipay)
        guard answer.status == 200 else { throw PaymentError.providerError(.alipay, "HTTP \(answer.status)") }
        let response = try verifiedResponse(answer.body, name: "alipay_trade_refund_response")
        guard response["code"] as? String == "10000" else { throw Self.error(response) }
        return .refunded
    }

    /// The common parameters with `sign`: SHA256withRSA over `signingContent`, base64.
    func signed(method: String, bizContent: String, notify: Bool, returnURL: String? = nil, at now: Int64) throws -> [String: String] {
        var fields = ["app_id": appID, "method": method, "charset": "utf-8", "sign_type": "RSA2",
                      "timestamp": Self.timestamp(now), "version": "1.0", "biz_content": bizContent]
        if notify { fields["notify_url"] = notifyURL }
        if let returnURL { fields["return_url"] = returnURL }
        fields["sign"] = Base64.encode(try privateKey.signSHA256(Array(Self.signingContent(fields).utf8)))
        return fields
    }

    /// What a request's signature covers: every non-empty parameter but `sign` (`sign_type`
    /// included, unlike a notification), sorted by name, `k=v` joined by `&`, values not encoded.
    static func signingContent(_ fields: [String: String]) -> String {
        fields.filter { $0.key != "sign" && !$0.value.isEmpty }
            .sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            .map { "\($0.key)=\($0.value)" }.joined(separator: "&")
    }

    /// Sorted `k=v&...` with names and values encoded as Java's `URLEncoder` does (UTF-8; letters,
    /// digits and `.-*_` kept; space as `+`), which is what the Alipay SDKs send and sign over.
    static func query(_ fields: [String: String]) -> String {
        fields.filter { !$0.value.isEmpty }
            .sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            .map { "\(formEncode($0.key))=\(formEncode($0.value))" }.joined(separator: "&")
    }

    static func formEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "_"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                out += "+"
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]], as: UTF8.self)
            }
        }
        return out
    }

    /// `yyyy-MM-dd HH:mm:ss` in Beijing time, as Alipay's `timestamp` wants.
    static func timestamp(_ unix: Int64) -> String {
        let c = ShopTime.calendar.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                                 from: Date(timeIntervalSince1970: TimeInterval(unix)))
        return String(format: "%04d-%02d-%02d %02d:%02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0,
                      c.minute ?? 0, c.second ?? 0)
    }

    /// The business parameters of an app payment, encoded with sorted keys so the text is stable.
    struct BizContent: Encodable {
        let out_trade_no: String
        let total_amount: String
        let subject: String
        let product_code: String
        let timeout_express: String
    }

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// The answer object named `name`, after checking `sign` over its exact text (Alipay signs the
    /// bytes of that JSON value as sent). An error answer may come unsigned; a success may not.
    func verifiedResponse(_ body: [UInt8], name: String) throws -> [String: Any] {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any],
              let response = object[name] as? [String: Any] else {
            throw PaymentError.providerError(.alipay, "answer is not an Alipay response")
        }
        if let sign = object["sign"] as? String {
            guard let raw = AlipayJSON.rawValue(of: name, in: body), let signature = Base64.decode(sign),
                  publicKey.verifySHA256(signature: signature, message: raw) else {
                throw PaymentError.providerError(.alipay, "answer signature does not match")
            }
        } else if response["code"] as? String == "10000" {
            throw PaymentError.providerError(.alipay, "successful answer is not signed")
        }
        return response
    }

    static func error(_ response: [String: Any]) -> PaymentError {
        let parts = [response["code"], response["msg"], response["sub_code"], response["sub_msg"]].compactMap { $0 as? String }
        return .providerError(.alipay, parts.isEmpty ? "unknown error" : parts.joined(separator: " "))
    }
}

/// What a provider says about an order when asked.
enum ProviderQueryResult: Sendable, Equatable {
    /// Paid: `eventID` de-duplicates it with the notification of the same payment where it can.
    case paid(eventID: String, tradeNo: String, amountCents: Int64, currency: String, raw: String)
    case notPaid
}

/// What a provider said to a refund request or a refund query.
enum ProviderRefundResult: Sendable, Equatable {
    /// The money went back.
    case refunded
    /// Taken; the confirmation comes later (query or notification).
    case requested
    /// Closed without refunding: the provider's reason.
    case refused(String)
}

/// Finds the exact bytes of one top-level JSON value, which is what Alipay's answer signature covers.
enum AlipayJSON {
    static func rawValue(of name: String, in body: [UInt8]) -> [UInt8]? {
        let key = Array("\"\(name)\"".utf8)
        guard let keyStart = firstIndex(of: key, in: body) else { return nil }
        var i = keyStart + key.count
        while i < body.count, body[i] == UInt8(ascii: " ") || body[i] == UInt8(ascii: "\n") || body[i] == UInt8(ascii: "\r")
                || body[i] == UInt8(ascii: "\t") || body[i] == UInt8(ascii: ":") { i += 1 }
        guard i < body.count, body[i] == UInt8(ascii: "{") else { return nil }
        let start = i
        var depth = 0
        var inString = false
        var escaped = false
        while i < body.count {
            let byte = body[i]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") {
                depth += 1
            } else if byte == UInt8(ascii: "}") {
                depth -= 1
                if depth == 0 { return Array(body[start...i]) }
            }
            i += 1
        }
        return nil
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        for start in 0...(haystack.count - needle.count) where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }
}
