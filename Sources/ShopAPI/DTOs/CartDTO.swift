import ShopCore

/// `Cart` on the wire.
struct CartResponse: Encodable {
    struct Line: Encodable {
        let id: CartItemID
        let skuID: SKUID
        let productID: ProductID
        let title: String
        let skuName: String
        let coverURL: String
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

    init(_ cart: Cart) {
        items = cart.lines.map {
            Line(id: $0.id, skuID: $0.skuID, productID: $0.productID, title: $0.title, skuName: $0.skuName,
                 coverURL: $0.coverURL, priceCents: $0.priceCents, quantity: $0.quantity, selected: $0.selected,
                 available: $0.available, stock: $0.stock)
        }
        totalQuantity = cart.totalQuantity
        selectedQuantity = cart.selectedQuantity
        selectedTotalCents = cart.selectedTotalCents
    }
}
