import Foundation

/// The shop's wall clock: China time (UTC+8, no daylight saving), in which order numbers carry
/// their day and operators read times.
public enum ShopTime {
    public static let zone = TimeZone(secondsFromGMT: 8 * 3_600) ?? .gmt

    /// A Gregorian calendar in `zone`.
    public static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    /// `2026-12-01 18:05` in the shop's time zone.
    public static func minute(_ date: Date) -> String {
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return zeroPadded(c.year ?? 0, 4) + "-" + zeroPadded(c.month ?? 0, 2) + "-" + zeroPadded(c.day ?? 0, 2) + " "
            + zeroPadded(c.hour ?? 0, 2) + ":" + zeroPadded(c.minute ?? 0, 2)
    }

    /// `20261201`: the day part of an order number.
    public static func day(_ date: Date) -> String {
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return zeroPadded(c.year ?? 1970, 4) + zeroPadded(c.month ?? 1, 2) + zeroPadded(c.day ?? 1, 2)
    }
}
