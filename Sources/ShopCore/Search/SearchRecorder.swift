import Bulkheads
import Dispatch
import Foundation
import SQL
import Synchronization

/// Sums searched keywords in memory (`SearchTally`) and adds them to the database in one
/// transaction about once a second, so searching stays a read (without it every search would wait
/// for the single writer and an fsync) and a keyword searched a thousand times costs one row a day.
/// Reading the hot keywords flushes first, so they are never behind what was recorded.
final class SearchRecorder: Sendable {
    private let pool: any Database
    private let logger: Logger
    private let store: SearchStore
    private let queue = DispatchQueue(label: "shop.search-recorder")
    private struct Pending {
        var tally = SearchTally()
        var flushScheduled = false
    }

    private let pending = Mutex(Pending())

    init(pool: any Database, store: SearchStore, logger: Logger) {
        self.pool = pool
        self.store = store
        self.logger = logger
    }

    func record(_ keyword: String, searcher: String, found: Bool, at now: Int64) {
        let schedule = pending.withLock { pending in
            pending.tally.add(keyword, searcher: searcher, found: found, at: now)
            defer { pending.flushScheduled = true }
            return !pending.flushScheduled
        }
        if schedule {
            queue.asyncAfter(deadline: .now() + 1) { [self] in flush() }
        }
    }

    /// `flush`, for a request about to read the hot keywords: on a request thread with searches
    /// pending, the request first moves to the `database` bulkhead (a write must not wait on a
    /// request thread, and a tally taken there could not be put back if the write moved it).
    func flushBeforeReading() throws {
        if !pending.withLock({ $0.tally.isEmpty }) { try RequestThread.offload(to: .database) }
        flush()
    }

    /// Writes what is pending now; a failure is logged, never thrown at a searcher.
    func flush() {
        let tally = pending.withLock { pending in
            defer {
                pending.tally = SearchTally()
                pending.flushScheduled = false
            }
            return pending.tally
        }
        guard !tally.isEmpty else { return }
        do {
            try pool.write { db in try store.add(tally, db) }
        } catch {
            logger.warning("searches not recorded", ["keywords": String(tally.counts.count), "error": String(describing: error)])
        }
    }
}
