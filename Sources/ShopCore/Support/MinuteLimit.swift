import Synchronization

/// At most `limit` events per key and minute on this node (fixed minutes of the clock), kept in
/// memory: for limits checked on every request of a kind (searches, uploads), where a database
/// row per event would cost more than the limit saves. With several nodes a key gets `limit` on each.
final class MinuteLimit<Key: Hashable & Sendable>: Sendable {
    private let limit: Int
    private struct Minute {
        var number: Int64 = -1
        var counts: [Key: Int] = [:]
    }

    private let minute = Mutex(Minute())

    init(perMinute limit: Int) {
        self.limit = limit
    }

    /// Counts one event of `key` at `now` (seconds): nil when admitted, else the seconds until the
    /// minute ends (the table of keys starts afresh every minute).
    func admit(_ key: Key, at now: Int64) -> Int? {
        let number = now / 60
        let admitted = minute.withLock { minute in
            if minute.number != number { minute = Minute(number: number) }
            let done = minute.counts[key, default: 0]
            guard done < limit else { return false }
            minute.counts[key] = done + 1
            return true
        }
        return admitted ? nil : Int(60 - now % 60)
    }
}
