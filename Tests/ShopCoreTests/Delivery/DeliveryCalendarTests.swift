import Foundation
@testable import ShopCore
import Testing

/// The delivery-day rules on a fixed clock: the same-day cutoff, closed days, the +30 window, the
/// shop's midnight (Asia/Shanghai, not UTC), next-day products and today's slots.
@Suite("Delivery calendar")
struct DeliveryCalendarTests {
    static let shanghai = TimeZone(identifier: "Asia/Shanghai")!

    /// December 2026, `day` at `hour:minute` in Shanghai (day 0 is 30 November).
    static func at(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        Date(timeIntervalSince1970: TimeInterval(1_796_083_200 + (day - 1) * 86_400 + (hour - 8) * 3_600 + minute * 60))
    }

    static func day(_ text: String) -> CalendarDay { CalendarDay(text)! }

    static func calendar(closed: [String] = [], zone: TimeZone = shanghai, maxDaysAhead: Int = 30) -> DeliveryCalendar {
        DeliveryCalendar(timeZone: zone, cutoffMinute: 14 * 60, maxDaysAhead: maxDaysAhead, closedDates: Set(closed.map(day)))
    }

    @Test func beforeTheCutoffTodayIsTheEarliestDayWithTheSlotsNotStartedYet() {
        let days = Self.calendar().days(at: Self.at(1, 10), nextDayOnly: false)
        #expect(days.first == DeliveryDay(date: Self.day("2026-12-01"), slots: [.afternoon, .evening]))
        #expect(days.dropFirst().first == DeliveryDay(date: Self.day("2026-12-02"), slots: [.morning, .afternoon, .evening]))
        #expect(Self.calendar().days(at: Self.at(1, 8, 59), nextDayOnly: false).first?.slots == [.morning, .afternoon, .evening])
    }

    @Test func fromTheCutoffOnTheEarliestDayIsTomorrow() {
        #expect(Self.calendar().earliest(at: Self.at(1, 13, 59), nextDayOnly: false) == Self.day("2026-12-01"))
        #expect(Self.calendar().earliest(at: Self.at(1, 14, 0), nextDayOnly: false) == Self.day("2026-12-02"))
        #expect(throws: DeliveryUnavailable(field: "delivery_date", earliest: Self.day("2026-12-02"))) {
            try Self.calendar().resolve(Self.day("2026-12-01"), slot: nil, at: Self.at(1, 14, 0), nextDayOnly: false)
        }
    }

    @Test func aSlotThatHasStartedTodayIsRefusedNamingTheSlot() throws {
        let calendar = Self.calendar()
        #expect(throws: DeliveryUnavailable(field: "delivery_slot", earliest: Self.day("2026-12-01"))) {
            try calendar.resolve(Self.day("2026-12-01"), slot: .morning, at: Self.at(1, 9, 30), nextDayOnly: false)
        }
        #expect(try calendar.resolve(Self.day("2026-12-01"), slot: .evening, at: Self.at(1, 9, 30), nextDayOnly: false)
            == Self.day("2026-12-01"))
        #expect(try calendar.resolve(Self.day("2026-12-02"), slot: .morning, at: Self.at(1, 9, 30), nextDayOnly: false)
            == Self.day("2026-12-02"))
    }

    @Test func aSlotWithoutADayGoesOnTheEarliestDayThatStillHasIt() throws {
        let calendar = Self.calendar(closed: ["2026-12-02"])
        #expect(try calendar.resolve(nil, slot: .morning, at: Self.at(1, 10), nextDayOnly: false) == Self.day("2026-12-03"))
        #expect(try calendar.resolve(nil, slot: .evening, at: Self.at(1, 10), nextDayOnly: false) == Self.day("2026-12-01"))
        #expect(try calendar.resolve(nil, slot: nil, at: Self.at(1, 10), nextDayOnly: false) == Self.day("2026-12-01"))
    }

    @Test func closedDaysAreNeverOfferedAndTheEarliestDaySkipsThem() {
        let calendar = Self.calendar(closed: ["2026-12-01", "2026-12-02"])
        #expect(calendar.earliest(at: Self.at(1, 10), nextDayOnly: false) == Self.day("2026-12-03"))
        let offered = calendar.days(at: Self.at(1, 10), nextDayOnly: false).map(\.date)
        #expect(!offered.contains(Self.day("2026-12-02")))
        #expect(throws: DeliveryUnavailable(field: "delivery_date", earliest: Self.day("2026-12-03"))) {
            try calendar.resolve(Self.day("2026-12-02"), slot: nil, at: Self.at(1, 10), nextDayOnly: false)
        }
    }

    @Test func theLastDayIsThirtyDaysAheadAndPastDaysAreRefused() throws {
        let calendar = Self.calendar()
        let days = calendar.days(at: Self.at(1, 15), nextDayOnly: false)
        #expect(days.count == 30)
        #expect(days.last?.date == Self.day("2026-12-31"))
        #expect(try calendar.resolve(Self.day("2026-12-31"), slot: nil, at: Self.at(1, 15), nextDayOnly: false) == Self.day("2026-12-31"))
        #expect(throws: DeliveryUnavailable(field: "delivery_date", earliest: Self.day("2026-12-02"))) {
            try calendar.resolve(Self.day("2027-01-01"), slot: nil, at: Self.at(1, 15), nextDayOnly: false)
        }
        #expect(throws: DeliveryUnavailable(field: "delivery_date", earliest: Self.day("2026-12-02"))) {
            try calendar.resolve(Self.day("2026-11-30"), slot: nil, at: Self.at(1, 15), nextDayOnly: false)
        }
    }

    @Test func aNextDayProductIsNeverDeliveredTheSameDay() throws {
        let calendar = Self.calendar()
        #expect(calendar.earliest(at: Self.at(1, 8), nextDayOnly: true) == Self.day("2026-12-02"))
        #expect(calendar.days(at: Self.at(1, 8), nextDayOnly: true).first?.date == Self.day("2026-12-02"))
        #expect(throws: DeliveryUnavailable(field: "delivery_date", earliest: Self.day("2026-12-02"))) {
            try calendar.resolve(Self.day("2026-12-01"), slot: .evening, at: Self.at(1, 8), nextDayOnly: true)
        }
    }

    @Test func theDayTurnsAtTheShopsMidnightNotAtUTCMidnight() {
        // 23:59 on 30 November in Shanghai is 15:59 UTC; a minute after Shanghai's midnight it is still 30 November in UTC
        let beforeMidnight = Self.at(0, 23, 59)
        let afterMidnight = Self.at(1, 0, 1)
        #expect(Self.calendar().today(at: afterMidnight) == Self.day("2026-12-01"))
        #expect(Self.calendar(zone: .gmt).today(at: afterMidnight) == Self.day("2026-11-30"))
        #expect(Self.calendar().earliest(at: beforeMidnight, nextDayOnly: true) == Self.day("2026-12-01"))
        #expect(Self.calendar().earliest(at: afterMidnight, nextDayOnly: true) == Self.day("2026-12-02"))
        #expect(Self.calendar(zone: .gmt).earliest(at: afterMidnight, nextDayOnly: true) == Self.day("2026-12-01"))
        // after the cutoff of 30 November, the first minutes of 1 December make it a same-day order again
        #expect(Self.calendar().days(at: afterMidnight, nextDayOnly: false).first
            == DeliveryDay(date: Self.day("2026-12-01"), slots: [.morning, .afternoon, .evening]))
    }

    @Test func withEveryDayClosedThereIsNoEarliestDay() {
        let calendar = Self.calendar(closed: ["2026-12-02", "2026-12-03"], maxDaysAhead: 2)
        #expect(calendar.earliest(at: Self.at(1, 15), nextDayOnly: false) == nil)
        #expect(calendar.days(at: Self.at(1, 15), nextDayOnly: false).isEmpty)
        #expect(throws: DeliveryUnavailable(field: "delivery_date", earliest: nil)) {
            try calendar.resolve(nil, slot: nil, at: Self.at(1, 15), nextDayOnly: false)
        }
    }

    @Test func calendarDaysAreExactlyYYYYMMDDAndRealDays() {
        #expect(CalendarDay("2028-02-29")?.description == "2028-02-29")
        for bad in ["2026-02-29", "2026-13-01", "2026-1-01", "2026-01-01T00:00:00Z", "", "２０２６-01-01", "2026/01/01", "0000-01-01"] {
            #expect(CalendarDay(bad) == nil, "\(bad)")
        }
        #expect(Self.day("2026-12-31").adding(days: 1) == Self.day("2027-01-01"))
        #expect(Self.day("2028-02-28").adding(days: 1) == Self.day("2028-02-29"))
        #expect(Self.day("2026-03-01").adding(days: -1) == Self.day("2026-02-28"))
        #expect(Self.day("2026-12-09") < Self.day("2026-12-10"))
        #expect(Self.day("0001-01-01") < Self.day("2026-12-10"))
    }

    @Test func theDeliverySettingsAreCheckedWhenTheConfigurationIsRead() throws {
        func read(_ key: String, _ text: String) throws -> Config {
            var config = Config()
            try #require(Config.settings.first { $0.key == key }).read(text, into: &config)
            return config
        }
        #expect(try read("app.timezone", "UTC").app.timeZone.secondsFromGMT() == 0)
        #expect(try read("orders.same_day_cutoff", "09:30").orders.sameDayCutoff == 9 * 60 + 30)
        #expect(try read("orders.closed_dates", "2027-01-01, 2026-12-25").orders.closedDates == [Self.day("2026-12-25"), Self.day("2027-01-01")])
        for (key, bad) in [("app.timezone", "Mars/Olympus"), ("app.timezone", ""), ("orders.same_day_cutoff", "25:00"),
                           ("orders.same_day_cutoff", "2pm"), ("orders.closed_dates", "2026-12-32"), ("orders.max_days_ahead", "-1")] {
            #expect(throws: ConfigError.self, "\(key)=\(bad)") { try read(key, bad) }
            do { _ = try read(key, bad) } catch let error as ConfigError { #expect(error.key == key) }
        }
        #expect(Config().app.timezone == "Asia/Shanghai")
        #expect(Config().orders.sameDayCutoff == 14 * 60 && Config().orders.maxDaysAhead == 30)
    }
}
