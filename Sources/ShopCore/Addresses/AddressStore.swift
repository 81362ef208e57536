import SQL
import SQLite

/// SQL for `addresses`; every statement is scoped to the owner.
struct AddressStore {
    static let columns = "id, recipient, phone, province, city, district, detail, postal_code, is_default"

    static func address(_ row: Row) throws -> Address {
        Address(id: AddressID(try row.int64("id")), recipient: try row.string("recipient"), phone: try row.string("phone"),
                province: try row.string("province"), city: try row.string("city"), district: try row.string("district"),
                detail: try row.string("detail"), postalCode: try row.optionalString("postal_code"),
                isDefault: try row.bool("is_default"))
    }

    func list(_ user: UserID, _ db: Connection) throws -> [Address] {
        try db.legacyQuery("SELECT \(Self.columns) FROM addresses WHERE user_id = ? ORDER BY is_default DESC, updated_at DESC, id DESC",
                     user.rawValue).map(Self.address)
    }

    func find(_ id: AddressID, of user: UserID, _ db: Connection) throws -> Address? {
        try db.legacyQueryOne("SELECT \(Self.columns) FROM addresses WHERE id = ? AND user_id = ?", id.rawValue, user.rawValue)
            .map(Self.address)
    }

    func count(_ user: UserID, _ db: Connection) throws -> Int {
        Int(try db.legacyScalarInt("SELECT COUNT(*) FROM addresses WHERE user_id = ?", user.rawValue) ?? 0)
    }

    func insert(_ a: Address, user: UserID, at now: Int64, _ db: Connection) throws -> AddressID {
        try db.legacyRun("""
            INSERT INTO addresses (user_id, recipient, phone, province, city, district, detail, postal_code, is_default,
                                   created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)
            """, user.rawValue, a.recipient, a.phone, a.province, a.city, a.district, a.detail, a.postalCode, now, now)
        return AddressID(db.lastInsertRowID)
    }

    func update(_ a: Address, user: UserID, at now: Int64, _ db: Connection) throws {
        try db.legacyRun("""
            UPDATE addresses SET recipient = ?, phone = ?, province = ?, city = ?, district = ?, detail = ?, postal_code = ?,
                                 updated_at = ?
            WHERE id = ? AND user_id = ?
            """, a.recipient, a.phone, a.province, a.city, a.district, a.detail, a.postalCode, now, a.id.rawValue, user.rawValue)
    }

    /// Makes `id` the only default of the user (clear first: the partial unique index allows one).
    func makeDefault(_ id: AddressID, user: UserID, _ db: Connection) throws {
        try db.legacyRun("UPDATE addresses SET is_default = 0 WHERE user_id = ? AND is_default = 1 AND id <> ?", user.rawValue, id.rawValue)
        try db.legacyRun("UPDATE addresses SET is_default = 1 WHERE id = ? AND user_id = ?", id.rawValue, user.rawValue)
    }

    func delete(_ id: AddressID, user: UserID, _ db: Connection) throws -> Bool {
        try db.legacyRun("DELETE FROM addresses WHERE id = ? AND user_id = ?", id.rawValue, user.rawValue) == 1
    }

    /// The most recently updated address, the one promoted when the default is deleted.
    func mostRecentlyUpdated(_ user: UserID, _ db: Connection) throws -> AddressID? {
        try db.legacyScalarInt("SELECT id FROM addresses WHERE user_id = ? ORDER BY updated_at DESC, id DESC LIMIT 1", user.rawValue)
            .map(AddressID.init)
    }
}
