import Dispatch
import Foundation
import SQL
import Synchronization

/// Collects searched keywords in memory and writes them in one transaction about once a second,
/// so searching stays a read: without it every search would wait for the single writer and an
/// fsync. Reading the hot keywords flushes first, so they are never behind what was recorded.
final class SearchRecorder: Sendable {
    private let pool: any Database
    private let logger: Logger
    private let store = SearchStore()
    private let queue = DispatchQueue(label: "shop.search-recorder")
    private struct Pending {
        var searches: [SearchStore.LoggedSearch] = []
        var flushScheduled = false
    }

    private let pending = Mutex(Pending())

    /// Past this many unwritten searches, more are dropped (they are statistics, not orders).
    static let maxPending = 10_000

    init(pool: any Database, logger: Logger) {
        self.pool = pool
        self.logger = logger
    }

    func record(_ keyword: String, searcher: String, found: Bool, at now: Int64) {
        let schedule = pending.withLock { pending in
            if pending.searches.count < Self.maxPending {
                pending.searches.append(.init(keyword: keyword, searcher: searcher, found: found, at: now))
            }
            defer { pending.flushScheduled = true }
            return !pending.flushScheduled
        }
        if schedule {
            queue.asyncAfter(deadline: .now() + 1) { [self] in flush() }
        }
    }

    /// Writes what is pending now; a failure is logged, never thrown at a searcher.
    func flush() {
        let batch = pending.withLock { pending in
            defer {
                pending.searches.removeAll(keepingCapacity: true)
                pending.flushScheduled = false
            }
            return pending.searches
        }
        guard !batch.isEmpty else { return }
        do {
            try pool.write { db in
                for entry in batch { try store.record(entry, db) }
            }
        } catch {
            logger.warning("searches not recorded", ["count": String(batch.count), "error": String(describing: error)])
        }
    }
}
