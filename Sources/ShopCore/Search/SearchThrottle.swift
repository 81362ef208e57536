import Foundation

/// At most `limit` searches per client address and minute on this node (fixed minutes of the
/// clock; an IPv6 address counts by its /64, which one subscriber usually holds whole). Kept in
/// memory, so a search stays a read; the table of addresses starts afresh every minute.
struct SearchThrottle: Sendable {
    private let limit: MinuteLimit<String>

    init(perMinute limit: Int) {
        self.limit = MinuteLimit(perMinute: limit)
    }

    /// Counts one search from `address` at `now`; past the limit, `tooManySearches` with the
    /// seconds until the minute ends.
    func admit(_ address: String, at now: Int64) throws {
        if let retryAfter = limit.admit(Self.key(address), at: now) { throw CatalogError.tooManySearches(retryAfter: retryAfter) }
    }

    /// What an address is counted under: an IPv4 address (or one mapped into IPv6) itself, an
    /// IPv6 address its /64.
    static func key(_ address: String) -> String {
        guard address.contains(":") else { return address }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return address }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        return bytes[0..<8].map { String(format: "%02x", $0) }.joined() + "/64"
    }
}
