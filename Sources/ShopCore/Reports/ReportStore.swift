import Foundation
import SQL

/// SQL for the reports: read-only aggregates over orders, their lines and refunds.
struct ReportStore {
    /// A day and the unix seconds it covers: [startsAt, endsAt).
    struct DayBounds {
        let day: CalendarDay
        let startsAt: Int64
        let endsAt: Int64
    }

    /// The figures of each day, in the order given. One statement: the days are a `VALUES` list
    /// (at most 366 of them), each counted through the `paid_at` and `refunded_at` indexes.
    func sales(_ days: [DayBounds], _ db: any SQLConnection) throws -> [CalendarDay: SalesFigures] {
        guard !days.isEmpty else { return [:] }
        let values = days.map { SQL("(\($0.day), \($0.startsAt), \($0.endsAt))") }.joined(separator: ", ")
        let refunded = RefundStatus.refunded
        let rows = try db.query("""
            WITH days (day, starts_at, ends_at) AS (VALUES \(values))
            SELECT d.day,
                (SELECT COUNT(*) FROM orders o WHERE o.paid_at >= d.starts_at AND o.paid_at < d.ends_at) AS orders,
                (SELECT CAST(COALESCE(SUM(i.quantity), 0) AS BIGINT) FROM orders o JOIN order_items i ON i.order_id = o.id
                    WHERE o.paid_at >= d.starts_at AND o.paid_at < d.ends_at) AS items,
                (SELECT CAST(COALESCE(SUM(o.total_cents), 0) AS BIGINT) FROM orders o
                    WHERE o.paid_at >= d.starts_at AND o.paid_at < d.ends_at) AS paid_cents,
                (SELECT CAST(COALESCE(SUM(r.amount_cents), 0) AS BIGINT) FROM refunds r
                    WHERE r.status = \(refunded) AND r.refunded_at >= d.starts_at AND r.refunded_at < d.ends_at) AS refunded_cents
            FROM days d
            """)
        var figures: [CalendarDay: SalesFigures] = [:]
        for row in rows {
            figures[try row.decode("day")] = SalesFigures(
                orders: Int(try row.decode("orders", as: Int64.self)), items: Int(try row.decode("items", as: Int64.self)),
                paidCents: try row.decode("paid_cents"), refundedCents: try row.decode("refunded_cents"))
        }
        return figures
    }

    /// Orders of a delivery day by slot and status, unpaid ones left out (an order never paid is
    /// nothing to deliver).
    func deliveries(on day: CalendarDay, _ db: any SQLConnection) throws -> [DeliveryCount] {
        try db.query("""
            SELECT delivery_slot, status, COUNT(*) AS orders FROM orders
            WHERE delivery_date = \(day) AND paid_at IS NOT NULL
            GROUP BY delivery_slot, status
            """).map { row in
            DeliveryCount(slot: try row.decode("delivery_slot"), status: try row.decode("status"),
                          orders: Int(try row.decode("orders", as: Int64.self)))
        }
    }
}
