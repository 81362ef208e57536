/// One line of a cart, with the SKU's current price and stock.
public struct CartLine: Sendable, Equatable {
    public let id: CartItemID
    public let skuID: SKUID
    public let productID: ProductID
    public let title: String
    public let skuName: String
    public let coverURL: String
    public let priceCents: Int64
    public let quantity: Int
    public let selected: Bool
    /// False when the product went off sale or the stock no longer covers the quantity.
    public let available: Bool
    public let stock: Int64
}

/// A user's cart and its totals.
public struct Cart: Sendable, Equatable {
    public let lines: [CartLine]
    /// The coupon the buyer asked to see applied (`GET /cart?coupon_code=`), and what it takes off.
    public var coupon: AppliedCoupon? = nil
    /// The delivery to the address the buyer asked to see (`GET /cart?address_id=`); nil without one.
    public var delivery: CartDelivery? = nil

    /// What the coupon takes off the selected, available lines; 0 without one.
    public var discountCents: Int64 { coupon?.discountCents ?? 0 }
    /// The selected, available lines as a coupon prices them.
    var checkoutLines: [PricedLine] {
        lines.filter { $0.selected && $0.available }.map { PricedLine(productID: $0.productID, amountCents: $0.priceCents * Int64($0.quantity)) }
    }

    /// Every item in the cart: what the cap limits.
    public var totalQuantity: Int { lines.reduce(0) { $0 + $1.quantity } }
    /// Items on selected lines.
    public var selectedQuantity: Int { lines.filter(\.selected).reduce(0) { $0 + $1.quantity } }
    /// What checkout would charge now: the selected goods less the discount, plus the delivery fee.
    public var totalCents: Int64 { selectedTotalCents - discountCents + (delivery?.feeCents ?? 0) }
    /// What the selected, available lines cost now.
    public var selectedTotalCents: Int64 {
        lines.filter { $0.selected && $0.available }.reduce(0) { $0 + $1.priceCents * Int64($1.quantity) }
    }
}

/// The checkout preview's delivery: the zone serving the address, its fee for the selected goods
/// after the discount, and how much more would make it free.
public struct CartDelivery: Sendable, Equatable {
    public let coverage: DeliveryCoverage
    public let feeCents: Int64
    public let moreForFreeDeliveryCents: Int64?
}
