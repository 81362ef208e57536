import Synchronization

/// Totals of unsearched product lists, remembered per filter until `catalog_version` moves
/// (`CatalogChanges.indexVersion`: a product added, removed, put on or off sale, moved to another
/// category or repriced, or a category added; the shop never moves or deletes a category).
/// Counting every on-sale product took 82% of a list request (callgrind, bench/RESULTS.md);
/// the version is one row read in the same transaction, so a cached total is never stale.
final class ListTotals: Sendable {
    private struct State {
        var version: Int64 = -1
        var totals: [ProductFilter: Int64] = [:]
    }

    private let state = Mutex(State())

    static let capacity = 1_024

    func total(for key: ProductFilter, at version: Int64) -> Int64? {
        state.withLock { $0.version == version ? $0.totals[key] : nil }
    }

    func remember(_ total: Int64, for key: ProductFilter, at version: Int64) {
        state.withLock { state in
            if state.version != version || state.totals.count >= Self.capacity {
                state.version = version
                state.totals.removeAll(keepingCapacity: true)
            }
            state.totals[key] = total
        }
    }
}
