import Foundation
@testable import ShopAPI
import Testing

@Suite("Access log milliseconds")
struct AccessLogFormatTests {
    @Test("Milliseconds are written with one decimal", arguments: [
        (0.0, "0.0"), (0.04, "0.0"), (0.06, "0.1"), (1.0, "1.0"), (12.34, "12.3"), (12.36, "12.4"), (99.96, "100.0"),
        (1234.5678, "1234.6"), (30_000.01, "30000.0"),
    ])
    func millisecondsHaveOneDecimal(milliseconds: Double, text: String) {
        #expect(ShopAPI.tenths(milliseconds) == text)
    }

    @Test func theyAgreeWithPrintfAwayFromExactHalves() {
        var value = 0.013
        while value < 5_000 {
            let printf = String(format: "%.1f", value)
            #expect(ShopAPI.tenths(value) == printf, "\(value)")
            value = value * 1.37 + 0.011
        }
    }
}
