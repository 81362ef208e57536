import SQL

/// SQL for `addresses`; every statement is scoped to the owner.
struct AddressStore {
    static let columns: SQL = "id, recipient, phone, province, city, district, detail, postal_code, is_default, region_code"

    static func address(_ row: Row) throws -> Address {
        Address(id: try row.decode("id"), recipient: try row.decode("recipient"), phone: try row.decode("phone"),
                province: try row.decode("province"), city: try row.decode("city"), district: try row.decode("district"),
                detail: try row.decode("detail"), postalCode: try row.decode("postal_code"),
                isDefault: try row.decode("is_default"), regionCode: try row.decode("region_code"))
    }

    func list(_ user: UserID, _ db: any SQLConnection) throws -> [Address] {
        try db.query("""
            SELECT \(Self.columns) FROM addresses WHERE user_id = \(user) ORDER BY is_default DESC, updated_at DESC, id DESC
            """).map(Self.address)
    }

    func find(_ id: AddressID, of user: UserID, _ db: any SQLConnection) throws -> Address? {
        try db.queryOne("SELECT \(Self.columns) FROM addresses WHERE id = \(id) AND user_id = \(user)").map(Self.address)
    }

    func count(_ user: UserID, _ db: any SQLConnection) throws -> Int {
        try db.scalar("SELECT COUNT(*) FROM addresses WHERE user_id = \(user)", as: Int.self) ?? 0
    }

    func insert(_ a: Address, user: UserID, at now: Int64, _ db: any SQLConnection) throws -> AddressID {
        try db.insert("""
            INSERT INTO addresses (user_id, recipient, phone, province, city, district, detail, postal_code, is_default,
                                   region_code, created_at, updated_at)
            VALUES (\(user), \(a.recipient), \(a.phone), \(a.province), \(a.city), \(a.district), \(a.detail),
                    \(a.postalCode), 0, \(a.regionCode), \(now), \(now))
            """, returning: AddressID.self)
    }

    func update(_ a: Address, user: UserID, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("""
            UPDATE addresses SET recipient = \(a.recipient), phone = \(a.phone), province = \(a.province), city = \(a.city),
                                 district = \(a.district), detail = \(a.detail), postal_code = \(a.postalCode),
                                 region_code = \(a.regionCode), updated_at = \(now)
            WHERE id = \(a.id) AND user_id = \(user)
            """)
    }

    /// Makes `id` the only default of the user (clear first: the partial unique index allows one).
    func makeDefault(_ id: AddressID, user: UserID, _ db: any SQLConnection) throws {
        try db.run("UPDATE addresses SET is_default = 0 WHERE user_id = \(user) AND is_default = 1 AND id <> \(id)")
        try db.run("UPDATE addresses SET is_default = 1 WHERE id = \(id) AND user_id = \(user)")
    }

    func delete(_ id: AddressID, user: UserID, _ db: any SQLConnection) throws -> Bool {
        try db.run("DELETE FROM addresses WHERE id = \(id) AND user_id = \(user)") == 1
    }

    /// The most recently updated address, the one promoted when the default is deleted.
    func mostRecentlyUpdated(_ user: UserID, _ db: any SQLConnection) throws -> AddressID? {
        try db.scalar("SELECT id FROM addresses WHERE user_id = \(user) ORDER BY updated_at DESC, id DESC LIMIT 1",
                      as: AddressID.self)
    }
}
