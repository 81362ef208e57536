import Localization

/// Why a payment request or notification was refused.
public enum PaymentError: Error, Equatable, Sendable {
    case unknownProvider
    /// The provider has no keys in Config, so its notifications cannot be verified.
    case providerNotConfigured(PaymentProvider)
    /// The notification's signature is missing, malformed or wrong: the reason, for the provider's logs.
    case invalidSignature(LocalizedText)
    /// The notification is signed but not understood.
    case malformed(LocalizedText)
    /// Amount or currency differ from the order's: recorded, the order unchanged.
    case amountMismatch
    /// No order with that number: recorded, nothing else.
    case unknownOrder
    /// The provider has no such channel (Alipay has no `native`, WeChat Pay no `page`).
    case channelNotOffered(PaymentProvider, PaymentChannel)
    /// Only an order waiting for payment can be paid.
    case orderNotPayable(OrderStatus)
    /// The provider refused the call or answered something unusable: its own message.
    case providerError(PaymentProvider, String)
    /// The provider did not answer within `payments.provider_timeout_seconds`.
    case providerTimeout(PaymentProvider)
    /// `payments.max_concurrent_calls` calls are already waiting on providers from this node.
    case providerBusy(PaymentProvider)
    /// The provider's circuit breaker is open after failures in a row: try again in `retryAfter` seconds.
    case providerUnavailable(PaymentProvider, retryAfter: Int)
    /// The order has had `payments.max_attempts_per_order` payment starts.
    case tooManyAttempts(max: Int)
}
