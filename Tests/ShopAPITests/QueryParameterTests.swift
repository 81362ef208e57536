import HTTP
@testable import ShopAPI
import ShopCore
import Testing

@Suite("Query parameters")
struct QueryParameterTests {
    @Test(arguments: [("7", Int64(7)), ("-3", -3), ("7.0", 7), ("12.000", 12)])
    func wholeNumbersAreReadWithOrWithoutAZeroFraction(_ text: String, _ value: Int64) throws {
        #expect(try Request(method: "GET", path: "/", query: ["n": text]).queryInt("n") == value)
    }

    @Test(arguments: ["7.5", "7.", ".0", "x", "1e3", "9223372036854775808"])
    func anythingElseIsA400NamingTheParameter(_ text: String) {
        #expect(throws: ValidationError.self) { try Request(method: "GET", path: "/", query: ["n": text]).queryInt("n") }
    }
}
