/// A shipping address in a user's address book.
public struct Address: Sendable, Equatable {
    public let id: AddressID
    public var recipient: String
    public var phone: String
    public var province: String
    public var city: String
    public var district: String
    public var detail: String
    public var postalCode: String?
    public var isDefault: Bool
    /// The district (or leaf city) the province, city and district names were filled from; nil
    /// for an address typed by hand, or one whose names were changed by hand since.
    public var regionCode: RegionCode?
}

/// The writable fields of an address; on update, nil leaves a field as it is.
public struct AddressFields: Sendable {
    public var recipient: String?
    public var phone: String?
    public var province: String?
    public var city: String?
    public var district: String?
    public var detail: String?
    public var postalCode: String?
    public var isDefault: Bool?
    /// A leaf's GB/T 2260 code as sent: when given, the province, city and district names come from it.
    public var regionCode: String?

    public init(recipient: String? = nil, phone: String? = nil, province: String? = nil, city: String? = nil,
                district: String? = nil, detail: String? = nil, postalCode: String? = nil, isDefault: Bool? = nil,
                regionCode: String? = nil) {
        self.recipient = recipient
        self.phone = phone
        self.province = province
        self.city = city
        self.district = district
        self.detail = detail
        self.postalCode = postalCode
        self.isDefault = isDefault
        self.regionCode = regionCode
    }
}
