import HTTP
import Localization
import ShopCore

extension ErrorMapping {
    /// Payments: signatures, amounts, providers.
    @Sendable static func payment(_ error: any Error) -> HTTPError? {
        guard let error = error as? PaymentError else { return nil }
        switch error {
        case .unknownProvider:
            return HTTPError(.unknownProvider)
        case .providerNotConfigured(let provider):
            return HTTPError(.providerUnavailable, ["provider": name(of: provider)], field: "provider")
        case .invalidSignature(let reason):
            return HTTPError(.invalidSignature, ["reason": reason])
        case .malformed(let reason):
            return HTTPError(.malformedNotification, ["reason": reason])
        case .amountMismatch:
            return HTTPError(.amountMismatch)
        case .unknownOrder:
            return HTTPError(.unknownOrder)
        case .channelNotOffered(let provider, let channel):
            return HTTPError(.channelNotOffered, ["provider": name(of: provider), "channel": .verbatim(channel.rawValue),
                                                  "channels": .verbatim(provider.channels.map(\.rawValue).joined(separator: ", "))],
                             field: "channel")
        case .orderNotPayable(let status):
            return HTTPError(.orderNotPayable, ["status": name(of: status)])
        case .providerError(let provider, let message):
            return HTTPError(.providerError, ["provider": name(of: provider), "message": LocalizedText(zh: message, en: message)])
        case .providerTimeout(let provider):
            return HTTPError(.providerTimeout, ["provider": name(of: provider)])
        case .providerBusy(let provider):
            return HTTPError(.providerBusy, ["provider": name(of: provider)], retryAfter: 1)
        case .providerUnavailable(let provider, let retryAfter):
            return HTTPError(.providerCircuitOpen, ["provider": name(of: provider), "seconds": .verbatim(String(retryAfter))],
                             retryAfter: retryAfter)
        case .tooManyAttempts(let max):
            return HTTPError(.paymentAttemptsExceeded, ["max": .verbatim(String(max))])
        }
    }

    /// A provider as a Chinese shopper knows it (`支付宝`); its wire value in English.
    static func name(of provider: PaymentProvider) -> LocalizedText {
        let zh = switch provider {
        case .alipay: "支付宝"
        case .wechatpay: "微信支付"
        case .mockpay: "模拟支付"
        }
        return LocalizedText(zh: zh, en: provider.rawValue)
    }
}
