import HTTP
import Testing

@Suite("Headers and methods")
struct HeadersAndMethodTests {
    @Test func setReplacesEveryFieldOfTheNameAndKeepsTheOthersInOrder() {
        var headers = Headers([("A", "1"), ("x-id", "old"), ("B", "2"), ("X-Id", "older")])
        let before = headers
        headers.set("X-ID", "new")
        #expect(headers.map(\.name) == ["A", "B", "X-ID"])
        #expect(headers["x-id"] == "new")
        #expect(before.values(of: "X-Id") == ["old", "older"])
        headers.set("C", "3")
        headers.add("C", "4")
        #expect(headers.values(of: "c") == ["3", "4"])
    }

    @Test func addVaryKeepsTheNamesThereAndAddsNoneTwice() {
        var headers = Headers([("Vary", "Accept-Language")])
        headers.addVary(["Host", "accept-language"])
        #expect(headers.values(of: "Vary") == ["Accept-Language, Host"])
        headers.addVary(["host"])
        #expect(headers.values(of: "Vary") == ["Accept-Language, Host"])
        var any = Headers([("Vary", "*")])
        any.addVary(["Host"])
        #expect(any.values(of: "Vary") == ["*"])
        var none = Headers()
        none.addVary(["Host", "X-Forwarded-Host"])
        #expect(none["Vary"] == "Host, X-Forwarded-Host")
    }

    @Test("Methods are upper-cased whatever their case", arguments: [
        ("GET", "GET"), ("get", "GET"), ("Patch", "PATCH"), ("BREW", "BREW"), ("m-search", "M-SEARCH"), ("gét", "GÉT"),
    ])
    func methodsAreUpperCased(method: String, expected: String) {
        #expect(Request(method: method, path: "/").method == expected)
    }
}
