/// How a buyer pays with a provider: in the provider's app (`app`, the default), or on the web:
/// Alipay's cashier page on a phone's browser (`wap`) or a computer's (`page`), WeChat Pay's QR
/// code scanned from a computer's screen (`native`) or its payment page in a phone's browser (`h5`).
public enum PaymentChannel: String, Sendable, Codable, CaseIterable {
    case app, wap, page, native, h5
}

extension PaymentProvider {
    /// The channels this provider offers, the default first.
    public var channels: [PaymentChannel] {
        switch self {
        case .mockpay: [.app]
        case .alipay: [.app, .wap, .page]
        case .wechatpay: [.app, .native, .h5]
        }
    }
}

/// Where a provider's payment page sends the buyer afterwards: the storefront's page of the order
/// (the HTTP side builds them; it knows the storefront's routes and the shop's public origin).
/// Arriving there proves nothing: the page only reads the order again.
public struct PaymentPages: Sendable, Equatable {
    /// Where the buyer lands after paying (Alipay's `return_url`, WeChat's `redirect_url`).
    public let returnURL: String
    /// Where a buyer who gives up on Alipay's phone cashier goes (`quit_url`).
    public let quitURL: String
    /// The shop's public origin, which WeChat's H5 payment names in `scene_info`.
    public let siteURL: String

    public init(returnURL: String, quitURL: String, siteURL: String) {
        self.returnURL = returnURL
        self.quitURL = quitURL
        self.siteURL = siteURL
    }
}
