import Foundation
import SQL

/// SQL for orders, their items and checkout idempotency keys.
struct OrderStore {
    static let columns: SQL = """
        id, number, user_id, status, total_cents, note, ship_recipient, ship_phone, ship_province, ship_city,
        ship_district, ship_detail, ship_postal_code, carrier, tracking_number, created_at, pay_deadline, paid_at,
        shipped_at, completed_at, cancelled_at, discount_cents, coupon_code, coupon_description,
        delivery_date, delivery_slot, card_message, card_signature, delivered_at, delivery_photo_url, delivery_fee_cents,
        tracking_token, anonymous_sender, notify_recipient
        """
    static let itemColumns: SQL = "sku_id, product_id, title, sku_name, price_cents, quantity"
    static let refundColumns: SQL = "r.status, r.amount_cents, r.refunded_at"

    /// The column a transition stamps with its time.
    enum Stamp {
        case paidAt, shippedAt, deliveredAt, completedAt, cancelledAt

        var column: SQLIdentifier {
            switch self {
            case .paidAt: SQLIdentifier("paid_at")
            case .shippedAt: SQLIdentifier("shipped_at")
            case .deliveredAt: SQLIdentifier("delivered_at")
            case .completedAt: SQLIdentifier("completed_at")
            case .cancelledAt: SQLIdentifier("cancelled_at")
            }
        }
    }

    struct NewOrder {
        var number: String
        let user: UserID
        let totalCents: Int64
        let note: String
        let address: AddressSnapshot
        let createdAt: Int64
        let payDeadline: Int64
        let delivery: OrderDelivery
        /// Part of `totalCents`.
        var deliveryFeeCents: Int64 = 0
        /// Whether the order took a place of its slot (`orders.slot_capacity`), to give back on cancel.
        var holdsSlot = false
        var trackingToken: String? = nil
        var anonymousSender = false
        var notifyRecipient = true
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
        let id = try db.insert(Self.insertion(order), returning: OrderID.self)
        for item in items {
            try db.run("""
                INSERT INTO order_items (order_id, sku_id, product_id, title, sku_name, price_cents, quantity)
                VALUES (\(id), \(item.skuID), \(item.productID), \(item.title), \(item.skuName), \(item.priceCents),
                        \(item.quantity))
                """)
        }
        return id
    }

    /// Inserts `order` and answers its row (of `columns`), or nil when its number is taken: the
    /// caller draws another. One statement where a check of the number and the insert were two.
    func insertReturning(_ order: NewOrder, _ db: any SQLConnection) throws -> Row? {
        try db.queryOne(Self.insertion(order) + " ON CONFLICT (number) DO NOTHING RETURNING \(Self.columns)")
    }

    /// The last writes of a checkout: the order, its lines and its idempotency key; answers the
    /// order's row (of `columns`). It ends the transaction (`queryEnding`), so it comes last.
    /// PostgreSQL: one statement whose parts insert the order and, from its id, the lines and the
    /// key, sent with the COMMIT in one round trip where the order's INSERT and the commit were
    /// two; a number (or tracking token) already taken fails it (`isUniqueViolation`), and the
    /// caller places the whole checkout again. SQLite (no writes inside WITH): the order inserted
    /// with a number drawn again from `renumber` while taken, then its lines and key.
    func insertPlaced(_ order: NewOrder, items: [NewItem], key: IdempotencyKey, hash: String,
                      renumber: () -> String, _ db: any SQLConnection) throws -> Row {
        guard db.dialect == .postgresql else {
            var order = order
            while true {
                if let row = try insertReturning(order, db) {
                    let id: OrderID = try row.decode("id")
                    try insertLater(items, of: id, db)
                    try rememberKey(user: order.user, key: key, hash: hash, order: id, at: order.createdAt, db)
                    return row
                }
                order.number = renumber()
            }
        }
        // the lines keep the buyer's order: their ids are drawn in the order of `n`
        let lines: SQL = items.isEmpty ? "SELECT 1 WHERE false" : """
            INSERT INTO order_items (order_id, sku_id, product_id, title, sku_name, price_cents, quantity)
            SELECT placed.id, line.sku_id, line.product_id, line.title, line.sku_name, line.price_cents, line.quantity
            FROM placed, (VALUES \(items.enumerated().map { n, item -> SQL in
                "(\(n), \(item.skuID), \(item.productID), \(item.title), \(item.skuName), \(item.priceCents), \(item.quantity))"
            }.joined(separator: ", "))) AS line (n, sku_id, product_id, title, sku_name, price_cents, quantity)
            ORDER BY line.n
            """
        guard let row = try db.queryEnding("""
            WITH placed AS (\(Self.insertion(order)) RETURNING \(Self.columns)),
                 lines AS (\(lines)),
                 remembered AS (
                     INSERT INTO idempotency_keys (user_id, key, request_hash, order_id, created_at)
                     SELECT \(order.user), \(key), \(hash), placed.id, \(order.createdAt) FROM placed)
            SELECT \(Self.columns) FROM placed
            """).first else {
            throw RowDecodingError(table: "orders", column: "id", value: nil, reason: "the order's INSERT returned no row")
        }
        return row
    }

    /// The lines of a new order, all in one statement, held to go with the next (`runLater`).
    func insertLater(_ items: [NewItem], of order: OrderID, _ db: any SQLConnection) throws {
        guard !items.isEmpty else { return }
        let rows = items.map { item -> SQL in
            "(\(order), \(item.skuID), \(item.productID), \(item.title), \(item.skuName), \(item.priceCents), \(item.quantity))"
        }
        try db.runLater("""
            INSERT INTO order_items (order_id, sku_id, product_id, title, sku_name, price_cents, quantity)
            VALUES \(rows.joined(separator: ", "))
            """)
    }

    /// The order just placed from its row and the lines written with it: it has no refund nor
    /// after-sale yet, so nothing else needs reading.
    func placed(_ row: Row, items: [NewItem]) throws -> Order {
        try Order(row: row, items: items.map {
            OrderItem(skuID: $0.skuID, title: $0.title, skuName: $0.skuName, priceCents: $0.priceCents, quantity: $0.quantity)
        }, refund: nil)
    }

    /// The row of an order (of `columns`).
    func row(_ id: OrderID, _ db: any SQLConnection) throws -> Row? {
        try db.queryOne("SELECT \(Self.columns) FROM orders WHERE id = \(id)")
    }

    /// The `INSERT` of a new order, pending payment.
    private static func insertion(_ order: NewOrder) -> SQL {
        let a = order.address
        let d = order.delivery
        return """
            INSERT INTO orders (number, user_id, status, total_cents, note, ship_recipient, ship_phone, ship_province,
                                ship_city, ship_district, ship_detail, ship_postal_code, created_at, pay_deadline,
                                delivery_date, delivery_slot, card_message, card_signature, delivery_fee_cents, holds_slot,
                                tracking_token, anonymous_sender, notify_recipient)
            VALUES (\(order.number), \(order.user), \(OrderStatus.pendingPayment), \(order.totalCents), \(order.note),
                    \(a.recipient), \(a.phone), \(a.province), \(a.city), \(a.district), \(a.detail), \(a.postalCode),
                    \(order.createdAt), \(order.payDeadline), \(d.date), \(d.slot), \(d.cardMessage), \(d.cardSignature),
                    \(order.deliveryFeeCents), \(order.holdsSlot ? 1 : 0),
                    \(order.trackingToken), \(order.anonymousSender), \(order.notifyRecipient))
            """
    }

    func numberExists(_ number: String, _ db: any SQLConnection) throws -> Bool {
        try db.scalarInt("SELECT COUNT(*) FROM orders WHERE number = \(number)") == 1
    }

    func find(_ id: OrderID, _ db: any SQLConnection) throws -> Order? {
        try db.queryOne("SELECT \(Self.columns) FROM orders WHERE id = \(id)").map { try orders([$0], db)[0] }
    }

    /// The status of one's own order (nil: none such), without its lines: what a change checks first.
    func status(_ id: OrderID, of user: UserID, _ db: any SQLConnection) throws -> OrderStatus? {
        try db.scalar("SELECT status FROM orders WHERE id = \(id) AND user_id = \(user)", as: OrderStatus.self)
    }

    func find(_ id: OrderID, of user: UserID, _ db: any SQLConnection) throws -> Order? {
        try db.queryOne("SELECT \(Self.columns) FROM orders WHERE id = \(id) AND user_id = \(user)").map { try orders([$0], db)[0] }
    }

    /// The order whose tracking page `token` names: one read of the unique index.
    func find(trackingToken token: String, _ db: any SQLConnection) throws -> Order? {
        try db.queryOne("SELECT \(Self.columns) FROM orders WHERE tracking_token = \(token)").map { try orders([$0], db)[0] }
    }

    func find(number: String, _ db: any SQLConnection) throws -> Order? {
        try db.queryOne("SELECT \(Self.columns) FROM orders WHERE number = \(number)").map { try orders([$0], db)[0] }
    }

    /// A page of orders in any of `statuses` (empty: all), newest first; `user` nil lists everyone's (operators).
    func list(user: UserID?, statuses: [OrderStatus], page: PageRequest, _ db: any SQLConnection) throws -> Page<Order> {
        var conditions: [SQL] = []
        if let user { conditions.append("user_id = \(user)") }
        if !statuses.isEmpty { conditions.append("status IN (\(list: statuses))") }
        let filter: SQL = conditions.isEmpty ? .empty : "WHERE \(conditions.joined(separator: " AND "))"
        return try db.page(page, count: "SELECT COUNT(*) FROM orders \(filter)",
                           rows: "SELECT \(Self.columns) FROM orders \(filter) ORDER BY created_at DESC, id DESC",
                           decode: { try orders($0, db) })
    }

    /// The desk's search: a page of every buyer's orders matching `filter`, newest first.
    func search(_ filter: OrderFilter, createdFrom: Int64?, createdBefore: Int64?, page: PageRequest,
                _ db: any SQLConnection) throws -> Page<Order> {
        var conditions: [SQL] = []
        if let status = filter.status { conditions.append("o.status = \(status)") }
        if let day = filter.deliveryDate { conditions.append("o.delivery_date = \(day)") }
        if let createdFrom { conditions.append("o.created_at >= \(createdFrom)") }
        if let createdBefore { conditions.append("o.created_at < \(createdBefore)") }
        if let q = filter.query {
            // the number or a phone whole or in part (the last four digits, say), or part of the recipient's name;
            // the text is a literal, its % and _ escaped
            let like = "%" + q.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
                .replacingOccurrences(of: "_", with: "\\_") + "%"
            conditions.append("""
                (o.number LIKE \(like) ESCAPE '\\' OR o.ship_phone LIKE \(like) ESCAPE '\\'
                 OR o.ship_recipient LIKE \(like) ESCAPE '\\'
                 OR o.user_id IN (SELECT u.id FROM users u WHERE u.phone LIKE \(like) ESCAPE '\\'))
                """)
        }
        let filterSQL: SQL = conditions.isEmpty ? .empty : "WHERE \(conditions.joined(separator: " AND "))"
        return try db.page(page, count: "SELECT COUNT(*) FROM orders o \(filterSQL)",
                           rows: "SELECT \(Self.columns) FROM orders o \(filterSQL) ORDER BY o.created_at DESC, o.id DESC",
                           decode: { try orders($0, db) })
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
        return try orders(rows, db)
    }

    func items(of order: OrderID, _ db: any SQLConnection) throws -> [NewItem] {
        try db.query("SELECT \(Self.itemColumns) FROM order_items WHERE order_id = \(order) ORDER BY id").map(NewItem.init(row:))
    }

    /// Moves an order from one of `from` to `to`, stamping `stamp`; false when it was in none of them
    /// (another request or the sweeper got there first).
    func transition(_ id: OrderID, from: [OrderStatus], to: OrderStatus, stamp: Stamp?, at now: Int64,
                    _ db: any SQLConnection) throws -> Bool {
        guard let stamp else {
            return try db.run("UPDATE orders SET status = \(to) WHERE id = \(id) AND status IN (\(list: from))") == 1
        }
        return try db.run("""
            UPDATE orders SET status = \(to), \(stamp.column) = \(now) WHERE id = \(id) AND status IN (\(list: from))
            """) == 1
    }

    /// Held to go with the next statement or the commit (`runLater`): only its failure matters.
    func setCancelReason(_ id: OrderID, _ reason: String, _ db: any SQLConnection) throws {
        try db.runLater("UPDATE orders SET cancel_reason = \(reason) WHERE id = \(id)")
    }

    func setDeliveryPhoto(_ id: OrderID, _ url: String?, _ db: any SQLConnection) throws {
        try db.run("UPDATE orders SET delivery_photo_url = \(url) WHERE id = \(id)")
    }

    func setShipment(_ id: OrderID, carrier: String?, trackingNumber: String?, _ db: any SQLConnection) throws {
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

    /// Shipped or delivered orders shipped at or before `before`.
    func shippedBefore(_ before: Int64, limit: Int, _ db: any SQLConnection) throws -> [OrderID] {
        try db.query("""
            SELECT id FROM orders WHERE status IN (\(OrderStatus.shipped), \(OrderStatus.delivered)) AND shipped_at <= \(before)
            ORDER BY shipped_at LIMIT \(limit)
            """).map { try $0.decode("id") }
    }

    // MARK: idempotency keys

    /// What checkout reads before it takes stock, in one query (one round trip on PostgreSQL):
    /// the order `key` already placed and the request it was for, the buyer's unpaid orders, and
    /// the address to deliver to, nil when it is not one of the buyer's.
    struct CheckoutStart {
        let replay: (hash: String, order: OrderID)?
        let unpaid: Int
        let address: Address?
    }

    /// The opening read as a query, to send with others (`SQLConnection.queries`); its one row is
    /// read by `checkoutStart(_:)`.
    func checkoutStartQuery(user: UserID, key: IdempotencyKey, address: AddressID) -> SQL {
        """
        SELECT k.request_hash, k.order_id, COALESCE(u.unpaid, 0) AS unpaid, a.*
        FROM (SELECT 1 AS one) AS start
        LEFT JOIN idempotency_keys k ON k.user_id = \(user) AND k.key = \(key)
        LEFT JOIN user_unpaid_orders u ON u.user_id = \(user)
        LEFT JOIN (SELECT \(AddressStore.columns) FROM addresses WHERE id = \(address) AND user_id = \(user)) AS a ON 1 = 1
        """
    }

    /// What the rows of `checkoutStartQuery` say.
    func checkoutStart(_ rows: [Row]) throws -> CheckoutStart {
        guard let row = rows.first else {
            throw RowDecodingError(table: nil, column: "unpaid", value: nil, reason: "the checkout's opening read returned no row")
        }
        let replay = try row.decode("order_id", as: OrderID?.self).map { (try row.decode("request_hash", as: String.self), $0) }
        let address = try row.decode("id", as: AddressID?.self) == nil ? nil : try AddressStore.address(row)
        return CheckoutStart(replay: replay, unpaid: try row.decode("unpaid"), address: address)
    }

    /// Held to go with the next statement or the commit (`runLater`): only its failure matters.
    func rememberKey(user: UserID, key: IdempotencyKey, hash: String, order: OrderID, at now: Int64, _ db: any SQLConnection) throws {
        try db.runLater("""
            INSERT INTO idempotency_keys (user_id, key, request_hash, order_id, created_at)
            VALUES (\(user), \(key), \(hash), \(order), \(now))
            """)
    }

    /// The orders of `rows` (rows of `columns`), their lines, refunds and after-sale links read with
    /// one query each for all of them, so a page of orders costs the same few statements whatever its length.
    func orders(_ rows: [Row], _ db: any SQLConnection) throws -> [Order] {
        guard !rows.isEmpty else { return [] }
        let heads = try rows.map { (id: try $0.decode("id", as: OrderID.self), status: try $0.decode("status", as: OrderStatus.self)) }
        let ids = heads.map(\.id)
        let items = try items(of: ids, db)
        let refunds = try refunds(of: ids, db)
        let afterSales = try AfterSaleStore().links(of: ids, db)
        return try zip(rows, heads).map { row, head in
            let cancelled = head.status == .refunding || head.status == .refunded
            var order = try Order(row: row, items: items[head.id] ?? [], refund: cancelled ? refunds.last[head.id] : nil)
            order.refundedCents = refunds.confirmedCents[head.id] ?? 0
            order.afterSale = afterSales.latest[head.id]
            order.redeliveryOf = afterSales.redelivers[head.id]
            return order
        }
    }

    /// The lines of each of `orders`, in the order they were written.
    private func items(of orders: [OrderID], _ db: any SQLConnection) throws -> [OrderID: [OrderItem]] {
        var items: [OrderID: [OrderItem]] = [:]
        for row in try db.query(chunking: orders, { list in
            "SELECT order_id, \(Self.itemColumns) FROM order_items WHERE order_id IN (\(list)) ORDER BY id"
        }) {
            items[try row.decode("order_id"), default: []].append(try OrderItem(row: row))
        }
        return items
    }

    /// For each of `orders`: the last refund of the payment that paid it (a cancelled paid order's
    /// `refund`), and the sum of its refunds the providers confirmed (`refundedCents`).
    private func refunds(of orders: [OrderID], _ db: any SQLConnection) throws
        -> (last: [OrderID: OrderRefund], confirmedCents: [OrderID: Int64]) {
        var last: [OrderID: OrderRefund] = [:]
        var confirmed: [OrderID: Int64] = [:]
        for row in try db.query(chunking: orders, { list in
            """
            SELECT r.order_id, \(Self.refundColumns), p.status AS payment_status FROM refunds r JOIN payments p ON p.id = r.payment_id
            WHERE r.order_id IN (\(list)) ORDER BY r.id
            """
        }) {
            let order: OrderID = try row.decode("order_id")
            let refund = try OrderRefund(row: row)
            // the last: the cancel's, opened after any part an operator refunded before
            if try row.decode("payment_status", as: PaymentStatus.self) == .succeeded { last[order] = refund }
            if refund.status == .refunded { confirmed[order, default: 0] += refund.amountCents }
        }
        return (last, confirmed)
    }
}

/// Stored as its raw value (`pending_payment`, `paid`, ...); an unknown one fails the read.
extension OrderStatus: SQLCodable {}
