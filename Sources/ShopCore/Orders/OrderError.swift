import Foundation

/// Why an order request was refused; nothing changed.
public enum OrderError: Error, Equatable, Sendable {
    case idempotencyKeyRequired
    case idempotencyKeyReused
    /// No such order of this user.
    case notFound
    /// No selected cart lines (or no items) to order.
    case nothingToOrder
    /// Unknown SKU, or its product is off sale.
    case skuNotFound(SKUID)
    /// Not enough stock for this SKU.
    case outOfStock(SKUID)
    /// The order would hold more than `max` items (the cart's cap, `cart.max_items`).
    case itemLimitExceeded(max: Int)
    /// The buyer already holds `max` unpaid orders (`orders.max_unpaid_per_user`).
    case tooManyUnpaidOrders(max: Int)
    /// The order is not in a status that allows this.
    case stateConflict(current: OrderStatus, action: String)
}
