import Foundation
import SQL

/// SQL for after-sale requests and the links they make between orders.
struct AfterSaleStore {
    static let columns: SQL = """
        a.id, a.order_id, o.number AS order_number, a.user_id, a.kind, a.status, a.reason, a.photo_urls, a.amount_cents,
        a.created_at, a.decided_at, a.decision_note, a.decided_by_name, a.refund_number, a.redelivery_order_id,
        r.number AS redelivery_number
        """
    /// What `columns` reads from.
    static let tables: SQL = "after_sales a JOIN orders o ON o.id = a.order_id LEFT JOIN orders r ON r.id = a.redelivery_order_id"

    static func afterSale(_ row: Row) throws -> AfterSale {
        let photos = try row.decode("photo_urls", as: String.self)
        guard let urls = try? JSONDecoder().decode([String].self, from: Data(photos.utf8)) else {
            throw RowDecodingError(table: "after_sales", column: "photo_urls", value: .text(photos), reason: "not a JSON array of strings")
        }
        let redelivery: OrderLink? = try row.decode("redelivery_order_id", as: OrderID?.self).map {
            OrderLink(id: $0, number: try row.decode("redelivery_number"))
        }
        return AfterSale(id: try row.decode("id"), orderID: try row.decode("order_id"), orderNumber: try row.decode("order_number"),
                         userID: try row.decode("user_id"), kind: try row.decode("kind"), status: try row.decode("status"),
                         reason: try row.decode("reason"), photoURLs: urls, amountCents: try row.decode("amount_cents"),
                         createdAt: try row.decode("created_at"), decidedAt: try row.decode("decided_at"),
                         decisionNote: try row.decode("decision_note"), decidedBy: try row.decode("decided_by_name"),
                         refundNumber: try row.decode("refund_number"), redeliveryOrder: redelivery)
    }

    /// A new `requested` request, checked by the caller; the partial unique index `after_sales_one_open` refuses a second
    /// open one for the order (a unique violation the caller answers as `alreadyOpen`).
    func insert(order: OrderID, user: UserID, _ request: AfterSaleRequest, at now: Int64, _ db: any SQLConnection) throws -> AfterSaleID {
        let photos = String(decoding: try JSONEncoder().encode(request.photoURLs ?? []), as: UTF8.self)
        return try db.insert("""
            INSERT INTO after_sales (order_id, user_id, kind, status, reason, photo_urls, amount_cents, created_at)
            VALUES (\(order), \(user), \(request.kind), \(AfterSaleStatus.requested), \(request.reason), \(photos),
                    \(request.amountCents), \(now))
            """, returning: AfterSaleID.self)
    }

    func find(_ id: AfterSaleID, _ db: any SQLConnection) throws -> AfterSale? {
        try db.queryOne("SELECT \(Self.columns) FROM \(Self.tables) WHERE a.id = \(id)").map(Self.afterSale)
    }

    /// Whether `order` has an open request.
    func hasOpen(order: OrderID, _ db: any SQLConnection) throws -> Bool {
        try db.scalarInt("""
            SELECT COUNT(*) FROM after_sales WHERE order_id = \(order) AND status IN (\(AfterSaleStatus.requested), \(AfterSaleStatus.approved))
            """) ?? 0 > 0
    }

    /// Every request about `order`, newest first.
    func all(of order: OrderID, _ db: any SQLConnection) throws -> [AfterSale] {
        try db.query("SELECT \(Self.columns) FROM \(Self.tables) WHERE a.order_id = \(order) ORDER BY a.id DESC").map(Self.afterSale)
    }

    /// The desk's queue: a page of every buyer's requests, of one status or all, newest first.
    func page(status: AfterSaleStatus?, _ page: PageRequest, _ db: any SQLConnection) throws -> Page<AfterSale> {
        let filter: SQL = status.map { "WHERE a.status = \($0)" } ?? .empty
        return try db.page(page, count: "SELECT COUNT(*) FROM after_sales a \(filter)",
                           rows: "SELECT \(Self.columns) FROM \(Self.tables) \(filter) ORDER BY a.created_at DESC, a.id DESC",
                           each: Self.afterSale)
    }

    /// For each of `orders`: its latest request, and the order it redelivers (if it is a redelivery),
    /// read with one query for all of them (a page of orders costs the same statements whatever its length).
    func links(of orders: [OrderID], _ db: any SQLConnection) throws -> (latest: [OrderID: AfterSale], redelivers: [OrderID: OrderLink]) {
        var latest: [OrderID: AfterSale] = [:]
        var redelivers: [OrderID: OrderLink] = [:]
        let wanted = Set(orders)
        // the list is bound twice: half a chunk keeps the statement under the engines' limits
        for row in try db.query(chunking: orders, chunkSize: SQL.listChunkSize / 2, { list in
            "SELECT \(Self.columns) FROM \(Self.tables) WHERE a.order_id IN (\(list)) OR a.redelivery_order_id IN (\(list)) ORDER BY a.id"
        }) {
            let afterSale = try Self.afterSale(row)
            if wanted.contains(afterSale.orderID) { latest[afterSale.orderID] = afterSale }
            if let redelivery = afterSale.redeliveryOrder, wanted.contains(redelivery.id) {
                redelivers[redelivery.id] = OrderLink(id: afterSale.orderID, number: afterSale.orderNumber)
            }
        }
        return (latest, redelivers)
    }

    /// Takes a `requested` request for a decision: true for the one caller that moved it; false when
    /// it had been decided already (another operator got there first). PostgreSQL holds the row
    /// locked to the commit, so a racing decision waits, then finds it taken.
    func claim(_ id: AfterSaleID, as status: AfterSaleStatus, _ db: any SQLConnection) throws -> Bool {
        try db.run("UPDATE after_sales SET status = \(status) WHERE id = \(id) AND status = \(AfterSaleStatus.requested)") == 1
    }

    /// Writes a claimed request's decision: its status, when, the note, who, and what it made.
    func recordDecision(_ id: AfterSaleID, status: AfterSaleStatus, note: String?, amountCents: Int64?, refundNumber: String?,
                        redeliveryOrder: OrderID?, by actor: StaffActor, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("""
            UPDATE after_sales SET status = \(status), decided_at = \(now), decision_note = \(note), decided_by = \(actor.staffID),
                                   decided_by_name = \(actor.name), amount_cents = COALESCE(\(amountCents), amount_cents),
                                   refund_number = \(refundNumber), redelivery_order_id = \(redeliveryOrder)
            WHERE id = \(id)
            """)
    }

    /// An approved refund request whose refund the provider confirmed: `refunded`. Nothing for a
    /// refund no request opened.
    func markRefunded(refundNumber: String, _ db: any SQLConnection) throws {
        try db.run("""
            UPDATE after_sales SET status = \(AfterSaleStatus.refunded)
            WHERE refund_number = \(refundNumber) AND status = \(AfterSaleStatus.approved)
            """)
    }
}
