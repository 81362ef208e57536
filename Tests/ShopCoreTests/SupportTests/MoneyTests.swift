import ShopCore
import Testing

@Suite("Money")
struct MoneyTests {
    @Test("Yuan text converts to exact cents", arguments: [
        ("129.00", 12_900), ("129", 12_900), ("129.5", 12_950), ("0.5", 50), ("0.05", 5), ("0", 0), ("0.00", 0),
        ("007.10", 710), ("999999999999.99", 99_999_999_999_999),
    ] as [(String, Int64)])
    func yuanConvertsToCents(_ text: String, _ cents: Int64) {
        #expect(Money.cents(fromYuan: text) == cents)
    }

    @Test("Anything but plain yuan text is refused", arguments: [
        "12.345", "-1", "+1", "1e3", "", ".", "1.", ".5", " 1", "1 ", "1,000", "１２", "0x10", "1.2.3", "¥1",
        "1000000000000", "NaN", "inf", "12\u{0301}9.00", "129.0\u{0301}", "1\u{200D}29",
    ])
    func malformedYuanIsRefused(_ text: String) {
        #expect(Money.cents(fromYuan: text) == nil)
    }

    @Test("Cents format as yuan with two decimals", arguments: [
        (12_950, "129.50"), (12_900, "129.00"), (5, "0.05"), (50, "0.50"), (0, "0.00"), (-150, "-1.50"), (-5, "-0.05"),
        (Int64.max, "92233720368547758.07"), (Int64.min, "-92233720368547758.08"),
    ] as [(Int64, String)])
    func centsFormatAsYuan(_ cents: Int64, _ text: String) {
        #expect(Money.yuan(fromCents: cents) == text)
    }

    @Test func formattingAndParsingRoundTrip() {
        for cents: Int64 in [0, 1, 9, 10, 99, 100, 12_345, 99_999_999_999_999] {
            #expect(Money.cents(fromYuan: Money.yuan(fromCents: cents)) == cents)
        }
    }
}
