import Foundation
@testable import ShopCore
import Testing

@Suite("Days spelled with zero padding")
struct ZeroPaddedTests {
    @Test(arguments: [0, 1, 7, 9, 10, 12, 31, 99, 100, 999, 1000, 2026, 9999, 10000, 123_456, -1, -7, -42, -999, -1000, Int.min + 1])
    func everyValueIsWrittenAsTheCFormatterWritesIt(_ value: Int) {
        for width in [0, 1, 2, 4, 8] {
            #expect(zeroPadded(value, width) == String(format: "%0\(width)ld", value))
        }
    }

    @Test func daysMonthDaysAndOrderNumberDaysKeepTheirSpelling() throws {
        #expect(try #require(CalendarDay("0001-01-01")).description == "0001-01-01")
        #expect(try #require(CalendarDay("2026-03-09")).description == "2026-03-09")
        #expect(try #require(CalendarDay("9999-12-31")).rawValue == "9999-12-31")
        #expect(try #require(MonthDay("02-29")).description == "02-29")
        #expect(try #require(MonthDay("11-05")).description == "11-05")
        // 2026-03-09 07:05 in China is 2026-03-08 23:05 UTC
        let moment = Date(timeIntervalSince1970: 1_773_011_100)
        #expect(ShopTime.day(moment) == "20260309")
        #expect(ShopTime.minute(moment) == "2026-03-09 07:05")
    }
}
