import ShopCore

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
