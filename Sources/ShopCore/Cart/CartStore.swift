import SQL

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
        let label: SKULabel
    }

    /// `on_sale` while both the SKU (`s`) and its product (`p`) are on sale: what a buyer may add and buy.
    static let onSale: SQL = "CASE WHEN p.status = 'on_sale' AND s.status = 'on_sale' THEN 'on_sale' ELSE 'off_sale' END"

    static func line(_ row: Row) throws -> Line {
        Line(id: try row.decode("id"), skuID: try row.decode("sku_id"), quantity: try row.decode("quantity"))
    }

    /// The buyer's lines, newest first. `ending`: the transaction's last statement, which may carry
    /// its commit (`queryEnding`: one round trip on PostgreSQL where the read and the commit were two).
    func lines(of user: UserID, ending: Bool = false, _ db: any SQLConnection) throws -> [CartLine] {
        let sql = linesQuery(of: user)
        return try (ending ? db.queryEnding(sql) : db.query(sql)).map(Self.cartLine)
    }

    /// The query of `lines`, to send with others (`SQLConnection.queries`); each row is a `cartLine`.
    func linesQuery(of user: UserID) -> SQL {
        """
        SELECT c.id, c.sku_id, s.product_id, p.title, s.name AS sku_name, p.cover_url, s.price_cents, c.quantity,
               c.selected, \(Self.onSale) AS status, s.stock
        FROM cart_items c JOIN skus s ON s.id = c.sku_id JOIN products p ON p.id = s.product_id
        WHERE c.user_id = \(user) ORDER BY c.created_at DESC, c.id DESC
        """
    }

    /// A row of `lines` (or of a cart function's answer, `cart_add` and its siblings: rows of the
    /// `cart_answer` type, migration 0048, which has the same columns) as the buyer sees it.
    static func cartLine(_ row: Row) throws -> CartLine {
        let quantity: Int = try row.decode("quantity")
        let stock: Int64 = try row.decode("stock")
        return CartLine(id: try row.decode("id"), skuID: try row.decode("sku_id"),
                        productID: try row.decode("product_id"), title: try row.decode("title"),
                        skuName: try row.decode("sku_name"), coverURL: try row.decode("cover_url"),
                        priceCents: try row.decode("price_cents"), quantity: quantity, selected: try row.decode("selected"),
                        available: try row.decode("status", as: ProductStatus.self) == .onSale && stock >= Int64(quantity),
                        stock: stock)
    }

    /// PostgreSQL: the whole add in one statement (`cart_add`, migrations 0046 and 0047), sent as
    /// the transaction's last with its commit (`queryEnding`): its durability (`synchronous_commit`
    /// off for its transaction), the buyer's lock (`lockKey`), the SKU's sale status and stock, the
    /// buyer's line and total, the cap and stock checks, the write and the cart read after it, in
    /// one round trip, the lock held only while the server runs it. Answers the cart's lines, or
    /// throws the `CartError` the service's own checks would.
    func addInOneStatement(_ sku: SKUID, quantity: Int, for user: UserID, maxItems: Int, lockKey: String,
                           at now: Int64, _ db: any SQLConnection) throws -> [CartLine] {
        try Self.changedLines(db.queryEnding("""
            SELECT * FROM cart_add(CAST(\(lockKey) AS TEXT), \(user), \(sku), \(quantity), \(maxItems), \(now))
            """), done: "added", maxItems: maxItems)
    }

    /// PostgreSQL: a line's quantity and/or selection changed in one statement (`cart_update`,
    /// migration 0047), sent with its commit as `addInOneStatement` is: its durability, the buyer's
    /// lock, the owner check, the cap, sale status and stock checks of a raised quantity, the
    /// write and the cart read. nil leaves that column as it is.
    func updateInOneStatement(_ line: CartItemID, quantity: Int?, selected: Bool?, for user: UserID, maxItems: Int,
                              lockKey: String, at now: Int64, _ db: any SQLConnection) throws -> [CartLine] {
        try Self.changedLines(db.queryEnding("""
            SELECT * FROM cart_update(CAST(\(lockKey) AS TEXT), \(user), \(line), CAST(\(quantity) AS BIGINT),
                                      CAST(\(selected) AS SMALLINT), \(maxItems), \(now))
            """), done: "updated", maxItems: maxItems)
    }

    /// PostgreSQL: the buyer's line removed and the cart read in one statement (`cart_remove`,
    /// migration 0047) with its durability, sent with its commit.
    func removeInOneStatement(_ line: CartItemID, of user: UserID, _ db: any SQLConnection) throws -> [CartLine] {
        try Self.changedLines(db.queryEnding("SELECT * FROM cart_remove(\(user), \(line))"), done: "removed", maxItems: 0)
    }

    /// PostgreSQL: every line of the buyer removed in one statement (`cart_clear`, migration
    /// 0047) with its durability, held to go with the commit (`runLater`).
    func clearInOneStatement(_ user: UserID, _ db: any SQLConnection) throws {
        try db.runLater("SELECT cart_clear(\(user))")
    }

    /// A cart function's answer, the one place it is read: rows of `cart_answer` (migration 0048),
    /// the cart's lines after the change (outcome `done`; none when the change left the cart empty),
    /// or one row naming the refusal (`cart_refusal`: the outcome, the SKU, and for `out_of_stock`
    /// the title, the SKU's name and the stock), thrown as the `CartError` the service's own checks
    /// throw for it.
    private static func changedLines(_ rows: [Row], done: String, maxItems: Int) throws -> [CartLine] {
        guard let first = rows.first else { return [] }
        switch try first.decode("outcome", as: String.self) {
        case done:
            return try rows.map(Self.cartLine)
        case "line_not_found":
            throw CartError.lineNotFound
        case "sku_not_found":
            throw CartError.skuNotFound
        case "limit_exceeded":
            throw CartError.limitExceeded(max: maxItems)
        case "out_of_stock":
            throw CartError.outOfStock(skuID: try first.decode("sku_id"),
                                       sku: SKULabel(title: try first.decode("title"), name: try first.decode("sku_name")),
                                       available: try first.decode("stock"))
        case let outcome:
            throw RowDecodingError(table: nil, column: "outcome", value: .text(outcome), reason: "not an outcome of a cart function")
        }
    }

    func totalQuantity(of user: UserID, _ db: any SQLConnection) throws -> Int {
        try db.scalar("SELECT COALESCE(SUM(quantity), 0) FROM cart_items WHERE user_id = \(user)", as: Int.self) ?? 0
    }

    func line(_ id: CartItemID, of user: UserID, _ db: any SQLConnection) throws -> Line? {
        try db.queryOne("SELECT id, sku_id, quantity FROM cart_items WHERE id = \(id) AND user_id = \(user)").map(Self.line)
    }

    func purchasable(_ sku: SKUID, _ db: any SQLConnection) throws -> Purchasable? {
        try db.queryOne("SELECT \(Self.onSale) AS status, s.stock, p.title, s.name FROM skus s JOIN products p ON p.id = s.product_id WHERE s.id = \(sku)")
            .map { row in
                Purchasable(onSale: try row.decode("status", as: ProductStatus.self) == .onSale, stock: try row.decode("stock"),
                            label: SKULabel(title: try row.decode("title"), name: try row.decode("name")))
            }
    }

    /// What adding `sku` needs to know, in one query (one round trip on PostgreSQL): whether it can
    /// be bought, with its stock and label (nil: no such SKU), the buyer's line of it, and the
    /// buyer's items in all.
    func adding(_ sku: SKUID, for user: UserID, _ db: any SQLConnection) throws -> (item: Purchasable?, line: Line?, total: Int) {
        guard let row = try db.queryOne("""
            SELECT s.id AS sku_id, \(Self.onSale) AS status, s.stock, p.title, s.name, c.id, c.quantity,
                   (SELECT COALESCE(SUM(t.quantity), 0) FROM cart_items t WHERE t.user_id = \(user)) AS total
            FROM (SELECT 1 AS one) AS start
            LEFT JOIN (skus s JOIN products p ON p.id = s.product_id) ON s.id = \(sku)
            LEFT JOIN cart_items c ON c.user_id = \(user) AND c.sku_id = \(sku)
            """) else {
            throw RowDecodingError(table: "cart_items", column: "total", value: nil, reason: "the add's read returned no row")
        }
        let item = try row.decode("sku_id", as: SKUID?.self) == nil ? nil : Purchasable(
            onSale: try row.decode("status", as: ProductStatus.self) == .onSale, stock: try row.decode("stock"),
            label: SKULabel(title: try row.decode("title"), name: try row.decode("name")))
        let line = try row.decode("id", as: CartItemID?.self) == nil ? nil
            : Line(id: try row.decode("id"), skuID: sku, quantity: try row.decode("quantity"))
        return (item, line, try row.decode("total"))
    }

    /// Held to go with the next statement or the commit (`runLater`): only its failure matters.
    func insert(user: UserID, sku: SKUID, quantity: Int, at now: Int64, _ db: any SQLConnection) throws {
        try db.runLater("""
            INSERT INTO cart_items (user_id, sku_id, quantity, selected, created_at, updated_at)
            VALUES (\(user), \(sku), \(quantity), 1, \(now), \(now))
            """)
    }

    /// Held to go with the next statement or the commit (`runLater`): only its failure matters.
    func setQuantity(_ id: CartItemID, of user: UserID, _ quantity: Int, at now: Int64, _ db: any SQLConnection) throws {
        try db.runLater("UPDATE cart_items SET quantity = \(quantity), updated_at = \(now) WHERE id = \(id) AND user_id = \(user)")
    }

    func setSelected(_ id: CartItemID, of user: UserID, _ selected: Bool, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("UPDATE cart_items SET selected = \(selected), updated_at = \(now) WHERE id = \(id) AND user_id = \(user)")
    }

    func delete(_ id: CartItemID, of user: UserID, _ db: any SQLConnection) throws -> Bool {
        try db.run("DELETE FROM cart_items WHERE id = \(id) AND user_id = \(user)") == 1
    }

    /// Held to go with the commit (`runLater`): one round trip for the whole clear on PostgreSQL.
    func clear(_ user: UserID, _ db: any SQLConnection) throws {
        try db.runLater("DELETE FROM cart_items WHERE user_id = \(user)")
    }

    /// The lines `ids` of the buyer's cart (those checkout ordered) removed in one statement, held
    /// to go with the commit (`runLater`).
    func deleteLater(_ ids: [CartItemID], of user: UserID, _ db: any SQLConnection) throws {
        guard !ids.isEmpty else { return }
        try db.runLater("DELETE FROM cart_items WHERE user_id = \(user) AND id IN (\(list: ids))")
    }
}
