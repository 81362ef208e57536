@testable import HTTP
import Testing

@Suite("Router path segments")
struct RouterPathSegmentsTests {
    @Test("Paths split on every slash, empty segments dropped", arguments: [
        ("/", []), ("", []), ("//", []), ("/healthz", ["healthz"]), ("healthz/", ["healthz"]),
        ("//api//v1/products/7/", ["api", "v1", "products", "7"]), ("/玫瑰/花束", ["玫瑰", "花束"]),
        ("/e\u{301}/x", ["e\u{301}", "x"]),
    ] as [(String, [String])])
    func pathsSplitOnEverySlash(path: String, segments: [String]) {
        #expect(Router.split(path) == segments)
    }
}
