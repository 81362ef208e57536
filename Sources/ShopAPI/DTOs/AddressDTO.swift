import ShopCore

/// The postal fields of an address or an order's address snapshot (`postal_code` null when not given).
struct PostalAddressBody: Codable {
    let recipient: String
    let phone: String
    let province: String
    let city: String
    let district: String
    let detail: String
    @ExplicitNull var postalCode: String?
}

/// `Address` on the wire: the postal fields, flat beside its id and whether it is the default.
typealias AddressResponse = Flat<PostalAddressBody, AddressIdentity>

/// What an address has beyond its postal fields: the order's snapshot keeps the names, not the code.
struct AddressIdentity: Codable {
    let id: AddressID
    let isDefault: Bool
    /// The district (or leaf city) the names were filled from; null when typed by hand.
    @ExplicitNull var regionCode: RegionCode?
}

extension Flat where Shared == PostalAddressBody, Own == AddressIdentity {
    init(_ a: Address) {
        self.init(PostalAddressBody(recipient: a.recipient, phone: a.phone, province: a.province, city: a.city,
                                    district: a.district, detail: a.detail, postalCode: a.postalCode),
                  AddressIdentity(id: a.id, isDefault: a.isDefault, regionCode: a.regionCode))
    }
}
