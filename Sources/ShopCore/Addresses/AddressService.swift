import Crypto
import Foundation

import SQL

/// The address book: at most `maxPerUser` addresses, exactly one default while any exists. An
/// address may name its district by code (`region_code`): its province, city and district names
/// then come from `regions`, whatever names the client sent.
public struct AddressService: Sendable {
    let pool: any Database
    let clock: Clock
    let regions: RegionDirectory
    private let store = AddressStore()

    public static let maxPerUser = 20

    public init(pool: any Database, clock: Clock, regions: RegionDirectory) {
        self.pool = pool
        self.clock = clock
        self.regions = regions
    }

    public func list(for user: UserID) throws -> [Address] {
        try pool.read { db in try store.list(user, db) }
    }

    public func address(_ id: AddressID, for user: UserID) throws -> Address {
        guard let address = try pool.read({ db in try store.find(id, of: user, db) }) else { throw AddressError.notFound }
        return address
    }

    /// Adds an address; the first one (or one sent with `is_default: true`) becomes the default.
    public func create(_ fields: AddressFields, for user: UserID) throws -> Address {
        let draft = try validated(fields, over: nil)
        let now = clock.unixNow
        return try pool.write { db in
            try db.serialize(on: "addresses:\(user)")
            let count = try store.count(user, db)
            guard count < Self.maxPerUser else { throw AddressError.limitExceeded(max: Self.maxPerUser) }
            let id = try store.insert(draft, user: user, at: now, db)
            if count == 0 || fields.isDefault == true { try store.makeDefault(id, user: user, db) }
            guard let created = try store.find(id, of: user, db) else { throw AddressError.notFound }
            return created
        }
    }

    /// Changes the given fields; `is_default: true` makes it the default (`false` is ignored:
    /// choose another default instead, so one always exists).
    public func update(_ id: AddressID, _ fields: AddressFields, for user: UserID) throws -> Address {
        let now = clock.unixNow
        return try pool.write { db in
            try db.serialize(on: "addresses:\(user)")
            guard let current = try store.find(id, of: user, db) else { throw AddressError.notFound }
            var updated = try validated(fields, over: current)
            updated.isDefault = current.isDefault
            try store.update(updated, user: user, at: now, db)
            if fields.isDefault == true { try store.makeDefault(id, user: user, db) }
            guard let saved = try store.find(id, of: user, db) else { throw AddressError.notFound }
            return saved
        }
    }

    /// Deletes an address; deleting the default promotes the most recently updated one left.
    public func delete(_ id: AddressID, for user: UserID) throws {
        try pool.write { db in
            try db.serialize(on: "addresses:\(user)")
            guard let current = try store.find(id, of: user, db) else { throw AddressError.notFound }
            _ = try store.delete(id, user: user, db)
            if current.isDefault, let next = try store.mostRecentlyUpdated(user, db) {
                try store.makeDefault(next, user: user, db)
            }
        }
    }

    public func makeDefault(_ id: AddressID, for user: UserID) throws -> Address {
        try pool.write { db in
            try db.serialize(on: "addresses:\(user)")
            guard try store.find(id, of: user, db) != nil else { throw AddressError.notFound }
            try store.makeDefault(id, user: user, db)
            guard let address = try store.find(id, of: user, db) else { throw AddressError.notFound }
            return address
        }
    }

    /// The address `fields` describe (over `current` for an update), or the first broken limit.
    func validated(_ fields: AddressFields, over current: Address?) throws -> Address {
        func value(_ new: String?, _ old: String?, _ field: String, _ range: ClosedRange<Int>) throws -> String {
            guard let text = (new ?? old)?.trimmedInput else {
                throw ValidationError(field, .required)
            }
            try Validate.length(text, range, field: field)
            try Validate.printable(text, field: field)
            return text
        }
        let phone = try PhoneNumber.normalize(fields.phone ?? current?.phone ?? "", field: "phone")
        var postalCode = fields.postalCode ?? current?.postalCode
        if let code = postalCode?.trimmingCharacters(in: .whitespaces) {
            guard code.isEmpty || (code.utf8.count == 6 && code.isASCIIDigits) else {
                throw ValidationError("postal_code", .postalCode)
            }
            postalCode = code.isEmpty ? nil : code
        }
        let recipient = try value(fields.recipient, current?.recipient, "recipient", 1...20)
        let place: (names: RegionNames, code: RegionCode?)
        if let text = fields.regionCode {
            // names sent beside a code are replaced by the code's, but are still input and must be
            // names (1 to 20 characters, no control characters); the storefront's picker sends none
            for (name, field) in [(fields.province, "province"), (fields.city, "city"), (fields.district, "district")] {
                guard let name = name?.trimmedInput else { continue }
                try Validate.length(name, 1...20, field: field)
                try Validate.printable(name, field: field)
            }
            place = try region(text)
        } else if let current, let code = current.regionCode, Self.keepsNames(fields, of: current) {
            place = (RegionNames(province: current.province, city: current.city, district: current.district), code)
        } else {
            // Typed by hand (or names changed by hand since a code filled them): no code describes it.
            place = (RegionNames(province: try value(fields.province, current?.province, "province", 1...20),
                                 city: try value(fields.city, current?.city, "city", 1...20),
                                 district: try value(fields.district, current?.district, "district", 1...20)), nil)
        }
        return Address(id: current?.id ?? AddressID(0), recipient: recipient, phone: phone,
                       province: place.names.province, city: place.names.city, district: place.names.district,
                       detail: try value(fields.detail, current?.detail, "detail", 1...120),
                       postalCode: postalCode, isDefault: current?.isDefault ?? false, regionCode: place.code)
    }

    /// The names of a leaf division sent as `region_code`: 400 when not six digits, 422 when no
    /// division has it or it has divisions under it. A leaf at the city level (东莞市, 济源市, Hong
    /// Kong's districts) has no district of its own: its name stands in both places, as an address
    /// always names a district.
    func region(_ text: String) throws -> (names: RegionNames, code: RegionCode?) {
        let code = try RegionCode(validating: text, field: "region_code")
        guard let region = regions.region(code), let names = regions.names(of: code) else {
            throw AddressError.unknownRegion(code)
        }
        guard regions.isLeaf(code) else { throw AddressError.regionNotALeaf(code, name: region.name) }
        return (RegionNames(province: names.province, city: names.city,
                            district: names.district.isEmpty ? names.city : names.district), code)
    }

    /// Whether an update leaves the names a code filled as they are (absent, or sent back unchanged).
    static func keepsNames(_ fields: AddressFields, of current: Address) -> Bool {
        func same(_ new: String?, _ old: String) -> Bool { new.map { $0.trimmedInput == old } ?? true }
        return same(fields.province, current.province) && same(fields.city, current.city)
            && same(fields.district, current.district)
    }
}
