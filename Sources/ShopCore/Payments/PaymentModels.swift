/// The payment providers the shop accepts.
public enum PaymentProvider: String, Sendable, Codable, CaseIterable {
    case mockpay, wechatpay, alipay
}

/// A payment attempt's state. `needs_refund`: money arrived for an order that was already
/// cancelled or paid, so an operator must send it back.
public enum PaymentStatus: String, Sendable, Codable {
    case pending, succeeded, failed
    case needsRefund = "needs_refund"
}

/// A payment attempt and what the client needs to pay it.
public struct PaymentIntent: Sendable, Equatable {
    public let paymentID: PaymentID
    public let provider: PaymentProvider
    public let amountCents: Int64
    public let payParams: [String: String]
}

/// A provider's notification after its signature was verified, in one shape for all providers.
public struct PaymentEvent: Sendable, Equatable {
    public enum Result: String, Sendable {
        case succeeded, failed
        /// A refund of the order went through (`refundNumber` says which; the amount is the refund's).
        case refunded
        /// A refund of the order was closed without the money going back (`refundFailure` says why).
        case refundFailed = "refund_failed"
        /// A state the shop does not act on (e.g. Alipay's WAIT_BUYER_PAY): recorded only.
        case ignored
    }

    public let provider: PaymentProvider
    /// The provider's de-duplication key (mockpay `event_id`, WeChat `transaction_id`, Alipay `notify_id`).
    public let eventID: String
    public let orderNumber: String
    public let paymentID: PaymentID?
    public let amountCents: Int64
    public let currency: String
    public let result: Result
    public let providerTradeNo: String?
    /// Our refund number, on a `refunded` or `refundFailed` event.
    public var refundNumber: String? = nil
    /// The provider's reason, on a `refundFailed` event.
    public var refundFailure: String? = nil
}

/// The success answer each provider expects.
public enum WebhookAcknowledgement: Sendable, Equatable {
    case mockpay, wechatpay, alipay
}
