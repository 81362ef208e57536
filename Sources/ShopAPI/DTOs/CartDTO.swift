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

/// The postal fields of an address or an order's address snapshot (`postal_code` null when not given).
struct PostalAddressBody: Encodable {
    let recipient: String
    let phone: String
    let province: String
    let city: String
    let district: String
    let detail: String
    @ExplicitNull var postalCode: String?
}

/// `Address` on the wire: its id, the postal fields (flat, as `PostalAddressBody` has them) and
/// whether it is the default.
struct AddressResponse: Encodable {
    let id: AddressID
    let recipient: String
    let phone: String
    let province: String
    let city: String
    let district: String
    let detail: String
    @ExplicitNull var postalCode: String?
    let isDefault: Bool

    init(_ a: Address) {
        id = a.id
        recipient = a.recipient
        phone = a.phone
        province = a.province
        city = a.city
        district = a.district
        detail = a.detail
        postalCode = a.postalCode
        isDefault = a.isDefault
    }
}
