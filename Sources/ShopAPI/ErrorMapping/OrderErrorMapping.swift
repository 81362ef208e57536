import HTTP
import Localization
import ShopCore

extension ErrorMapping {
    /// Orders: idempotency keys, stock, and the life cycle.
    @Sendable static func order(_ error: any Error) -> HTTPError? {
        guard let error = error as? OrderError else { return nil }
        switch error {
        case .idempotencyKeyRequired:
            return HTTPError(.idempotencyKeyRequired, ["max": .verbatim(String(IdempotencyKey.maxLength))], field: "Idempotency-Key")
        case .idempotencyKeyReused:
            return HTTPError(.idempotencyKeyReused)
        case .notFound:
            return HTTPError(.orderNotFound)
        case .nothingToOrder:
            return HTTPError(.cartEmpty)
        case .skuNotFound:
            return HTTPError(.skuNotFound, field: "sku_id")
        case .outOfStock(_, let sku, let available):
            return outOfStock(sku, available: available, field: "sku_id")
        case .itemLimitExceeded:
            return HTTPError(.cartLimitExceeded, field: "quantity")
        case .tooManyUnpaidOrders(let max):
            return HTTPError(.tooManyUnpaidOrders, ["max": .verbatim(String(max))])
        case .stateConflict(let current, let action):
            return HTTPError(.orderStateConflict, ["status": name(of: current), "action": name(of: action)])
        case .refundExceedsPaid(let available):
            return HTTPError(.refundExceedsPaid, ["available": .verbatim(Money.yuan(fromCents: available))], field: "amount_cents")
        }
    }

    /// An order status as the storefront shows it (`待付款`); its wire value in English.
    static func name(of status: OrderStatus) -> LocalizedText {
        status.displayName
    }

    static func name(of action: OrderAction) -> LocalizedText {
        let zh = switch action {
        case .cancel: "取消"
        case .confirmReceipt: "确认收货"
        case .ship: "发货"
        case .deliver: "登记送达"
        case .refund: "退款"
        }
        return LocalizedText(zh: zh, en: action.rawValue)
    }
}
