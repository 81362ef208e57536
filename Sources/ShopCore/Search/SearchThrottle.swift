import Foundation
import Synchronization

/// At most `limit` searches per client address and minute on this node (fixed minutes of the
/// clock; an IPv6 address counts by its /64, which one subscriber usually holds whole). Kept in
/// memory, so a search stays a read; the table of addresses starts afresh every minute.
final class SearchThrottle: Sendable {
    private let limit: Int
    private struct Minute {
        var number: Int64 = -1
        var searches: [String: Int] = [:]
    }

    private let minute = Mutex(Minute())

    init(perMinute limit: Int) {
        self.limit = limit
    }

    /// Counts one search from `address` at `now`; past the limit, `tooManySearches` with the
    /// seconds until the minute ends.
    func admit(_ address: String, at now: Int64) throws {
        let number = now / 60
        let key = Self.key(address)
        let admitted = minute.withLock { minute in
            if minute.number != number { minute = Minute(number: number) }
            let done = minute.searches[key, default: 0]
            guard done < limit else { return false }
            minute.searches[key] = done + 1
            return true
        }
        if !admitted { throw CatalogError.tooManySearches(retryAfter: Int(60 - now % 60)) }
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
