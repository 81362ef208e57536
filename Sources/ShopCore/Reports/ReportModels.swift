import Foundation

/// What one day (or a whole range) sold, as `GET /admin/reports/sales` and `shop sales` show it.
public struct SalesFigures: Sendable, Equatable {
    /// Orders paid in the period (whatever became of them later).
    public var orders: Int
    /// The quantities of those orders' lines.
    public var items: Int
    /// What those orders cost the buyers (`total_cents`), delivery included.
    public var paidCents: Int64
    /// Refunds the provider confirmed in the period, whichever day their order was paid.
    public var refundedCents: Int64

    public init(orders: Int = 0, items: Int = 0, paidCents: Int64 = 0, refundedCents: Int64 = 0) {
        self.orders = orders
        self.items = items
        self.paidCents = paidCents
        self.refundedCents = refundedCents
    }

    static func + (lhs: SalesFigures, rhs: SalesFigures) -> SalesFigures {
        SalesFigures(orders: lhs.orders + rhs.orders, items: lhs.items + rhs.items, paidCents: lhs.paidCents + rhs.paidCents,
                     refundedCents: lhs.refundedCents + rhs.refundedCents)
    }
}

/// One calendar day in `app.timezone` and its figures.
public struct SalesDay: Sendable, Equatable {
    public let date: CalendarDay
    public let figures: SalesFigures
}

/// Sales by day from `from` to `to` (both included), every day listed (zeros on a day without
/// sales), and the range's total.
public struct SalesReport: Sendable, Equatable {
    public let from: CalendarDay
    public let to: CalendarDay
    public let days: [SalesDay]
    public let total: SalesFigures
}

/// How many orders of one delivery day are in one status in one slot (`slot` nil: any time).
public struct DeliveryCount: Sendable, Equatable {
    public let slot: DeliverySlot?
    public let status: OrderStatus
    public let orders: Int
}

/// One delivery day's orders counted by slot and status (`GET /admin/reports/deliveries`).
public struct DeliveriesReport: Sendable, Equatable {
    public let date: CalendarDay
    /// Slots in the day's order (morning, afternoon, evening, then any time), statuses in the
    /// state machine's order; only pairs with orders.
    public let counts: [DeliveryCount]
    /// Orders a slot takes (`orders.slot_capacity`; 0: no limit), and the places taken in each
    /// slot, by paid and unpaid orders alike (an unpaid order holds its place until it is cancelled).
    public let capacity: Int
    public let taken: [DeliverySlot: Int]

    public init(date: CalendarDay, counts: [DeliveryCount], capacity: Int = 0, taken: [DeliverySlot: Int] = [:]) {
        self.date = date
        self.counts = counts
        self.capacity = capacity
        self.taken = taken
    }

    /// Orders per slot, every slot listed (any time only when some order has no slot).
    public var bySlot: [(slot: DeliverySlot?, orders: Int)] {
        let slots: [DeliverySlot?] = DeliverySlot.allCases.map { $0 } + (counts.contains { $0.slot == nil } ? [nil] : [])
        return slots.map { slot in (slot, counts.filter { $0.slot == slot }.reduce(0) { $0 + $1.orders }) }
    }

    public var total: Int { counts.reduce(0) { $0 + $1.orders } }
}
