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
    /// Not enough stock for this SKU: `available` left; `sku` names it as the shopper sees it.
    /// Boxed: inline, this wide payload made `IdempotencyKey.init`'s typed `throws(OrderError)`
    /// crash at run time (SIGSEGV, Swift 6.3 on Linux).
    indirect case outOfStock(SKUID, sku: SKULabel, available: Int64)
    /// The order would hold more than `max` items (the cart's cap, `cart.max_items`).
    case itemLimitExceeded(max: Int)
    /// The buyer already holds `max` unpaid orders (`orders.max_unpaid_per_user`).
    case tooManyUnpaidOrders(max: Int)
    /// The order is not in a status that allows this.
    case stateConflict(current: OrderStatus, action: OrderAction)
    /// A shop refund would give back more than the order's payment: `availableCents` is what is left.
    case refundExceedsPaid(availableCents: Int64)
}

/// What a buyer or an operator tried to do to an order.
public enum OrderAction: String, Sendable, CaseIterable {
    case cancel
    case confirmReceipt = "confirm receipt"
    case ship
    case deliver
    case refund
}
