import Foundation
import SQL

/// SQL for orders, their items and checkout idempotency keys.
struct OrderStore {
    static let columns: SQL = """
        id, number, user_id, status, total_cents, note, ship_recipient, ship_phone, ship_province, ship_city,
        ship_district, ship_detail, ship_postal_code, carrier, tracking_number, created_at, pay_deadline, paid_at,
        shipped_at, completed_at, cancelled_at, discount_cents, coupon_code, coupon_description,
        delivery_date, delivery_slot, card_message, card_signature
        """

    /// The column a transition stamps with its time.
    enum Stamp {
        case paidAt, shippedAt, completedAt, cancelledAt

        var column: SQLIdentifier {
            switch self {
            case .paidAt: SQLIdentifier("paid_at")
            case .shippedAt: SQLIdentifier("shipped_at")
            case .completedAt: SQLIdentifier("completed_at")
            case .cancelledAt: SQLIdentifier("cancelled_at")
            }
        }
    }

    struct NewOrder {
        let number: String
        let user: UserID
        let totalCents: Int64
        let note: String
        let address: AddressSnapshot
        let createdAt: Int64
        let payDeadline: Int64
        let delivery: OrderDelivery
    }

    struct NewItem {
        let skuID: SKUID
        let productID: ProductID
        let title: String
        let skuName: String
        let priceCents: Int64
        let quantity: Int
    }

    func insert(_ order: NewOrder, items: [NewItem], _ db: any SQLConnection) throws -> OrderID {
        let a = order.address
        let d = order.delivery
        let id = try db.insert("""
            INSERT INTO orders (number, user_id, status, total_cents, note, ship_recipient, ship_phone, ship_province,
                                ship_city, ship_district, ship_detail, ship_postal_code, created_at, pay_deadline,
                                delivery_date, delivery_slot, card_message, card_signature)
            VALUES (\(order.number), \(order.user), \(OrderStatus.pendingPayment), \(order.totalCents), \(order.note),
                    \(a.recipient), \(a.phone), \(a.province), \(a.city), \(a.district), \(a.detail), \(a.postalCode),
                    \(order.createdAt), \(order.payDeadline), \(d.date), \(d.slot), \(d.cardMessage), \(d.cardSignature))
            """, returning: OrderID.self)
        for item in items {
            try db.run("""
                INSERT INTO order_items (order_id, sku_id, product_id, title, sku_name, price_cents, quantity)
                VALUES (\(id), \(item.skuID), \(item.productID), \(item.title), \(item.skuName), \(item.priceCents),
                        \(item.quantity))
                """)
        }
        return id
    }

    func numberExists(_ number: String, _ db: any SQLConnection) throws -> Bool {
        try db.scalarInt("SELECT COUNT(*) FROM orders WHERE number = \(number)") == 1
    }

    func find(_ id: OrderID, _ db: any SQLConnection) throws -> Order? {
        guard let row = try db.queryOne("SELECT \(Self.columns) FROM orders WHERE id = \(id)") else { return nil }
        return try order(row, db)
    }

    func find(_ id: OrderID, of user: UserID, _ db: any SQLConnection) throws -> Order? {
        guard let row = try db.queryOne("SELECT \(Self.columns) FROM orders WHERE id = \(id) AND user_id = \(user)") else {
            return nil
        }
        return try order(row, db)
    }

    func find(number: String, _ db: any SQLConnection) throws -> Order? {
        guard let row = try db.queryOne("SELECT \(Self.columns) FROM orders WHERE number = \(number)") else { return nil }
        return try order(row, db)
    }

    /// A page of orders, newest first; `user` nil lists everyone's (operators).
    func list(user: UserID?, status: OrderStatus?, page: PageRequest, _ db: any SQLConnection) throws -> Page<Order> {
        var conditions: [SQL] = []
        if let user { conditions.append("user_id = \(user)") }
        if let status { conditions.append("status = \(status)") }
        let filter: SQL = conditions.isEmpty ? .empty : "WHERE \(conditions.joined(separator: " AND "))"
        let total = try db.scalarInt("SELECT COUNT(*) FROM orders \(filter)") ?? 0
        let rows = try db.query("""
            SELECT \(Self.columns) FROM orders \(filter) ORDER BY created_at DESC, id DESC LIMIT \(page.perPage) OFFSET \(page.offset)
            """)
        return Page(items: try rows.map { try order($0, db) }, page: page.page, perPage: page.perPage, total: Int(total))
    }

    /// The florist's worklist: orders to deliver on `day` in `statuses`, by slot (any time last), then
    /// in the order they were placed; at most `limit`.
    func toDeliver(on day: CalendarDay, statuses: [OrderStatus], limit: Int, _ db: any SQLConnection) throws -> [Order] {
        guard !statuses.isEmpty else { return [] }
        let rows = try db.query("""
            SELECT \(Self.columns) FROM orders
            WHERE delivery_date = \(day) AND status IN (\(list: statuses))
            ORDER BY CASE delivery_slot WHEN 'morning' THEN 1 WHEN 'afternoon' THEN 2 WHEN 'evening' THEN 3 ELSE 4 END,
                     created_at, id
            LIMIT \(limit)
            """)
        return try rows.map { try order($0, db) }
    }

    func items(of order: OrderID, _ db: any SQLConnection) throws -> [NewItem] {
        try db.query("""
            SELECT sku_id, product_id, title, sku_name, price_cents, quantity FROM order_items WHERE order_id = \(order) ORDER BY id
            """).map { row in
            NewItem(skuID: try row.decode("sku_id"), productID: try row.decode("product_id"),
                    title: try row.decode("title"), skuName: try row.decode("sku_name"),
                    priceCents: try row.decode("price_cents"), quantity: try row.decode("quantity"))
        }
    }

    /// Moves an order from `from` to `to`, stamping `stamp`; false when it was not in `from`
    /// (another request or the sweeper got there first).
    func transition(_ id: OrderID, from: OrderStatus, to: OrderStatus, stamp: Stamp?, at now: Int64,
                    _ db: any SQLConnection) throws -> Bool {
        guard let stamp else { return try db.run("UPDATE orders SET status = \(to) WHERE id = \(id) AND status = \(from)") == 1 }
        return try db.run("UPDATE orders SET status = \(to), \(stamp.column) = \(now) WHERE id = \(id) AND status = \(from)") == 1
    }

    func setCancelReason(_ id: OrderID, _ reason: String, _ db: any SQLConnection) throws {
        try db.run("UPDATE orders SET cancel_reason = \(reason) WHERE id = \(id)")
    }

    func setShipment(_ id: OrderID, carrier: String, trackingNumber: String, _ db: any SQLConnection) throws {
        try db.run("UPDATE orders SET carrier = \(carrier), tracking_number = \(trackingNumber) WHERE id = \(id)")
    }

    /// How many of the user's orders await payment (each holds its stock until paid or cancelled):
    /// one row kept by triggers on `orders` in the same transaction as any change (migration 0019).
    func unpaidCount(of user: UserID, _ db: any SQLConnection) throws -> Int {
        Int(try db.scalarInt("SELECT unpaid FROM user_unpaid_orders WHERE user_id = \(user)") ?? 0)
    }

    /// Pending orders whose payment deadline has passed.
    func expired(at now: Int64, limit: Int, _ db: any SQLConnection) throws -> [OrderID] {
        try db.query("""
            SELECT id FROM orders WHERE status = \(OrderStatus.pendingPayment) AND pay_deadline <= \(now)
            ORDER BY pay_deadline LIMIT \(limit)
            """).map { try $0.decode("id") }
    }

    /// Shipped orders shipped at or before `before`.
    func shippedBefore(_ before: Int64, limit: Int, _ db: any SQLConnection) throws -> [OrderID] {
        try db.query("""
            SELECT id FROM orders WHERE status = \(OrderStatus.shipped) AND shipped_at <= \(before) ORDER BY shipped_at LIMIT \(limit)
            """).map { try $0.decode("id") }
    }

    // MARK: idempotency keys

    func idempotentOrder(user: UserID, key: IdempotencyKey, _ db: any SQLConnection) throws -> (hash: String, order: OrderID)? {
        try db.queryOne("SELECT request_hash, order_id FROM idempotency_keys WHERE user_id = \(user) AND key = \(key)")
            .map { (try $0.decode("request_hash"), try $0.decode("order_id")) }
    }

    func rememberKey(user: UserID, key: IdempotencyKey, hash: String, order: OrderID, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("""
            INSERT INTO idempotency_keys (user_id, key, request_hash, order_id, created_at)
            VALUES (\(user), \(key), \(hash), \(order), \(now))
            """)
    }

    /// The refund of the payment that paid a refunding or refunded order.
    private func refund(of id: OrderID, status: OrderStatus, _ db: any SQLConnection) throws -> OrderRefund? {
        guard status == .refunding || status == .refunded else { return nil }
        return try db.queryOne("""
            SELECT r.status, r.amount_cents, r.refunded_at FROM refunds r JOIN payments p ON p.id = r.payment_id
            WHERE r.order_id = \(id) AND p.status = \(PaymentStatus.succeeded) ORDER BY r.id LIMIT 1
            """).map { row in
            OrderRefund(status: try row.decode("status"), amountCents: try row.decode("amount_cents"),
                        refundedAt: try row.decode("refunded_at"))
        }
    }

    private func order(_ row: Row, _ db: any SQLConnection) throws -> Order {
        let id: OrderID = try row.decode("id")
        let items = try items(of: id, db).map {
            OrderItem(skuID: $0.skuID, title: $0.title, skuName: $0.skuName, priceCents: $0.priceCents, quantity: $0.quantity)
        }
        let shipment: Shipment? = try row.decode("carrier", as: String?.self).flatMap { carrier in
            try row.decode("tracking_number", as: String?.self).map { Shipment(carrier: carrier, trackingNumber: $0) }
        }
        return Order(
            id: id, number: try row.decode("number"), userID: try row.decode("user_id"),
            status: try row.decode("status"), items: items,
            totalCents: try row.decode("total_cents"), discountCents: try row.decode("discount_cents"),
            coupon: try row.decode("coupon_code", as: String?.self).map {
                OrderCoupon(code: $0, description: try row.decode("coupon_description", as: String?.self) ?? "")
            },
            address: AddressSnapshot(recipient: try row.decode("ship_recipient"), phone: try row.decode("ship_phone"),
                                     province: try row.decode("ship_province"), city: try row.decode("ship_city"),
                                     district: try row.decode("ship_district"), detail: try row.decode("ship_detail"),
                                     postalCode: try row.decode("ship_postal_code")),
            note: try row.decode("note"),
            createdAt: try row.decode("created_at"), payDeadline: try row.decode("pay_deadline"),
            paidAt: try row.decode("paid_at"), shippedAt: try row.decode("shipped_at"), completedAt: try row.decode("completed_at"),
            cancelledAt: try row.decode("cancelled_at"), shipment: shipment, refund: try refund(of: id, status: try row.decode("status"), db),
            delivery: OrderDelivery(date: try row.decode("delivery_date"), slot: try row.decode("delivery_slot"),
                                    cardMessage: try row.decode("card_message"), cardSignature: try row.decode("card_signature")))
    }
}

/// Stored as its raw value (`pending_payment`, `paid`, ...); an unknown one fails the read.
extension OrderStatus: SQLCodable {}
