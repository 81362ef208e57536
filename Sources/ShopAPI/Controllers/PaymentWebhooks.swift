import ShopCore

/// The providers' notification route: the one place that spells it, for the router and for the
/// notify URLs the providers are given (ShopCore knows no routes, so the shop is handed `notifyURL`).
public enum PaymentWebhooks {
    /// Under `ShopAPI.prefix`, followed by the provider's raw value.
    static let path = "/webhooks/payments/"
    /// The router's pattern for `path`.
    static let route = path + ":provider"

    /// `base` (the shop's public address; one trailing `/` ignored) + the route for `provider`.
    @Sendable
    public static func notifyURL(base: String, provider: PaymentProvider) -> String {
        let base = base.hasSuffix("/") ? String(base.dropLast()) : base
        return base + ShopAPI.prefix + path + provider.rawValue
    }
}

extension ShopAPI {
    /// Where every JSON route lives.
    static let prefix = "/api/v1"
}
