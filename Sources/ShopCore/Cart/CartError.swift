/// Why a cart change was refused; the cart is left as it was.
public enum CartError: Error, Equatable, Sendable {
    /// The change would put more than `max` items in the cart.
    case limitExceeded(max: Int)
    /// More than the SKU's stock; `sku` names it as the shopper sees it.
    case outOfStock(skuID: SKUID, sku: SKULabel, available: Int64)
    /// Unknown SKU, or its product is off sale.
    case skuNotFound
    /// No such line in this user's cart.
    case lineNotFound
}
