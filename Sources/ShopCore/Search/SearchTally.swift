/// Searches a node has not written yet, summed: per keyword and UTC day how many searches and how
/// many found something, and for those that found something, each searcher's last such time.
/// Its size is bounded: past `maxEntries` keys, new ones are dropped (statistics, not orders).
struct SearchTally {
    /// A keyword on one UTC day (`unix time / 86 400`).
    struct Key: Hashable {
        let day: Int64
        let keyword: String
    }

    /// What was searched for one key.
    struct Counts {
        var searches: Int64 = 0
        var found: Int64 = 0
        /// Searcher (a `Visitor` key) → the last time their search found something.
        var searchers: [String: Int64] = [:]
    }

    static let maxEntries = 10_000

    private(set) var counts: [Key: Counts] = [:]
    private var entries = 0

    var isEmpty: Bool { counts.isEmpty }

    mutating func add(_ keyword: String, searcher: String, found: Bool, at now: Int64) {
        let key = Key(day: now / 86_400, keyword: keyword)
        var current = counts[key] ?? Counts()
        if counts[key] == nil {
            guard entries < Self.maxEntries else { return }
            entries += 1
        }
        current.searches += 1
        if found {
            current.found += 1
            if let last = current.searchers[searcher] {
                current.searchers[searcher] = max(last, now)
            } else if entries < Self.maxEntries {
                entries += 1
                current.searchers[searcher] = now
            }
        }
        counts[key] = current
    }

    /// The keys in one fixed order (day, then the keyword's bytes), so that nodes adding to the
    /// same rows of a shared database take their locks in the same order.
    var ordered: [(key: Key, counts: Counts)] {
        counts.map { (key: $0.key, counts: $0.value) }.sorted { first, second in
            first.key.day != second.key.day
                ? first.key.day < second.key.day
                : Array(first.key.keyword.utf8).lexicographicallyPrecedes(second.key.keyword.utf8)
        }
    }
}
