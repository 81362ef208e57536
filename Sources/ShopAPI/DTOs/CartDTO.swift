import ShopCore

/// `Cart` on the wire.
struct CartResponse: Codable {
    struct Line: Codable {
        let id: CartItemID
        let skuID: SKUID
        let productID: ProductID
        let title: String
        let skuName: String
        let coverURL: String
        /// The cover's thumbnail (see `ProductSummaryResponse.coverThumbnailURL`).
        let coverThumbnailURL: String
        let priceCents: Int64
        let quantity: Int
        let selected: Bool
        let available: Bool
        let stock: Int64
    }

    let items: [Line]
    let totalQuantity: Int
    let selectedQuantity: Int
    let selectedTotalCents: Int64
    /// What the coupon asked for takes off the selected total; 0 without one.
    let discountCents: Int64
    @ExplicitNull var coupon: CouponBody?
    /// The delivery fee to the address asked for (`?address_id=`), as checkout adds it (a peak day
    /// adds its fee at checkout); 0 without one.
    let deliveryFeeCents: Int64
    /// What checkout would charge now: the selected total less the discount, plus the delivery fee.
    let totalCents: Int64
    /// The zone serving the address asked for; null without one, or while the shop has no zones.
    @ExplicitNull var deliveryZone: ServingZoneBody?
    /// How much more in goods would make delivery free ("再买 ¥X 免配送费"); null when nothing would.
    @ExplicitNull var moreForFreeDeliveryCents: Int64?

    init(_ cart: Cart) {
        items = cart.lines.map {
            Line(id: $0.id, skuID: $0.skuID, productID: $0.productID, title: $0.title, skuName: $0.skuName,
                 coverURL: $0.coverURL, coverThumbnailURL: MediaLibrary.thumbnailURL(for: $0.coverURL), priceCents: $0.priceCents, quantity: $0.quantity, selected: $0.selected,
                 available: $0.available, stock: $0.stock)
        }
        totalQuantity = cart.totalQuantity
        selectedQuantity = cart.selectedQuantity
        selectedTotalCents = cart.selectedTotalCents
        discountCents = cart.discountCents
        coupon = cart.coupon.map { CouponBody(code: $0.code, description: $0.description) }
        deliveryFeeCents = cart.delivery?.feeCents ?? 0
        totalCents = cart.totalCents
        deliveryZone = cart.delivery?.coverage.zone.map(ServingZoneBody.init)
        moreForFreeDeliveryCents = cart.delivery?.moreForFreeDeliveryCents
    }
}

/// A coupon on a cart or an order: `{"code", "description"}`.
struct CouponBody: Codable {
    let code: String
    let description: String
}
