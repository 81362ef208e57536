import Bulkheads
import HTTP
import Localization
import ShopCore

/// The shop's bulkheads: where the server moves a request that must wait, sized from the settings,
/// each answering 503 with `Retry-After` when full.
enum ShopBulkheads {
    /// Hashing: as many workers as Argon2 may run at once (`auth.max_concurrent_hashes`), and
    /// `auth.hash_queue` waiting. Payments: `payments.max_concurrent_calls` workers and no queue,
    /// so a start beyond them is told at once rather than after another provider timeout. The
    /// database: one worker per pooled connection and four times that waiting, each for at most
    /// `database.pool_timeout_seconds`.
    static func make(_ config: Config) -> [BulkheadName: OffloadTarget] {
        let provider = LocalizedText(zh: "支付平台", en: "the payment provider")
        return [
            // CPU-bound: niced, so a login rush takes only the CPU the request threads leave
            .hashing: OffloadTarget(bulkhead: Bulkhead(name: .hashing, workers: config.auth.concurrentHashes, queueLimit: config.auth.hashQueue,
                                                       niceness: 10),
                                    rejection: HTTPError(APIMessage.busy)),
            .payments: OffloadTarget(bulkhead: Bulkhead(name: .payments, workers: config.payments.maxConcurrentCalls, queueLimit: 0),
                                     rejection: HTTPError(APIMessage.providerBusy, ["provider": provider])),
            .database: OffloadTarget(bulkhead: Bulkhead(name: .database, workers: config.database.poolSize,
                                                        queueLimit: 4 * config.database.poolSize),
                                     rejection: HTTPError(APIMessage.databaseBusy)),
        ]
    }
}
