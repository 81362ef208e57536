import Dispatch
import Synchronization

/// Reads kept bodies again off the request threads, one at a time: a body whose per-click
/// counters are old (sales, favourites: they move no version) is still served while a fresh copy
/// is read behind it, so no request waits for the read and a popular page's expiry does not send
/// every connection asking for it to the database at once.
///
/// Bounded: a key already waiting or being read is not queued twice, and at most `queueLimit`
/// keys wait; a refresh refused for lack of room is tried again by the next request that finds
/// the body old. A refresh that fails (the database away, the product gone) leaves the old body,
/// which the caller stops serving once it is `CatalogController.countersHardMaxAge` old.
final class KeptBodyRefresher<Key: Hashable & Sendable>: Sendable {
    let queueLimit: Int
    private let queue = DispatchQueue(label: "shop.kept-bodies.refresh", qos: .utility)
    private let waiting = Mutex(Set<Key>())

    init(queueLimit: Int = 64) {
        self.queueLimit = queueLimit
    }

    /// Runs `work` for `key` on the refresh queue unless `key` is already there or the queue is
    /// full; answers whether it was queued.
    @discardableResult
    func refresh(_ key: Key, _ work: @escaping @Sendable () -> Void) -> Bool {
        let queued = waiting.withLock { waiting in
            guard waiting.count < queueLimit, !waiting.contains(key) else { return false }
            waiting.insert(key)
            return true
        }
        guard queued else { return false }
        queue.async { [self] in
            work()
            _ = waiting.withLock { $0.remove(key) }
        }
        return true
    }

    /// Returns once every refresh queued before the call has run (tests; shutdown).
    func settle() {
        queue.sync {}
    }
}
