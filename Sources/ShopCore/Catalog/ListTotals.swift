import Foundation

/// Totals of unsearched product lists, remembered per filter until `catalog_version` moves.
/// Counting every on-sale product took 80% of a list request (callgrind, bench/RESULTS.md);
/// the version is one row read in the same transaction, so a cached total is never stale.
final class ListTotals: @unchecked Sendable {
    struct Key: Hashable {
        let category: CategoryID?
        let minPrice: Int64?
        let maxPrice: Int64?
    }

    private let lock = NSLock()
    private var version: Int64 = -1
    private var totals: [Key: Int64] = [:]

    static let capacity = 1_024

    func total(for key: Key, at version: Int64) -> Int64? {
        lock.lock()
        defer { lock.unlock() }
        return self.version == version ? totals[key] : nil
    }

    func remember(_ total: Int64, for key: Key, at version: Int64) {
        lock.lock()
        defer { lock.unlock() }
        if self.version != version || totals.count >= Self.capacity {
            self.version = version
            totals.removeAll(keepingCapacity: true)
        }
        totals[key] = total
    }
}
