import Foundation
import SQL
import SQLite

/// SQL for orders, their items and checkout idempotency keys.
struct OrderStore {
    static let columns = """
        id, number, user_id, status, total_cents, note, ship_recipient, ship_phone, ship_province, ship_city,
        ship_district, ship_detail, ship_postal_code, carrier, tracking_number, created_at, pay_deadline, paid_at,
        shipped_at, completed_at, cancelled_at
        """

    struct NewOrder {
        let number: String
        let user: UserID
        let totalCents: Int64
        let note: String
        let address: AddressSnapshot
        let createdAt: Int64
        let payDeadline: Int64
    }

    struct NewItem {
        let skuID: SKUID
        let productID: ProductID
        let title: String
        let skuName: String
        let priceCents: Int64
        let quantity: Int
    }

    func insert(_ order: NewOrder, items: [NewItem], _ db: Connection) throws -> OrderID {
        let a = order.address
        try db.legacyRun("""
            INSERT INTO orders (number, user_id, status, total_cents, note, ship_recipient, ship_phone, ship_province,
                                ship_city, ship_district, ship_detail, ship_postal_code, created_at, pay_deadline)
            VALUES (?, ?, 'pending_payment', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, order.number, order.user.rawValue, order.totalCents, order.note, a.recipient, a.phone, a.province,
            a.city, a.district, a.detail, a.postalCode, order.createdAt, order.payDeadline)
        let id = OrderID(db.lastInsertRowID)
        for item in items {
            try db.legacyRun("""
                INSERT INTO order_items (order_id, sku_id, product_id, title, sku_name, price_cents, quantity)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, id.rawValue, item.skuID.rawValue, item.productID.rawValue, item.title, item.skuName,
                item.priceCents, item.quantity)
        }
        return id
    }

    func numberExists(_ number: String, _ db: Connection) throws -> Bool {
        try db.legacyScalarInt("SELECT COUNT(*) FROM orders WHERE number = ?", number) == 1
    }

    func find(_ id: OrderID, _ db: Connection) throws -> Order? {
        guard let row = try db.legacyQueryOne("SELECT \(Self.columns) FROM orders WHERE id = ?", id.rawValue) else { return nil }
        return try order(row, db)
    }

    func find(_ id: OrderID, of user: UserID, _ db: Connection) throws -> Order? {
        guard let row = try db.legacyQueryOne("SELECT \(Self.columns) FROM orders WHERE id = ? AND user_id = ?",
                                        id.rawValue, user.rawValue) else { return nil }
        return try order(row, db)
    }

    func find(number: String, _ db: Connection) throws -> Order? {
        guard let row = try db.legacyQueryOne("SELECT \(Self.columns) FROM orders WHERE number = ?", number) else { return nil }
        return try order(row, db)
    }

    /// A page of orders, newest first; `user` nil lists everyone's (operators).
    func list(user: UserID?, status: OrderStatus?, page: PageRequest, _ db: Connection) throws -> Page<Order> {
        var conditions: [String] = []
        var bindings: [any SQLBindable] = []
        if let user {
            conditions.append("user_id = ?")
            bindings.append(user.rawValue)
        }
        if let status {
            conditions.append("status = ?")
            bindings.append(status.rawValue)
        }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let total = try db.legacyScalarInt("SELECT COUNT(*) FROM orders \(filter)", bindings: bindings) ?? 0
        let rows = try db.legacyQuery("SELECT \(Self.columns) FROM orders \(filter) ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
                                bindings: bindings + [page.perPage, page.offset])
        return Page(items: try rows.map { try order($0, db) }, page: page.page, perPage: page.perPage, total: Int(total))
    }

    func items(of order: OrderID, _ db: Connection) throws -> [NewItem] {
        try db.legacyQuery("SELECT sku_id, product_id, title, sku_name, price_cents, quantity FROM order_items WHERE order_id = ? ORDER BY id",
                     order.rawValue).map { row in
            NewItem(skuID: SKUID(try row.int64("sku_id")), productID: ProductID(try row.int64("product_id")),
                    title: try row.string("title"), skuName: try row.string("sku_name"),
                    priceCents: try row.int64("price_cents"), quantity: try row.int("quantity"))
        }
    }

    /// Moves an order from `from` to `to`, stamping `timeColumn`; false when it was not in `from`
    /// (another request or the sweeper got there first).
    func transition(_ id: OrderID, from: OrderStatus, to: OrderStatus, timeColumn: String, at now: Int64,
                    _ db: Connection) throws -> Bool {
        precondition(["paid_at", "shipped_at", "completed_at", "cancelled_at"].contains(timeColumn))
        return try db.legacyRun("UPDATE orders SET status = ?, \(timeColumn) = ? WHERE id = ? AND status = ?",
                          to.rawValue, now, id.rawValue, from.rawValue) == 1
    }

    func setCancelReason(_ id: OrderID, _ reason: String, _ db: Connection) throws {
        try db.legacyRun("UPDATE orders SET cancel_reason = ? WHERE id = ?", reason, id.rawValue)
    }

    func setShipment(_ id: OrderID, carrier: String, trackingNumber: String, _ db: Connection) throws {
        try db.legacyRun("UPDATE orders SET carrier = ?, tracking_number = ? WHERE id = ?", carrier, trackingNumber, id.rawValue)
    }

    /// How many of the user's orders await payment (each holds its stock until paid or cancelled).
    func unpaidCount(of user: UserID, _ db: Connection) throws -> Int {
        Int(try db.legacyScalarInt("SELECT COUNT(*) FROM orders WHERE user_id = ? AND status = 'pending_payment'", user.rawValue) ?? 0)
    }

    /// Pending orders whose payment deadline has passed.
    func expired(at now: Int64, limit: Int, _ db: Connection) throws -> [OrderID] {
        try db.legacyQuery("SELECT id FROM orders WHERE status = 'pending_payment' AND pay_deadline <= ? ORDER BY pay_deadline LIMIT ?",
                     now, limit).map { OrderID(try $0.int64("id")) }
    }

    /// Shipped orders shipped at or before `before`.
    func shippedBefore(_ before: Int64, limit: Int, _ db: Connection) throws -> [OrderID] {
        try db.legacyQuery("SELECT id FROM orders WHERE status = 'shipped' AND shipped_at <= ? ORDER BY shipped_at LIMIT ?",
                     before, limit).map { OrderID(try $0.int64("id")) }
    }

    // MARK: idempotency keys

    func idempotentOrder(user: UserID, key: String, _ db: Connection) throws -> (hash: String, order: OrderID)? {
        try db.legacyQueryOne("SELECT request_hash, order_id FROM idempotency_keys WHERE user_id = ? AND key = ?", user.rawValue, key)
            .map { (try $0.string("request_hash"), OrderID(try $0.int64("order_id"))) }
    }

    func rememberKey(user: UserID, key: String, hash: String, order: OrderID, at now: Int64, _ db: Connection) throws {
        try db.legacyRun("INSERT INTO idempotency_keys (user_id, key, request_hash, order_id, created_at) VALUES (?, ?, ?, ?, ?)",
                   user.rawValue, key, hash, order.rawValue, now)
    }

    private func order(_ row: Row, _ db: Connection) throws -> Order {
        func date(_ column: String) throws -> Date? {
            try row.optionalInt64(column).map { Date(timeIntervalSince1970: TimeInterval($0)) }
        }
        let id = OrderID(try row.int64("id"))
        let items = try items(of: id, db).map {
            OrderItem(skuID: $0.skuID, title: $0.title, skuName: $0.skuName, priceCents: $0.priceCents, quantity: $0.quantity)
        }
        let shipment: Shipment? = try row.optionalString("carrier").flatMap { carrier in
            try row.optionalString("tracking_number").map { Shipment(carrier: carrier, trackingNumber: $0) }
        }
        return Order(
            id: id, number: try row.string("number"), userID: UserID(try row.int64("user_id")),
            status: OrderStatus(rawValue: try row.string("status")) ?? .cancelled, items: items,
            totalCents: try row.int64("total_cents"),
            address: AddressSnapshot(recipient: try row.string("ship_recipient"), phone: try row.string("ship_phone"),
                                     province: try row.string("ship_province"), city: try row.string("ship_city"),
                                     district: try row.string("ship_district"), detail: try row.string("ship_detail"),
                                     postalCode: try row.optionalString("ship_postal_code")),
            note: try row.string("note"),
            createdAt: try date("created_at") ?? Date(timeIntervalSince1970: 0),
            payDeadline: try date("pay_deadline") ?? Date(timeIntervalSince1970: 0),
            paidAt: try date("paid_at"), shippedAt: try date("shipped_at"), completedAt: try date("completed_at"),
            cancelledAt: try date("cancelled_at"), shipment: shipment)
    }
}

/// SQL on SKU stock and product sales for orders: the guard that never oversells.
struct StockStore {
    struct Priced {
        let productID: ProductID
        let title: String
        let skuName: String
        let priceCents: Int64
        let onSale: Bool
    }

    func priced(_ sku: SKUID, _ db: Connection) throws -> Priced? {
        try db.legacyQueryOne("""
            SELECT s.product_id, p.title, s.name, s.price_cents, p.status FROM skus s JOIN products p ON p.id = s.product_id
            WHERE s.id = ?
            """, sku.rawValue).map { row in
            Priced(productID: ProductID(try row.int64("product_id")), title: try row.string("title"), skuName: try row.string("name"),
                   priceCents: try row.int64("price_cents"), onSale: try row.string("status") == ProductStatus.onSale.rawValue)
        }
    }

    /// Takes `quantity` from stock only if that many are there; false (nothing changed) otherwise.
    func take(_ quantity: Int, of sku: SKUID, _ db: Connection) throws -> Bool {
        try db.legacyRun("UPDATE skus SET stock = stock - ? WHERE id = ? AND stock >= ?", quantity, sku.rawValue, quantity) == 1
    }

    func giveBack(_ quantity: Int, of sku: SKUID, _ db: Connection) throws {
        try db.legacyRun("UPDATE skus SET stock = stock + ? WHERE id = ?", quantity, sku.rawValue)
    }

    func addSales(_ quantity: Int, to product: ProductID, _ db: Connection) throws {
        try db.legacyRun("UPDATE products SET sales = sales + ? WHERE id = ?", quantity, product.rawValue)
    }
}
