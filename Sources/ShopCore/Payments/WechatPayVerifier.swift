import Crypto
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Localization

/// WeChat Pay v2 notify: an XML body whose `sign` is the uppercase MD5 (or HMAC-SHA256 when
/// `sign_type` says so) of the non-empty parameters sorted by ASCII as `k=v&...&key=API_KEY`.
struct WechatPayVerifier: PaymentVerifier {
    let provider = PaymentProvider.wechatpay
    let apiKey: String
    let appID: String
    let mchID: String

    func verify(headers: [String: String], body: [UInt8], now: Int64) throws -> PaymentEvent {
        guard let fields = WechatXML.parse(body) else { throw PaymentError.malformed(LocalizedText(zh: "内容不是微信支付的 XML 通知", en: "body is not a WeChat Pay XML notification")) }
        if let info = fields["req_info"] { return try refundEvent(fields, encryptedInfo: info) }
        guard let sign = fields["sign"], !sign.isEmpty else { throw PaymentError.invalidSignature(LocalizedText(zh: "缺少 sign", en: "sign is missing")) }
        let expected: String
        switch fields["sign_type"] ?? "MD5" {
        case "MD5": expected = Self.md5Sign(fields, apiKey: apiKey)
        case "HMAC-SHA256": expected = Self.hmacSign(fields, apiKey: apiKey)
        default: throw PaymentError.invalidSignature(LocalizedText(zh: "未知的 sign_type", en: "unknown sign_type"))
        }
        guard constantTimeEquals(Array(expected.utf8), Array(sign.uppercased().utf8)) else {
            throw PaymentError.invalidSignature(LocalizedText(zh: "签名不符", en: "signature does not match"))
        }
        guard fields["return_code"] == "SUCCESS" else { throw PaymentError.malformed(LocalizedText(zh: "return_code 不是 SUCCESS", en: "return_code is not SUCCESS")) }
        if !appID.isEmpty, fields["appid"] != appID { throw PaymentError.malformed(LocalizedText(zh: "appid 不符", en: "appid does not match")) }
        if !mchID.isEmpty, fields["mch_id"] != mchID { throw PaymentError.malformed(LocalizedText(zh: "mch_id 不符", en: "mch_id does not match")) }
        guard let transactionID = fields["transaction_id"], !transactionID.isEmpty,
              let orderNumber = fields["out_trade_no"], !orderNumber.isEmpty,
              let fee = fields["total_fee"].flatMap({ Int64($0) }), fee >= 0 else {
            throw PaymentError.malformed(LocalizedText(zh: "缺少 transaction_id、out_trade_no 或 total_fee", en: "transaction_id, out_trade_no and total_fee are required"))
        }
        return PaymentEvent(provider: provider, eventID: transactionID, orderNumber: orderNumber, paymentID: nil,
                            amountCents: fee, currency: fields["fee_type"] ?? "CNY",
                            result: fields["result_code"] == "SUCCESS" ? .succeeded : .failed, providerTradeNo: transactionID)
    }

    /// A refund notification: unsigned; its `req_info` is the result, AES-256-ECB (PKCS#7) encrypted
    /// under the lowercase hex MD5 of the API key and base64-encoded, so only WeChat (which holds the
    /// key) can make one that decrypts to a well-formed result. The event is the refund's: our
    /// `out_refund_no`, its `refund_fee`, and SUCCESS (refunded) or CHANGE / REFUNDCLOSE (refused).
    func refundEvent(_ fields: [String: String], encryptedInfo: String) throws -> PaymentEvent {
        guard fields["return_code"] == "SUCCESS" else { throw PaymentError.malformed(LocalizedText(zh: "return_code 不是 SUCCESS", en: "return_code is not SUCCESS")) }
        if !appID.isEmpty, fields["appid"] != appID { throw PaymentError.malformed(LocalizedText(zh: "appid 不符", en: "appid does not match")) }
        if !mchID.isEmpty, fields["mch_id"] != mchID { throw PaymentError.malformed(LocalizedText(zh: "mch_id 不符", en: "mch_id does not match")) }
        let key = Array(Hex.encode(Digest.md5(Array(apiKey.utf8))).lowercased().utf8)
        guard let sealed = Base64.decode(encryptedInfo), let plain = try? AES256ECB.decrypt(sealed, key: key),
              let result = WechatXML.parse(plain, root: "root") else {
            throw PaymentError.invalidSignature(LocalizedText(zh: "req_info 无法用 API 密钥解密", en: "req_info does not decrypt under the API key"))
        }
        guard let refundNumber = result["out_refund_no"], (1...64).contains(refundNumber.count),
              let orderNumber = result["out_trade_no"], !orderNumber.isEmpty,
              let refundID = result["refund_id"], !refundID.isEmpty,
              let fee = result["refund_fee"].flatMap({ Int64($0) }), fee >= 0,
              let status = result["refund_status"], !status.isEmpty else {
            throw PaymentError.malformed(LocalizedText(zh: "退款结果缺少 out_refund_no、out_trade_no、refund_id、refund_fee 或 refund_status",
                                                       en: "the refund result needs out_refund_no, out_trade_no, refund_id, refund_fee and refund_status"))
        }
        let succeeded = status == "SUCCESS"
        return PaymentEvent(provider: provider, eventID: "refund:\(refundID):\(status)", orderNumber: orderNumber, paymentID: nil,
                            amountCents: fee, currency: "CNY", result: succeeded ? .refunded : .refundFailed,
                            providerTradeNo: result["transaction_id"], refundNumber: refundNumber,
                            refundFailure: succeeded ? nil : "WeChat Pay refund_status \(status)")
    }

    /// `k=v&...&key=API_KEY` over the non-empty parameters but `sign`, sorted by ASCII.
    static func signingString(_ fields: [String: String], apiKey: String) -> String {
        fields.filter { $0.key != "sign" && !$0.value.isEmpty }
            .sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            .map { "\($0.key)=\($0.value)" }.joined(separator: "&") + "&key=\(apiKey)"
    }

    static func md5Sign(_ fields: [String: String], apiKey: String) -> String {
        Hex.encode(Digest.md5(Array(signingString(fields, apiKey: apiKey).utf8))).uppercased()
    }

    static func hmacSign(_ fields: [String: String], apiKey: String) -> String {
        Hex.encode(HMAC.sha256(key: Array(apiKey.utf8), message: Array(signingString(fields, apiKey: apiKey).utf8))).uppercased()
    }
}
