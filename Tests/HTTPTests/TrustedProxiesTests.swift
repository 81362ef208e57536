@testable import HTTP
import Testing

@Suite("Client address behind trusted proxies")
struct TrustedProxiesTests {
    @Test func anUntrustedPeersForwardedForIsIgnored() throws {
        let proxies = try TrustedProxies(parsing: "10.0.0.1")
        #expect(proxies.clientAddress(peer: "203.0.113.9", forwardedFor: ["198.51.100.7"]) == "203.0.113.9")
        #expect(TrustedProxies.none.clientAddress(peer: "10.0.0.1", forwardedFor: ["198.51.100.7"]) == "10.0.0.1")
    }

    @Test func aTrustedPeerYieldsTheRightMostUntrustedAddress() throws {
        let proxies = try TrustedProxies(parsing: "10.0.0.1")
        // The client wrote the left-most entry itself: only the hop the proxy added counts.
        #expect(proxies.clientAddress(peer: "10.0.0.1", forwardedFor: ["6.6.6.6, 198.51.100.7"]) == "198.51.100.7")
        #expect(proxies.clientAddress(peer: "10.0.0.1", forwardedFor: ["6.6.6.6", "198.51.100.7"]) == "198.51.100.7")
        // No header: the proxy itself is the client.
        #expect(proxies.clientAddress(peer: "10.0.0.1", forwardedFor: []) == "10.0.0.1")
    }

    @Test func aChainOfTrustedProxiesIsWalkedPast() throws {
        let proxies = try TrustedProxies(parsing: "10.0.0.0/8, 192.168.1.5")
        #expect(proxies.clientAddress(peer: "10.1.2.3", forwardedFor: ["6.6.6.6, 198.51.100.7, 192.168.1.5, 10.9.9.9"])
                == "198.51.100.7")
        // Every hop trusted: the left-most (last trusted) one.
        #expect(proxies.clientAddress(peer: "10.1.2.3", forwardedFor: ["192.168.1.5, 10.9.9.9"]) == "192.168.1.5")
    }

    @Test func aMalformedEntryStopsTheWalkAtTheLastTrustedHop() throws {
        let proxies = try TrustedProxies(parsing: "10.0.0.0/8")
        #expect(proxies.clientAddress(peer: "10.0.0.1", forwardedFor: ["198.51.100.7, garbage"]) == "10.0.0.1")
        #expect(proxies.clientAddress(peer: "10.0.0.1", forwardedFor: ["198.51.100.7, 1.2.3.4:80, 10.0.0.2"]) == "10.0.0.2")
        #expect(proxies.clientAddress(peer: "10.0.0.1", forwardedFor: ["198.51.100.7, "]) == "10.0.0.1")
    }

    @Test func ipv6BlocksMatchAndAddressesComeBackCanonical() throws {
        let proxies = try TrustedProxies(parsing: "2001:db8:abcd::/48")
        #expect(proxies.contains("2001:db8:abcd:12::1"))
        #expect(!proxies.contains("2001:db8:abce::1"))
        #expect(!proxies.contains("10.0.0.1"))
        #expect(proxies.clientAddress(peer: "2001:db8:abcd::5", forwardedFor: ["2001:0DB8:0000:0000::0042"])
                == "2001:db8::42")
        #expect(proxies.clientAddress(peer: "2001:db8:abcd::5", forwardedFor: ["2001:db8:abcd::9, 2001:db8:abcd::7"])
                == "2001:db8:abcd::9")
    }

    @Test func ipv4MappedAddressesCountAsIPv4() throws {
        let proxies = try TrustedProxies(parsing: "10.0.0.0/8")
        #expect(proxies.contains("::ffff:10.1.2.3"))
        #expect(proxies.clientAddress(peer: "::ffff:10.1.2.3", forwardedFor: ["::ffff:198.51.100.7"]) == "198.51.100.7")
    }

    @Test("Entries that are not addresses or blocks are refused", arguments: [
        "10.0.0", "10.0.0.1/33", "10.0.0.1/", "10.0.0.1/+8", "::1/129", "fe80::1%eth0", "localhost", "10.0.0.1/8/8",
    ])
    func badEntriesAreRefused(_ entry: String) {
        #expect(throws: TrustedProxiesError(entry: entry)) { try TrustedProxies(parsing: "127.0.0.1, \(entry)") }
    }

    @Test func anEmptyListTrustsNobody() throws {
        #expect(try TrustedProxies(parsing: "") == .none)
        #expect(try TrustedProxies(parsing: " , ") == .none)
    }
}
