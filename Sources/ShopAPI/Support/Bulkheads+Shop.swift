import Bulkheads
import HTTP
import Localization
import ShopCore

extension BulkheadName {
    /// Decoding and re-encoding pictures (libvips).
    public static let media = BulkheadName("media")
    /// The buyers' frequent writes that wait for their commit to reach the disk (checkouts,
    /// cancels, favourites), and for row locks: on a request thread that holds up every other
    /// connection the thread serves. Cart changes commit without the disk and stay where they are.
    public static let writes = BulkheadName("writes")
}

/// The shop's bulkheads: where the server moves a request that must wait, sized from the settings,
/// each answering 503 with `Retry-After` when full.
enum ShopBulkheads {
    /// Pictures decoded at once (each holds a strip of its image, a few MiB at most) and waiting.
    static let mediaWorkers = 2
    static let mediaQueue = 16

    /// Hashing: as many workers as Argon2 may run at once (`auth.max_concurrent_hashes`), and
    /// `auth.hash_queue` waiting. Payments: `payments.max_concurrent_calls` workers and no queue,
    /// so a start beyond them is told at once rather than after another provider timeout. The
    /// database: one worker per pooled connection and four times that waiting, each for at most
    /// `database.pool_timeout_seconds`. Writes: `database.write_workers` at once (on SQLite they
    /// take turns on the one writer, and a turn's commit serves every writer queued for it) and
    /// eight times that waiting. Pictures: `mediaWorkers` decodes at once and `mediaQueue`
    /// waiting, so uploads never take the request threads or more than their share of the CPU and memory.
    static func make(_ config: Config) -> [BulkheadName: OffloadTarget] {
        let provider = LocalizedText(zh: "支付平台", en: "the payment provider")
        return [
            // CPU-bound: niced (5: about a quarter of a core against one busy thread), so a login rush
            // yields to the request threads, yet still gets a share when they keep the CPU busy
            // (at 10, with the machine saturated by other work, logins waited past 30 s)
            .hashing: OffloadTarget(bulkhead: Bulkhead(name: .hashing, workers: config.auth.concurrentHashes, queueLimit: config.auth.hashQueue,
                                                       niceness: 5),
                                    rejection: HTTPError(APIMessage.busy)),
            .payments: OffloadTarget(bulkhead: Bulkhead(name: .payments, workers: config.payments.maxConcurrentCalls, queueLimit: 0),
                                     rejection: HTTPError(APIMessage.providerBusy, ["provider": provider])),
            .database: OffloadTarget(bulkhead: Bulkhead(name: .database, workers: config.database.poolSize,
                                                        queueLimit: 4 * config.database.poolSize),
                                     rejection: HTTPError(APIMessage.databaseBusy)),
            .writes: OffloadTarget(bulkhead: Bulkhead(name: .writes, workers: config.database.writeWorkers,
                                                      queueLimit: 8 * config.database.writeWorkers),
                                   rejection: HTTPError(APIMessage.databaseBusy)),
            .media: OffloadTarget(bulkhead: Bulkhead(name: .media, workers: mediaWorkers, queueLimit: mediaQueue),
                                  rejection: HTTPError(APIMessage.busy)),
        ]
    }
}
