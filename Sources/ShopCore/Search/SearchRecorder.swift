import Dispatch
import Foundation
import SQLite

/// Collects searched keywords in memory and writes them in one transaction about once a second,
/// so searching stays a read: without it every search would wait for the single writer and an
/// fsync. Reading the hot keywords flushes first, so they are never behind what was recorded.
final class SearchRecorder: @unchecked Sendable {
    private let pool: DatabasePool
    private let logger: Logger
    private let store = SearchStore()
    private let queue = DispatchQueue(label: "shop.search-recorder")
    private let lock = NSLock()
    private var pending: [SearchStore.LoggedSearch] = []
    private var flushScheduled = false

    /// Past this many unwritten searches, more are dropped (they are statistics, not orders).
    static let maxPending = 10_000

    init(pool: DatabasePool, logger: Logger) {
        self.pool = pool
        self.logger = logger
    }

    func record(_ keyword: String, searcher: String, found: Bool, at now: Int64) {
        lock.lock()
        if pending.count < Self.maxPending {
            pending.append(.init(keyword: keyword, searcher: searcher, found: found, at: now))
        }
        let schedule = !flushScheduled
        flushScheduled = true
        lock.unlock()
        if schedule {
            queue.asyncAfter(deadline: .now() + 1) { [self] in flush() }
        }
    }

    /// Writes what is pending now; a failure is logged, never thrown at a searcher.
    func flush() {
        lock.lock()
        let batch = pending
        pending.removeAll(keepingCapacity: true)
        flushScheduled = false
        lock.unlock()
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
