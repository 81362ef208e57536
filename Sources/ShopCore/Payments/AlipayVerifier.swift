import Crypto
import Foundation
import Localization

/// Alipay async notify: form fields signed RSA2 (SHA256withRSA) over the sorted `k=v&...` of every
/// field but `sign` and `sign_type`, checked against the configured Alipay public key.
struct AlipayVerifier: PaymentVerifier {
    let provider = PaymentProvider.alipay
    let publicKey: RSAPublicKey
    let appID: String
    let sellerID: String

    func verify(headers: [String: String], body: [UInt8], now: Int64) throws -> PaymentEvent {
        guard let fields = FormEncoding.decode(body) else { throw PaymentError.malformed(LocalizedText(zh: "内容不是表单编码", en: "body is not form-encoded")) }
        guard let sign = fields["sign"], let signature = Base64.decode(sign) else {
            throw PaymentError.invalidSignature(LocalizedText(zh: "缺少 sign 或它不是 base64", en: "sign is missing or not base64"))
        }
        if let type = fields["sign_type"], type != "RSA2" { throw PaymentError.invalidSignature(LocalizedText(zh: "sign_type 应为 RSA2", en: "sign_type must be RSA2")) }
        guard publicKey.verifySHA256(signature: signature, message: Array(Self.signingString(fields).utf8)) else {
            throw PaymentError.invalidSignature(LocalizedText(zh: "签名不符", en: "signature does not match"))
        }
        if !appID.isEmpty, fields["app_id"] != appID { throw PaymentError.malformed(LocalizedText(zh: "app_id 不符", en: "app_id does not match")) }
        if !sellerID.isEmpty, fields["seller_id"] != sellerID { throw PaymentError.malformed(LocalizedText(zh: "seller_id 不符", en: "seller_id does not match")) }
        guard let notifyID = fields["notify_id"], !notifyID.isEmpty,
              let orderNumber = fields["out_trade_no"], !orderNumber.isEmpty,
              let amount = fields["total_amount"].flatMap(Money.cents(fromYuan:)) else {
            throw PaymentError.malformed(LocalizedText(zh: "缺少 notify_id、out_trade_no 或 total_amount", en: "notify_id, out_trade_no and total_amount are required"))
        }
        // a refund's notification carries refund_fee and gmt_refund (TRADE_CLOSED after a full
        // refund, TRADE_SUCCESS after a partial one) and our out_request_no as out_biz_no
        if let refundFee = fields["refund_fee"], !refundFee.isEmpty {
            guard let refunded = Money.cents(fromYuan: refundFee), let refundNumber = fields["out_biz_no"],
                  (1...64).contains(refundNumber.count) else {
                throw PaymentError.malformed(LocalizedText(zh: "退款通知缺少 out_biz_no 或 refund_fee 无效",
                                                           en: "a refund notification needs out_biz_no and a valid refund_fee"))
            }
            return PaymentEvent(provider: provider, eventID: notifyID, orderNumber: orderNumber, paymentID: nil, amountCents: refunded,
                                currency: "CNY", result: .refunded, providerTradeNo: fields["trade_no"], refundNumber: refundNumber)
        }
        let result: PaymentEvent.Result
        switch fields["trade_status"] {
        case "TRADE_SUCCESS", "TRADE_FINISHED": result = .succeeded
        case "TRADE_CLOSED": result = .failed
        default: result = .ignored
        }
        return PaymentEvent(provider: provider, eventID: notifyID, orderNumber: orderNumber, paymentID: nil,
                            amountCents: amount, currency: "CNY", result: result, providerTradeNo: fields["trade_no"])
    }

    /// The text Alipay signs: every non-empty field but `sign` and `sign_type`, sorted, `k=v` joined by `&`.
    static func signingString(_ fields: [String: String]) -> String {
        fields.filter { $0.key != "sign" && $0.key != "sign_type" && !$0.value.isEmpty }
            .sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            .map { "\($0.key)=\($0.value)" }.joined(separator: "&")
    }
}
