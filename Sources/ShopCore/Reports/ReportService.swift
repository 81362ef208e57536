import Foundation
import Localization
import SQL

/// The shop's figures for staff: sales by day and one day's deliveries.
///
/// What the sales report counts, per calendar day in `app.timezone` (a day runs from its local
/// midnight to the next, so an order paid at 23:59 Beijing time is that day's even though it is
/// 15:59 UTC):
/// - `orders`, `items`, `paid_cents`: orders whose `paid_at` falls in the day, their lines'
///   quantities and their `total_cents`. An order paid and later cancelled or refunded stays
///   counted on the day it was paid; unpaid orders never count.
/// - `refunded_cents`: refunds the provider confirmed (`status` refunded) whose `refunded_at` falls
///   in the day, whichever day their order was paid. Pending, requested and failed refunds are
///   not money back yet.
/// So `paid_cents - refunded_cents` over a range is what the shop kept of it.
public struct ReportService: Sendable {
    let pool: any Database
    let clock: Clock
    let timeZone: TimeZone
    /// `orders.slot_capacity` (0: no limit), shown beside each slot's places taken.
    let slotCapacity: Int
    private let store = ReportStore()

    /// The longest range one sales report covers.
    public static let maxDays = 366
    /// The range without `from`/`to`: the last 7 days, today included.
    public static let defaultDays = 7

    public init(pool: any Database, clock: Clock, timeZone: TimeZone, slotCapacity: Int = 0) {
        self.pool = pool
        self.clock = clock
        self.timeZone = timeZone
        self.slotCapacity = slotCapacity
    }

    /// Today in the shop's time zone.
    public var today: CalendarDay { CalendarDay(clock.now, in: timeZone) }

    /// Sales of every day from `from` to `to` (both included); `to` defaults to today and `from`
    /// to six days before `to`. A range backwards or longer than `maxDays` is a `ValidationError`.
    public func sales(from: CalendarDay?, to: CalendarDay?) throws -> SalesReport {
        let last = to ?? (from.map { max($0, today) } ?? today)
        let first = from ?? last.adding(days: -(Self.defaultDays - 1))
        guard first <= last else {
            throw ValidationError("from", .notAbove, ["other": .verbatim("to (\(last))")])
        }
        let latest = first.adding(days: Self.maxDays - 1)
        guard last <= latest else {
            throw ValidationError("to", .notAbove, ["other": .verbatim("\(latest) (from + \(Self.maxDays - 1))")])
        }
        let bounds = days(from: first, to: last)
        let figures = try pool.read { db in try store.sales(bounds, db) }
        let days = bounds.map { SalesDay(date: $0.day, figures: figures[$0.day] ?? SalesFigures()) }
        return SalesReport(from: first, to: last, days: days, total: days.reduce(SalesFigures()) { $0 + $1.figures })
    }

    /// One delivery day's paid orders by slot and status (today without `date`).
    public func deliveries(on date: CalendarDay?) throws -> DeliveriesReport {
        let day = date ?? today
        let (counts, taken) = try pool.read { db in (try store.deliveries(on: day, db), try SlotLoadStore().taken(on: day, db)) }
        let slotOrder: [DeliverySlot?] = DeliverySlot.allCases.map { $0 } + [nil]
        let statusOrder = OrderStatus.allCases
        let sorted = counts.sorted { lhs, rhs in
            let l = slotOrder.firstIndex(of: lhs.slot) ?? 0, r = slotOrder.firstIndex(of: rhs.slot) ?? 0
            if l != r { return l < r }
            return (statusOrder.firstIndex(of: lhs.status) ?? 0) < (statusOrder.firstIndex(of: rhs.status) ?? 0)
        }
        return DeliveriesReport(date: day, counts: sorted, capacity: slotCapacity, taken: taken)
    }

    /// Each day's first second and the next day's, in the shop's zone (a day is not always
    /// 86 400 seconds where clocks change).
    func days(from first: CalendarDay, to last: CalendarDay) -> [ReportStore.DayBounds] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        func start(_ day: CalendarDay) -> Int64 {
            let date = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day)) ?? Date(timeIntervalSince1970: 0)
            return Int64(date.timeIntervalSince1970)
        }
        var bounds: [ReportStore.DayBounds] = []
        var day = first
        var startsAt = start(day)
        while day <= last {
            let next = day.adding(days: 1)
            let endsAt = start(next)
            bounds.append(ReportStore.DayBounds(day: day, startsAt: startsAt, endsAt: endsAt))
            day = next
            startsAt = endsAt
        }
        return bounds
    }
}

extension Shop {
    /// Sales by day and deliveries by slot, in `app.timezone`.
    public var reports: ReportService { ReportService(pool: pool, clock: clock, timeZone: config.app.timeZone,
                                                    slotCapacity: config.orders.slotCapacity) }
}
