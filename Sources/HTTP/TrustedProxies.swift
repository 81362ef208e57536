#if canImport(Glibc)
import Glibc
#endif

/// The reverse proxies whose `X-Forwarded-For` names the client: IPv4/IPv6 addresses and CIDR blocks.
public struct TrustedProxies: Sendable, Equatable {
    /// One address (`/32`, `/128`) or block: the leading `prefix` bits of `bytes`.
    struct Block: Sendable, Equatable {
        let bytes: [UInt8]
        let prefix: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            for bit in stride(from: 0, to: prefix, by: 8) {
                let bits = min(8, prefix - bit)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if address[bit / 8] & mask != bytes[bit / 8] & mask { return false }
            }
            return true
        }
    }

    let blocks: [Block]

    /// Nobody is trusted: the socket peer is always the client.
    public static let none = TrustedProxies(blocks: [])

    /// Whether nobody is trusted, so forwarding fields are never read.
    public var isEmpty: Bool { blocks.isEmpty }

    init(blocks: [Block]) {
        self.blocks = blocks
    }

    /// Parses `10.0.0.1, 192.168.0.0/16, fd00::/8`; an empty list trusts nobody.
    public init(parsing list: String) throws(TrustedProxiesError) {
        var blocks: [Block] = []
        for entry in list.split(separator: ",").map({ $0.trimmingSpaces }) where !entry.isEmpty {
            let parts = entry.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count <= 2, let bytes = IPAddress.bytes(String(parts[0])) else {
                throw TrustedProxiesError(entry: entry)
            }
            let width = bytes.count * 8
            var prefix = width
            if parts.count == 2 {
                guard let bits = Int(parts[1]), parts[1].allSatisfy(\.isASCIIDigit), (0...width).contains(bits) else {
                    throw TrustedProxiesError(entry: entry)
                }
                prefix = bits
            }
            blocks.append(Block(bytes: bytes, prefix: prefix))
        }
        self.blocks = blocks
    }

    /// True when `address` (text) lies in one of the blocks.
    public func contains(_ address: String) -> Bool {
        guard let bytes = IPAddress.bytes(address) else { return false }
        return contains(bytes: bytes)
    }

    private func contains(bytes: [UInt8]) -> Bool {
        blocks.contains { $0.contains(bytes) }
    }

    /// The client's address for a request from `peer` with these `headers` (see below); the
    /// `X-Forwarded-For` values are looked up only when some proxy is trusted.
    func clientAddress(peer: String, headers: Headers) -> String {
        blocks.isEmpty ? peer : clientAddress(peer: peer, forwardedFor: headers.values(of: "X-Forwarded-For"))
    }

    /// The client's address: the socket `peer`, unless it is trusted; then `X-Forwarded-For`
    /// (`forwardedFor`: every field value, in order) is walked right to left past trusted
    /// proxies to the first untrusted address. A malformed entry ends the walk at the last
    /// trusted hop, so a client can never choose its address by writing garbage.
    public func clientAddress(peer: String, forwardedFor: [String]) -> String {
        guard !blocks.isEmpty, contains(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingSpaces }
        var client = peer
        for hop in hops.reversed() {
            guard let bytes = IPAddress.bytes(hop), let text = IPAddress.text(bytes) else { return client }
            client = text
            if !contains(bytes: bytes) { return client }
        }
        return client
    }
}

/// A `server.trusted_proxies` entry that is neither an IP address nor a CIDR block.
public struct TrustedProxiesError: Error, Equatable, CustomStringConvertible {
    public let entry: String
    public var description: String { "\"\(entry)\" is not an IP address or CIDR block" }
}

/// IP addresses through the C library's parser: 4 bytes for IPv4 (an IPv4-mapped IPv6 address
/// counts as IPv4, as the kernel reports either), 16 for IPv6.
enum IPAddress {
    static func bytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return Array(bytes[12...])
        }
        return bytes
    }

    /// The canonical text of an address (`2001:db8::1`, never `2001:0db8:0:0::1`).
    static func text(_ bytes: [UInt8]) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { raw in
            inet_ntop(family, raw.baseAddress, &buffer, socklen_t(buffer.count))
        }
        guard written != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

private extension Substring {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
