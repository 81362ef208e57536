import SQLite

/// SQL for `cart_items`; every statement is scoped to the owner.
struct CartStore {
    struct Line {
        let id: CartItemID
        let skuID: SKUID
        let quantity: Int
    }

    struct Purchasable {
        let onSale: Bool
        let stock: Int64
    }

    func lines(of user: UserID, _ db: Connection) throws -> [CartLine] {
        try db.legacyQuery("""
            SELECT c.id, c.sku_id, s.product_id, p.title, s.name AS sku_name, p.cover_url, s.price_cents, c.quantity,
                   c.selected, p.status, s.stock
            FROM cart_items c JOIN skus s ON s.id = c.sku_id JOIN products p ON p.id = s.product_id
            WHERE c.user_id = ? ORDER BY c.created_at DESC, c.id DESC
            """, user.rawValue).map { row in
            let quantity = try row.int("quantity")
            let stock = try row.int64("stock")
            return CartLine(id: CartItemID(try row.int64("id")), skuID: SKUID(try row.int64("sku_id")),
                            productID: ProductID(try row.int64("product_id")), title: try row.string("title"),
                            skuName: try row.string("sku_name"), coverURL: try row.string("cover_url"),
                            priceCents: try row.int64("price_cents"), quantity: quantity, selected: try row.bool("selected"),
                            available: try row.string("status") == ProductStatus.onSale.rawValue && stock >= Int64(quantity),
                            stock: stock)
        }
    }

    func totalQuantity(of user: UserID, _ db: Connection) throws -> Int {
        Int(try db.legacyScalarInt("SELECT COALESCE(SUM(quantity), 0) FROM cart_items WHERE user_id = ?", user.rawValue) ?? 0)
    }

    func line(_ id: CartItemID, of user: UserID, _ db: Connection) throws -> Line? {
        try db.legacyQueryOne("SELECT id, sku_id, quantity FROM cart_items WHERE id = ? AND user_id = ?", id.rawValue, user.rawValue)
            .map { Line(id: CartItemID(try $0.int64("id")), skuID: SKUID(try $0.int64("sku_id")), quantity: try $0.int("quantity")) }
    }

    func line(sku: SKUID, of user: UserID, _ db: Connection) throws -> Line? {
        try db.legacyQueryOne("SELECT id, sku_id, quantity FROM cart_items WHERE sku_id = ? AND user_id = ?", sku.rawValue, user.rawValue)
            .map { Line(id: CartItemID(try $0.int64("id")), skuID: SKUID(try $0.int64("sku_id")), quantity: try $0.int("quantity")) }
    }

    func purchasable(_ sku: SKUID, _ db: Connection) throws -> Purchasable? {
        try db.legacyQueryOne("SELECT p.status, s.stock FROM skus s JOIN products p ON p.id = s.product_id WHERE s.id = ?", sku.rawValue)
            .map { Purchasable(onSale: try $0.string("status") == ProductStatus.onSale.rawValue, stock: try $0.int64("stock")) }
    }

    func insert(user: UserID, sku: SKUID, quantity: Int, at now: Int64, _ db: Connection) throws {
        try db.legacyRun("INSERT INTO cart_items (user_id, sku_id, quantity, selected, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?)",
                   user.rawValue, sku.rawValue, quantity, now, now)
    }

    func setQuantity(_ id: CartItemID, of user: UserID, _ quantity: Int, at now: Int64, _ db: Connection) throws {
        try db.legacyRun("UPDATE cart_items SET quantity = ?, updated_at = ? WHERE id = ? AND user_id = ?",
                   quantity, now, id.rawValue, user.rawValue)
    }

    func setSelected(_ id: CartItemID, of user: UserID, _ selected: Bool, at now: Int64, _ db: Connection) throws {
        try db.legacyRun("UPDATE cart_items SET selected = ?, updated_at = ? WHERE id = ? AND user_id = ?",
                   selected, now, id.rawValue, user.rawValue)
    }

    func delete(_ id: CartItemID, of user: UserID, _ db: Connection) throws -> Bool {
        try db.legacyRun("DELETE FROM cart_items WHERE id = ? AND user_id = ?", id.rawValue, user.rawValue) == 1
    }

    func clear(_ user: UserID, _ db: Connection) throws {
        try db.legacyRun("DELETE FROM cart_items WHERE user_id = ?", user.rawValue)
    }
}
