/// At most `limit` uploads per user and minute on this node (`MinuteLimit`): with several nodes a
/// user may upload that many on each.
struct UploadThrottle: Sendable {
    private let limit: MinuteLimit<Uploader>

    init(perMinute limit: Int) {
        self.limit = MinuteLimit(perMinute: limit)
    }

    /// Counts one upload by `user` at `now` (seconds); past the limit, `tooManyUploads` with the
    /// seconds until the minute ends.
    func admit(_ user: Uploader, at now: Int64) throws {
        if let retryAfter = limit.admit(user, at: now) { throw MediaError.tooManyUploads(retryAfter: retryAfter) }
    }
}
