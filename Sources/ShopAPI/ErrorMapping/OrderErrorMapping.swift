import HTTP
import ShopCore

extension ErrorMapping {
    /// Orders: idempotency keys, stock, and the life cycle.
    @Sendable static func order(_ error: any Error) -> HTTPError? {
        guard let error = error as? OrderError else { return nil }
        switch error {
        case .idempotencyKeyRequired:
            return HTTPError(.badRequest, code: "idempotency_key_required",
                             message: "Send an Idempotency-Key header of 1 to \(IdempotencyKey.maxLength) characters.", field: "Idempotency-Key")
        case .idempotencyKeyReused:
            return HTTPError(.conflict, code: "idempotency_key_reused",
                             message: "This Idempotency-Key was already used for a different order.")
        case .notFound:
            return .notFound("No such order.")
        case .nothingToOrder:
            return HTTPError(.unprocessableEntity, code: "cart_empty", message: "Select at least one cart line to check out.")
        case .skuNotFound(let sku):
            return HTTPError(.notFound, code: "not_found", message: "SKU \(sku.rawValue) is not on sale.", field: "sku_id")
        case .outOfStock(let sku):
            return HTTPError(.conflict, code: "out_of_stock", message: "SKU \(sku.rawValue) does not have enough stock.",
                             field: "sku_id")
        case .itemLimitExceeded:
            return HTTPError(.unprocessableEntity, code: "cart_limit_exceeded", message: cartLimitMessage, field: "quantity")
        case .tooManyUnpaidOrders(let max):
            return HTTPError(.unprocessableEntity, code: "too_many_unpaid_orders",
                             message: "You already have \(max) unpaid orders: pay or cancel one before placing another.")
        case .stateConflict(let current, let action):
            return HTTPError(.conflict, code: "order_state_conflict",
                             message: "Cannot \(action) an order that is \(current.rawValue).")
        }
    }
}
