import Foundation
import ShopCore

/// One day's (or the range's) figures on the wire, in cents.
struct SalesFiguresResponse: Codable {
    let orders: Int
    let items: Int
    let paidCents: Int64
    let refundedCents: Int64

    init(_ figures: SalesFigures) {
        orders = figures.orders
        items = figures.items
        paidCents = figures.paidCents
        refundedCents = figures.refundedCents
    }
}

/// `{"from", "to", "timezone", "items": [{"date", "orders", "items", "paid_cents", "refunded_cents"}], "total"}`.
struct SalesReportResponse: Codable {
    struct Day: Codable {
        let date: String
        let orders: Int
        let items: Int
        let paidCents: Int64
        let refundedCents: Int64
    }

    let from: String
    let to: String
    let timezone: String
    let items: [Day]
    let total: SalesFiguresResponse

    init(_ report: SalesReport, timezone: String) {
        from = report.from.description
        to = report.to.description
        self.timezone = timezone
        items = report.days.map {
            Day(date: $0.date.description, orders: $0.figures.orders, items: $0.figures.items, paidCents: $0.figures.paidCents,
                refundedCents: $0.figures.refundedCents)
        }
        total = SalesFiguresResponse(report.total)
    }
}

/// `{"date", "items": [{"slot", "status", "orders"}], "slots": [{"slot", "orders", "taken"}], "total", "capacity"}`:
/// a delivery day's paid orders by slot and status (`slot` null: any time of the day).
struct DeliveriesReportResponse: Codable {
    struct Count: Codable {
        @ExplicitNull var slot: DeliverySlot?
        let status: OrderStatus
        let orders: Int
    }

    struct SlotTotal: Codable {
        @ExplicitNull var slot: DeliverySlot?
        let orders: Int
        /// Places of the slot's capacity taken (unpaid orders hold theirs too); 0 for any time.
        let taken: Int
    }

    let date: String
    let items: [Count]
    let slots: [SlotTotal]
    let total: Int
    /// `orders.slot_capacity`: orders a slot takes; 0 is no limit.
    let capacity: Int

    init(_ report: DeliveriesReport) {
        date = report.date.description
        items = report.counts.map { Count(slot: $0.slot, status: $0.status, orders: $0.orders) }
        slots = report.bySlot.map { SlotTotal(slot: $0.slot, orders: $0.orders, taken: $0.slot.flatMap { report.taken[$0] } ?? 0) }
        total = report.total
        capacity = report.capacity
    }
}
