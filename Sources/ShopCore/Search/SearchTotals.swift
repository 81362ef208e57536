import Synchronization

/// What a search counted, remembered per query and filter until `catalog_version` moves (it moves
/// with every change to which products a search can find: a product added, removed, put on or off
/// sale, moved, repriced or reworded). Sales do not move it: they reorder matches, never change them.
/// A dense query's total is thousands of index entries to count; its page is a few rows to read.
final class SearchTotals: Sendable {
    struct Counts: Sendable, Equatable {
        /// The categories the query names, with their descendants (empty: it names none).
        let named: [CategoryID]
        /// Matches per tier, in `ProductSearch.tiers(named:)` order.
        let tiers: [Int]
    }

    private struct State {
        var version: Int64 = -1
        var onSale: Int?
        var counts: [ProductFilter: Counts] = [:]

        /// Forgets everything counted at another version.
        mutating func moveTo(_ newVersion: Int64) {
            guard version != newVersion else { return }
            version = newVersion
            onSale = nil
            counts.removeAll(keepingCapacity: true)
        }
    }

    private let state = Mutex(State())

    static let capacity = 4_096

    func counts(for key: ProductFilter, at version: Int64) -> Counts? {
        state.withLock { $0.version == version ? $0.counts[key] : nil }
    }

    func remember(_ counts: Counts, for key: ProductFilter, at version: Int64) {
        state.withLock { state in
            state.moveTo(version)
            if state.counts.count >= Self.capacity { state.counts.removeAll(keepingCapacity: true) }
            state.counts[key] = counts
        }
    }

    /// How many products are on sale: how far a walk down the best sellers may have to go.
    func onSale(at version: Int64) -> Int? {
        state.withLock { $0.version == version ? $0.onSale : nil }
    }

    func remember(onSale: Int, at version: Int64) {
        state.withLock { state in
            state.moveTo(version)
            state.onSale = onSale
        }
    }
}
