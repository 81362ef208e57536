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
        return String(format: "%04d-%02d-%02d %02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0)
    }

    /// `20261201`: the day part of an order number.
    public static func day(_ date: Date) -> String {
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d%02d%02d", c.year ?? 1970, c.month ?? 1, c.day ?? 1)
    }
}
