import Foundation
import SQL

/// A day on the calendar, with no time and no zone (`2026-12-01`): a delivery day is one of these,
/// read in the shop's time zone. Stored and sent as `YYYY-MM-DD`, which sorts as the days do.
public struct CalendarDay: Hashable, Comparable, Sendable, CustomStringConvertible, RawRepresentable {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Only a real day written exactly `YYYY-MM-DD` (years 0001 to 9999, as JSON Schema's `date` format allows): no time, no zone, no `2026-2-30`.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == 0x2d, bytes[7] == 0x2d else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              (1...9999).contains(year), (1...12).contains(month),
              (1...Self.days(inMonth: month, of: year)).contains(day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    public init?(rawValue: String) { self.init(rawValue) }

    /// The day `date` falls on in `zone`.
    public init(_ date: Date, in zone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        year = c.year ?? 1970
        month = c.month ?? 1
        day = c.day ?? 1
    }

    public var rawValue: String { description }

    public var description: String { zeroPadded(year, 4) + "-" + zeroPadded(month, 2) + "-" + zeroPadded(day, 2) }

    /// The day `count` days later (earlier when negative).
    public func adding(days count: Int) -> CalendarDay {
        let shifted = Date(timeIntervalSince1970: TimeInterval(dayNumber + count) * 86_400)
        return CalendarDay(shifted, in: .gmt)
    }

    /// The unix time this day starts at in `zone`.
    public func start(in zone: TimeZone) -> Int64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let date = calendar.date(from: DateComponents(year: year, month: month, day: day)) ?? Date(timeIntervalSince1970: 0)
        return Int64(date.timeIntervalSince1970)
    }

    /// Days since 1970-01-01 (proleptic Gregorian): the arithmetic needs no calendar or zone.
    var dayNumber: Int {
        // Howard Hinnant's days_from_civil
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool { lhs.dayNumber < rhs.dayNumber }

    static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// Stored as its `YYYY-MM-DD` text.
extension CalendarDay: SQLCodable {}

/// A day of the year with no year (`02-14`): a peak day recurs every year (`orders.peak_dates`).
public struct MonthDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let month: Int
    public let day: Int

    /// Only `MM-DD` naming a day some year has (`02-29` is one; `02-30` is not).
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 5, bytes[2] == 0x2d,
              bytes.indices.allSatisfy({ $0 == 2 || (bytes[$0] >= 0x30 && bytes[$0] <= 0x39) }) else { return nil }
        let month = Int(bytes[0] - 0x30) * 10 + Int(bytes[1] - 0x30)
        let day = Int(bytes[3] - 0x30) * 10 + Int(bytes[4] - 0x30)
        guard (1...12).contains(month), (1...CalendarDay.days(inMonth: month, of: 2000)).contains(day) else { return nil }
        self.month = month
        self.day = day
    }

    /// The month and day of `date`.
    public init(_ date: CalendarDay) {
        month = date.month
        day = date.day
    }

    public var description: String { zeroPadded(month, 2) + "-" + zeroPadded(day, 2) }

    public static func < (lhs: MonthDay, rhs: MonthDay) -> Bool { (lhs.month, lhs.day) < (rhs.month, rhs.day) }
}
