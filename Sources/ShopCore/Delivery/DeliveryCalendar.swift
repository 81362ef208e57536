import Foundation

/// The delivery-day rules of `Config`: which days (and slots) an order placed at a given moment
/// can be delivered on. Pure: the moment comes from the caller's injected `Clock`.
///
/// - Days are read in `timeZone` (`app.timezone`), so "today" flips at the shop's midnight, not UTC's.
/// - Today is possible only before `cutoffMinute` (`orders.same_day_cutoff`), when no item is
///   `next_day`, and while at least one slot has not started (see `DeliverySlot`).
/// - The last possible day is today + `maxDaysAhead` (`orders.max_days_ahead`).
/// - `closedDates` (`orders.closed_dates`) are never offered.
/// - On a peak day (`orders.peak_dates`: Valentine's Day, 520) nothing is delivered the same day.
/// - A slot in `full` (its capacity taken, `orders.slot_capacity`) is not offered; a day whose
///   slots are all full is not either.
public struct DeliveryCalendar: Sendable {
    public let timeZone: TimeZone
    public let cutoffMinute: Int
    public let maxDaysAhead: Int
    public let closedDates: Set<CalendarDay>
    public let peakDates: Set<MonthDay>

    public init(timeZone: TimeZone, cutoffMinute: Int, maxDaysAhead: Int, closedDates: Set<CalendarDay>,
                peakDates: Set<MonthDay> = []) {
        self.timeZone = timeZone
        self.cutoffMinute = cutoffMinute
        self.maxDaysAhead = maxDaysAhead
        self.closedDates = closedDates
        self.peakDates = peakDates
    }

    /// The calendar of the `orders.*` delivery settings, read in `timeZone` (`app.timezone`).
    public init(_ settings: Config.Orders, timeZone: TimeZone) {
        self.init(timeZone: timeZone, cutoffMinute: settings.sameDayCutoff, maxDaysAhead: settings.maxDaysAhead,
                  closedDates: Set(settings.closedDates), peakDates: Set(settings.peakDates))
    }

    /// Whether `date` is a peak day (no same-day orders, the peak fee).
    public func isPeak(_ date: CalendarDay) -> Bool { peakDates.contains(MonthDay(date)) }

    /// The days an order placed at `now` may be delivered on, at most: today to today + `maxDaysAhead`.
    public func window(at now: Date) -> ClosedRange<CalendarDay> {
        let today = today(at: now)
        return today...today.adding(days: maxDaysAhead)
    }

    /// The slots of `date` still open to an order placed at `now`, in the day's order.
    public func openSlots(on date: CalendarDay, at now: Date, nextDayOnly: Bool, full: Set<DaySlot> = []) -> [DeliverySlot] {
        slots(on: date, today: today(at: now), at: now, nextDayOnly: nextDayOnly, full: full)
    }

    /// The calendar `config` describes.
    public init(_ config: Config) {
        self.init(config.orders, timeZone: config.app.timeZone)
    }

    /// Today in the shop's time zone.
    public func today(at now: Date) -> CalendarDay { CalendarDay(now, in: timeZone) }

    /// Every day an order placed at `now` can be delivered on, earliest first, with its slots.
    /// `nextDayOnly`: the order holds a `next_day` product, so today is out.
    public func days(at now: Date, nextDayOnly: Bool, full: Set<DaySlot> = []) -> [DeliveryDay] {
        let today = today(at: now)
        var days: [DeliveryDay] = []
        for offset in 0...maxDaysAhead {
            let date = today.adding(days: offset)
            let slots = slots(on: date, today: today, at: now, nextDayOnly: nextDayOnly, full: full)
            if !slots.isEmpty { days.append(DeliveryDay(date: date, slots: slots)) }
        }
        return days
    }

    /// The earliest day an order placed at `now` can be delivered on; nil when every day up to
    /// `maxDaysAhead` is closed.
    public func earliest(at now: Date, nextDayOnly: Bool, full: Set<DaySlot> = []) -> CalendarDay? {
        let today = today(at: now)
        for offset in 0...maxDaysAhead {
            let date = today.adding(days: offset)
            if !slots(on: date, today: today, at: now, nextDayOnly: nextDayOnly, full: full).isEmpty { return date }
        }
        return nil
    }

    /// The day to deliver on: `date` when it (and `slot`) is possible; with no date, the earliest
    /// day (that has `slot`, when one is asked for); `DeliveryUnavailable` naming the earliest
    /// possible day otherwise.
    public func resolve(_ date: CalendarDay?, slot: DeliverySlot?, at now: Date,
                        nextDayOnly: Bool, full: Set<DaySlot> = []) throws(DeliveryUnavailable) -> CalendarDay {
        let today = today(at: now)
        let earliest = earliest(at: now, nextDayOnly: nextDayOnly, full: full)
        guard let date else {
            guard let earliest else { throw DeliveryUnavailable(field: "delivery_date", earliest: nil) }
            guard let slot else { return earliest }
            // a slot without a day: the earliest day that still has that slot
            for offset in 0...maxDaysAhead where slots(on: today.adding(days: offset), today: today, at: now, nextDayOnly: nextDayOnly, full: full).contains(slot) {
                return today.adding(days: offset)
            }
            throw DeliveryUnavailable(field: "delivery_slot", earliest: earliest)
        }
        let open = slots(on: date, today: today, at: now, nextDayOnly: nextDayOnly, full: full)
        guard !open.isEmpty else { throw DeliveryUnavailable(field: "delivery_date", earliest: earliest) }
        if let slot, !open.contains(slot) { throw DeliveryUnavailable(field: "delivery_slot", earliest: earliest) }
        return date
    }

    private func slots(on date: CalendarDay, today: CalendarDay, at now: Date, nextDayOnly: Bool,
                       full: Set<DaySlot>) -> [DeliverySlot] {
        guard date >= today, date <= today.adding(days: maxDaysAhead), !closedDates.contains(date) else { return [] }
        let open: [DeliverySlot]
        if date == today {
            guard !nextDayOnly, !isPeak(date) else { return [] }
            let minute = minuteOfDay(now)
            guard minute < cutoffMinute else { return [] }
            open = DeliverySlot.allCases.filter { $0.startMinute > minute }
        } else {
            open = DeliverySlot.allCases
        }
        return full.isEmpty ? open : open.filter { !full.contains(DaySlot(date: date, slot: $0)) }
    }

    /// Minutes since midnight at `now` in the shop's time zone.
    func minuteOfDay(_ now: Date) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.hour, .minute], from: now)
        return (c.hour ?? 0) * 60 + (c.minute ?? 0)
    }
}

/// The day (or slot) asked for cannot be delivered on: 422 `delivery_unavailable`, naming the field
/// and the earliest possible day (nil when no day in the window is open).
public struct DeliveryUnavailable: Error, Equatable, Sendable {
    public let field: String
    public let earliest: CalendarDay?

    public init(field: String, earliest: CalendarDay?) {
        self.field = field
        self.earliest = earliest
    }
}
