import Synchronization

/// At most `limit` uploads per user and minute on this node (fixed minutes of the clock), kept in
/// memory like the search limit: with several nodes a user may upload that many on each.
final class UploadThrottle: Sendable {
    private let limit: Int
    private struct Minute {
        var number: Int64 = -1
        var uploads: [Int64: Int] = [:]
    }

    private let minute = Mutex(Minute())

    init(perMinute limit: Int) {
        self.limit = limit
    }

    /// Counts one upload by `user` at `now` (seconds); past the limit, `tooManyUploads` with the
    /// seconds until the minute ends.
    func admit(_ user: Int64, at now: Int64) throws {
        let number = now / 60
        let admitted = minute.withLock { minute in
            if minute.number != number { minute = Minute(number: number) }
            let done = minute.uploads[user, default: 0]
            guard done < limit else { return false }
            minute.uploads[user] = done + 1
            return true
        }
        if !admitted { throw MediaError.tooManyUploads(retryAfter: Int(60 - now % 60)) }
    }
}
