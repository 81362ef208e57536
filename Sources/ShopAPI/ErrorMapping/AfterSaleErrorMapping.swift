import HTTP
import Localization
import ShopCore

extension ErrorMapping {
    /// After-sale: an unknown request 404, one open per order and decisions of decided requests 409,
    /// a closed window 422.
    @Sendable static func afterSale(_ error: any Error) -> HTTPError? {
        guard let error = error as? AfterSaleError else { return nil }
        switch error {
        case .notFound:
            return HTTPError(.afterSaleNotFound)
        case .alreadyOpen:
            return HTTPError(.afterSaleOpen)
        case .closed(let hours):
            return HTTPError(.afterSaleClosed, ["hours": .verbatim(String(hours))])
        case .alreadyDecided(let current):
            return HTTPError(.afterSaleDecided, ["status": name(of: current)])
        }
    }

    /// An after-sale status as the storefront shows it (`已退款`); its wire value in English.
    static func name(of status: AfterSaleStatus) -> LocalizedText {
        let zh = switch status {
        case .requested: "待处理"
        case .approved: "已同意"
        case .rejected: "已被拒绝"
        case .refunded: "已退款"
        case .redelivered: "已补送"
        }
        return LocalizedText(zh: zh, en: status.rawValue)
    }
}
