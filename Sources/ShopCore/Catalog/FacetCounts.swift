import Synchronization

/// How many products of one list (a search's matches, or every on-sale product) fall in each
/// category and price segment: every facet of the list, whatever its category filter and whichever
/// price filter cuts at the same prices, is a sum of these.
///
/// The segments are cut at the chips' price ranges and at the list's own price filter (`min`, and
/// `max + 1`), so a segment lies either wholly inside or wholly outside every range and the filter.
struct FacetHistogram: Sendable, Equatable {
    /// Where the segments meet, ascending, all above 0: segment `i` holds the prices from
    /// `cuts[i - 1]` (0 for the first) up to `cuts[i]` (excluded; no end for the last).
    let cuts: [Int64]
    /// Products per own category (not its parents), per segment (`cuts.count + 1` counts each).
    let counts: [CategoryID: [Int]]

    /// The cuts for a list filtered by these prices: the chips' ranges' and the filter's own.
    static func cuts(min: Int64?, max: Int64?) -> [Int64] {
        var cuts = Set(PriceRanges.cuts)
        if let min, min > 0 { cuts.insert(min) }
        // A maximum of Int64.max lets every price through, like none.
        if let max, case let (end, overflow) = max.addingReportingOverflow(1), !overflow, end > 0 { cuts.insert(end) }
        return cuts.sorted()
    }

    /// Products in these categories (nil: any) priced from `lower` up to `upper` (excluded; nil: no
    /// end). Both must be 0, nil or one of `cuts`.
    func count(in categories: Set<CategoryID>?, from lower: Int64, below upper: Int64?) -> Int {
        let first = lower <= 0 ? 0 : (cuts.firstIndex(of: lower).map { $0 + 1 } ?? cuts.count + 1)
        let end = upper.map { upper in cuts.firstIndex(of: upper).map { $0 + 1 } ?? 0 } ?? cuts.count + 1
        guard first < end else { return 0 }
        var total = 0
        for (category, segments) in counts where categories?.contains(category) ?? true {
            total += segments[first..<end].reduce(0, +)
        }
        return total
    }
}

/// Facet histograms remembered per list (folded search text, or none) and price cuts until
/// `catalog_version` moves: it moves with every change to which products a list holds and at what
/// price (a product added, removed, put on or off sale, moved to another category, repriced, or
/// reworded; a category added, renamed, moved or deleted), in the transaction of the change, so a
/// histogram read at the version read in the same transaction is never stale. Orders move only
/// stock and sales, which no facet counts. Category names and order are read fresh each time (a
/// category's position does not move the version).
final class FacetCounts: Sendable {
    /// What a histogram counts.
    struct Key: Hashable, Sendable {
        /// The folded query's bytes; nil for a list without search.
        let text: [UInt8]?
        let cuts: [Int64]
    }

    private struct State {
        var version: Int64 = -1
        var histograms: [Key: FacetHistogram] = [:]
    }

    private let state = Mutex(State())

    static let capacity = 1_024

    func histogram(for key: Key, at version: Int64) -> FacetHistogram? {
        state.withLock { $0.version == version ? $0.histograms[key] : nil }
    }

    func remember(_ histogram: FacetHistogram, for key: Key, at version: Int64) {
        state.withLock { state in
            if state.version != version || state.histograms.count >= Self.capacity {
                state.version = version
                state.histograms.removeAll(keepingCapacity: true)
            }
            state.histograms[key] = histogram
        }
    }
}
