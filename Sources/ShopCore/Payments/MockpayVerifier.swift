import Crypto
import Foundation
import Localization

/// mockpay: a JSON body signed as `Mockpay-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.
/// Several `v1=` values may be present while the provider rotates its secret.
struct MockpayVerifier: PaymentVerifier {
    let provider = PaymentProvider.mockpay
    let secret: String
    static let tolerance: Int64 = 300

    struct Body: Decodable {
        let eventID: String
        let paymentID: Int64?
        let orderNumber: String
        let amountCents: Int64
        let currency: String
        let status: String
        let refundNumber: String?

        enum CodingKeys: String, CodingKey {
            case eventID = "event_id", paymentID = "payment_id", orderNumber = "order_number"
            case amountCents = "amount_cents", currency, status, refundNumber = "refund_number"
        }
    }

    func verify(headers: [String: String], body: [UInt8], now: Int64) throws -> PaymentEvent {
        guard let header = headers["mockpay-signature"] else { throw PaymentError.invalidSignature(LocalizedText(zh: "缺少 Mockpay-Signature", en: "Mockpay-Signature is missing")) }
        var timestamp: Int64?
        var signatures: [[UInt8]] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { timestamp = Int64(pair[1]) }
            if pair[0] == "v1", let bytes = Hex.decode(pair[1]) { signatures.append(bytes) }
        }
        guard let timestamp, !signatures.isEmpty else {
            throw PaymentError.invalidSignature(LocalizedText(zh: "Mockpay-Signature 应含有 t= 和 v1=", en: "Mockpay-Signature must carry t= and v1="))
        }
        let expected = HMAC.sha256(key: Array(secret.utf8), message: Array("\(timestamp).".utf8) + body)
        guard signatures.contains(where: { constantTimeEquals($0, expected) }) else {
            throw PaymentError.invalidSignature(LocalizedText(zh: "签名不符", en: "signature does not match"))
        }
        let (age, overflow) = now.subtractingReportingOverflow(timestamp)
        guard !overflow, (-Self.tolerance...Self.tolerance).contains(age) else {
            throw PaymentError.invalidSignature(LocalizedText(zh: "时间戳超出了 5 分钟的容差", en: "timestamp is outside the 5-minute tolerance"))
        }
        guard let parsed = try? JSONDecoder().decode(Body.self, from: Data(body)) else {
            throw PaymentError.malformed(LocalizedText(zh: "内容不是 mockpay 事件", en: "body is not a mockpay event"))
        }
        let result: PaymentEvent.Result
        switch parsed.status {
        case "succeeded": result = .succeeded
        case "failed": result = .failed
        case "refunded":
            guard let number = parsed.refundNumber, (1...64).contains(number.count) else {
                throw PaymentError.malformed(LocalizedText(zh: "退款事件应带有 refund_number", en: "a refunded event must carry refund_number"))
            }
            result = .refunded
        default:
            throw PaymentError.malformed(LocalizedText(zh: "status 应为 succeeded、failed 或 refunded",
                                                       en: "status must be succeeded, failed or refunded"))
        }
        guard (1...128).contains(parsed.eventID.count) else { throw PaymentError.malformed(LocalizedText(zh: "event_id 应为 1 到 128 个字符", en: "event_id must be 1 to 128 characters")) }
        return PaymentEvent(provider: provider, eventID: parsed.eventID, orderNumber: parsed.orderNumber,
                            paymentID: parsed.paymentID.map(PaymentID.init), amountCents: parsed.amountCents,
                            currency: parsed.currency, result: result, providerTradeNo: nil,
                            refundNumber: result == .refunded ? parsed.refundNumber : nil)
    }

    /// The header a mockpay sender puts on `body` (used by `shop pay simulate` and tests).
    static func signatureHeader(secret: String, timestamp: Int64, body: [UInt8]) -> String {
        let mac = HMAC.sha256(key: Array(secret.utf8), message: Array("\(timestamp).".utf8) + body)
        return "t=\(timestamp),v1=\(Hex.encode(mac))"
    }
}
