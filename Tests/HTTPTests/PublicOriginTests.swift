import HTTP
import Testing

@Suite("Request.publicOrigin")
struct PublicOriginTests {
    static let proxy = "10.0.0.5"

    private func origin(_ headers: [(String, String)], from peer: String = "203.0.113.9", trusting list: String = "10.0.0.0/8") throws -> String? {
        let request = Request(method: "GET", path: "/openapi.json", headers: Headers(headers), remoteAddress: peer)
        return request.publicOrigin(trusting: try TrustedProxies(parsing: list))
    }

    @Test("The Host field names the origin, lowercased", arguments: [
        ("shop.example", "http://shop.example"), ("Shop.Example:8080", "http://shop.example:8080"),
        ("192.168.1.20:8080", "http://192.168.1.20:8080"), ("[2001:db8::1]:8080", "http://[2001:db8::1]:8080"),
        ("[::1]", "http://[::1]"), ("localhost", "http://localhost"), ("花店.example", nil),
    ])
    func theHostFieldNamesTheOrigin(_ host: String, _ expected: String?) throws {
        #expect(try origin([("Host", host)]) == expected)
    }

    @Test("A host that is not a plain name or address is never echoed", arguments: [
        "", "evil\".example", "a b", "<script>alert(1)</script>", "shop.example:99999", "shop.example:0",
        "shop.example:", "shop.example:80:80", "[::1", "[not-v6]:80", "[::1]x", "user@shop.example", "shop.example/path",
        ".example", "-x.example", String(repeating: "a", count: 300), "shop.example\\", "shop.example:８０",
    ])
    func aBadHostIsRefused(_ host: String) throws {
        #expect(try origin([("Host", host)]) == nil)
    }

    @Test func withoutAHostThereIsNoOrigin() throws {
        #expect(try origin([]) == nil)
    }

    @Test func forwardedFieldsFromAnUntrustedPeerAreIgnored() throws {
        let headers = [("Host", "node1:8081"), ("X-Forwarded-Host", "evil.example"), ("X-Forwarded-Proto", "https")]
        #expect(try origin(headers, from: "203.0.113.9") == "http://node1:8081")
        #expect(try origin(headers, from: Self.proxy, trusting: "") == "http://node1:8081")
    }

    @Test func aTrustedProxyNamesTheSchemeAndHostItsClientUsed() throws {
        let headers = [("Host", "node1:8081"), ("X-Forwarded-Host", "shop.example"), ("X-Forwarded-Proto", "HTTPS")]
        #expect(try origin(headers, from: Self.proxy) == "https://shop.example")
        #expect(try origin([("Host", "shop.example:8080"), ("X-Forwarded-Proto", "https")], from: Self.proxy) == "https://shop.example:8080")
        #expect(try origin([("Host", "shop.example"), ("X-Forwarded-Proto", "gopher")], from: Self.proxy) == "http://shop.example")
    }

    @Test func theLastForwardedEntryIsTheOneTheTrustedProxyWrote() throws {
        let headers = [("Host", "node1"), ("X-Forwarded-Host", "evil.example, shop.example"),
                       ("X-Forwarded-Proto", "http"), ("X-Forwarded-Proto", "https")]
        #expect(try origin(headers, from: Self.proxy) == "https://shop.example")
    }

    @Test func aBadForwardedHostIsRefusedToo() throws {
        #expect(try origin([("Host", "node1"), ("X-Forwarded-Host", "evil\"><b>")], from: Self.proxy) == nil)
    }
}
