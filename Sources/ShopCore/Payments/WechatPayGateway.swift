import Crypto
import Foundation

/// WeChat Pay v2 as the merchant calls it: signed XML requests to `unifiedorder` and `orderquery`,
/// answers whose signature, `return_code` and `result_code` are checked before anything in them
/// is used.
struct WechatPayGateway: Sendable {
    let apiKey: String
    let appID: String
    let mchID: String
    let gatewayURL: String
    let notifyURL: String
    let timeout: TimeInterval
    let transport: any ProviderTransport
    /// What `refund` goes through: the merchant's client certificate over libcurl when configured.
    let refundTransport: any ProviderTransport
    let random: SecureRandom

    /// A unified order for the app, then what the app's `PayReq` needs, signed with the API key.
    func appPay(orderNumber: String, amountCents: Int64, description: String, clientIP: String, deadline: Int64,
                at now: Int64) throws -> [String: String] {
        let answer = try call("/pay/unifiedorder", [
            "appid": appID, "mch_id": mchID, "nonce_str": nonce(), "body": description, "out_trade_no": orderNumber,
            "total_fee": String(amountCents), "fee_type": "CNY", "spbill_create_ip": clientIP, "notify_url": notifyURL,
            "trade_type": "APP", "time_expire": Self.compactTime(deadline),
        ])
        guard let prepayID = answer["prepay_id"], !prepayID.isEmpty else {
            throw PaymentError.providerError(.wechatpay, "unifiedorder answered without prepay_id")
        }
        var params = ["appid": appID, "partnerid": mchID, "prepayid": prepayID, "package": "Sign=WXPay",
                      "noncestr": nonce(), "timestamp": String(now)]
        params["sign"] = WechatPayVerifier.md5Sign(params, apiKey: apiKey)
        return params
    }

    /// A unified order with `trade_type=NATIVE`: the `code_url` the storefront draws as a QR code
    /// for the buyer's WeChat to scan (`product_id` is required for NATIVE: the order number).
    func nativePay(orderNumber: String, amountCents: Int64, description: String, clientIP: String, deadline: Int64) throws
        -> String {
        let answer = try call("/pay/unifiedorder", unifiedOrder(orderNumber: orderNumber, amountCents: amountCents,
                                                                description: description, clientIP: clientIP, deadline: deadline,
                                                                tradeType: "NATIVE", extra: ["product_id": orderNumber]))
        guard answer["trade_type"] ?? "NATIVE" == "NATIVE", let codeURL = answer["code_url"], !codeURL.isEmpty else {
            throw PaymentError.providerError(.wechatpay, "unifiedorder (NATIVE) answered without code_url")
        }
        return codeURL
    }

    /// A unified order with `trade_type=MWEB` (H5: WeChat's payment page in a phone's browser):
    /// the `mweb_url`, with `redirect_url` appended where WeChat sends the buyer afterwards.
    /// `spbill_create_ip` must be the buyer's own address, and `scene_info` names the shop's site.
    func h5Pay(orderNumber: String, amountCents: Int64, description: String, clientIP: String, deadline: Int64,
               pages: PaymentPages?) throws -> String {
        let site = pages?.siteURL ?? ""
        let sceneInfo = ["h5_info": ["type": "Wap", "wap_url": site, "wap_name": "Floral"]]
        let scene = String(decoding: try JSONSerialization.data(withJSONObject: sceneInfo, options: [.sortedKeys, .withoutEscapingSlashes]),
                           as: UTF8.self)
        let answer = try call("/pay/unifiedorder", unifiedOrder(orderNumber: orderNumber, amountCents: amountCents,
                                                                description: description, clientIP: clientIP, deadline: deadline,
                                                                tradeType: "MWEB", extra: ["scene_info": scene]))
        guard answer["trade_type"] ?? "MWEB" == "MWEB", let mwebURL = answer["mweb_url"], !mwebURL.isEmpty else {
            throw PaymentError.providerError(.wechatpay, "unifiedorder (MWEB) answered without mweb_url")
        }
        guard let pages else { return mwebURL }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let redirect = pages.returnURL.addingPercentEncoding(withAllowedCharacters: allowed) ?? pages.returnURL
        return mwebURL + (mwebURL.contains("?") ? "&" : "?") + "redirect_url=" + redirect
    }

    /// The fields of a unified order every trade type shares.
    private func unifiedOrder(orderNumber: String, amountCents: Int64, description: String, clientIP: String, deadline: Int64,
                              tradeType: String, extra: [String: String]) -> [String: String] {
        ["appid": appID, "mch_id": mchID, "nonce_str": nonce(), "body": description, "out_trade_no": orderNumber,
         "total_fee": String(amountCents), "fee_type": "CNY", "spbill_create_ip": clientIP, "notify_url": notifyURL,
         "trade_type": tradeType, "time_expire": Self.compactTime(deadline)].merging(extra) { $1 }
    }

    /// `orderquery`: whether WeChat holds a paid transaction for `orderNumber`.
    func query(orderNumber: String) throws -> ProviderQueryResult {
        let fields: [String: String]
        do {
            fields = try call("/pay/orderquery", ["appid": appID, "mch_id": mchID, "out_trade_no": orderNumber, "nonce_str": nonce()])
        } catch PaymentError.providerError(_, let message) where message.hasPrefix("ORDERNOTEXIST") {
            return .notPaid
        }
        guard fields["out_trade_no"] == orderNumber else {
            throw PaymentError.providerError(.wechatpay, "answer is about another order")
        }
        guard fields["trade_state"] == "SUCCESS" else { return .notPaid }
        guard let transactionID = fields["transaction_id"], !transactionID.isEmpty,
              let fee = fields["total_fee"].flatMap({ Int64($0) }) else {
            throw PaymentError.providerError(.wechatpay, "paid order without transaction_id or total_fee")
        }
        // the transaction id is also the notification's event id: whichever comes second is a replay
        return .paid(eventID: transactionID, tradeNo: transactionID, amountCents: fee, currency: fields["fee_type"] ?? "CNY",
                     raw: WechatXML.document(fields))
    }

    /// `refund` of `amountCents` of the order's payment of `paymentAmountCents` (`total_fee`: the
    /// whole payment, also for a partial refund) under `refundNumber` (`out_refund_no`, the same on
    /// every retry, so WeChat refunds it once). A success means taken; `refundQuery` confirms.
    func refund(orderNumber: String, amountCents: Int64, paymentAmountCents: Int64, refundNumber: String) throws -> ProviderRefundResult {
        _ = try call("/secapi/pay/refund", through: refundTransport, ["appid": appID, "mch_id": mchID, "nonce_str": nonce(), "out_trade_no": orderNumber,
                                            "out_refund_no": refundNumber, "total_fee": String(paymentAmountCents),
                                            "refund_fee": String(amountCents), "refund_fee_type": "CNY", "notify_url": notifyURL])
        return .requested
    }

    /// `refundquery` of one refund number: SUCCESS is confirmed, PROCESSING still on its way.
    func refundQuery(refundNumber: String) throws -> ProviderRefundResult {
        let fields = try call("/pay/refundquery", ["appid": appID, "mch_id": mchID, "nonce_str": nonce(), "out_refund_no": refundNumber])
        switch fields["refund_status_0"] {
        case "SUCCESS": return .refunded
        case "PROCESSING": return .requested
        case let status?: return .refused(status)
        case nil: throw PaymentError.providerError(.wechatpay, "refundquery answered without refund_status_0")
        }
    }

    /// POSTs `fields` signed (MD5) as XML to `path`; answers the checked fields of a success.
    func call(_ path: String, through transport: (any ProviderTransport)? = nil, _ fields: [String: String]) throws
        -> [String: String] {
        let transport = transport ?? self.transport
        var request = fields
        request["sign"] = WechatPayVerifier.md5Sign(request, apiKey: apiKey)
        guard let url = URL(string: gatewayURL.trimmingSuffix("/") + path) else {
            throw PaymentError.providerError(.wechatpay, "payments.wechatpay_gateway_url is not a URL")
        }
        let answer = try transport.post(url, body: Array(WechatXML.document(request).utf8),
                                        contentType: "text/xml; charset=utf-8", timeout: timeout, provider: .wechatpay)
        guard answer.status == 200 else { throw PaymentError.providerError(.wechatpay, "HTTP \(answer.status)") }
        guard let reply = WechatXML.parse(answer.body) else {
            throw PaymentError.providerError(.wechatpay, "answer is not WeChat Pay XML")
        }
        guard reply["return_code"] == "SUCCESS" else {
            throw PaymentError.providerError(.wechatpay, reply["return_msg"].map { $0.isEmpty ? "FAIL" : $0 } ?? "FAIL")
        }
        guard let sign = reply["sign"],
              constantTimeEquals(Array(WechatPayVerifier.md5Sign(reply, apiKey: apiKey).utf8), Array(sign.uppercased().utf8)) else {
            throw PaymentError.providerError(.wechatpay, "answer signature does not match")
        }
        guard reply["appid"] == appID, reply["mch_id"] == mchID else {
            throw PaymentError.providerError(.wechatpay, "answer names another appid or mch_id")
        }
        guard reply["result_code"] == "SUCCESS" else {
            let code = reply["err_code"] ?? "FAIL"
            throw PaymentError.providerError(.wechatpay, [code, reply["err_code_des"]].compactMap { $0 }.joined(separator: " "))
        }
        return reply
    }

    /// 32 random hex characters.
    private func nonce() -> String { Hex.encode(random.bytes(16)) }

    /// `yyyyMMddHHmmss` in Beijing time, as `time_expire` wants.
    static func compactTime(_ unix: Int64) -> String {
        let c = ShopTime.calendar.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                                 from: Date(timeIntervalSince1970: TimeInterval(unix)))
        return String(format: "%04d%02d%02d%02d%02d%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0,
                      c.second ?? 0)
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
