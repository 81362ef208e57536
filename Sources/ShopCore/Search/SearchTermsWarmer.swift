import Synchronization

/// Keeps the search terms' dictionary and pinyin lexicon (`QueryExpansion`) built, and the
/// on-sale products' texts copied (`SearchTextCopy`), for the catalogue's current version, on its
/// own timer thread: at start and within `interval` of every change, so the first Latin query after
/// either does not build them (150–200 ms over the bench's 100,000 SKUs, the slowest cold search).
/// A query that comes before the warmer still builds the terms; it counts from the index without
/// the copy.
public final class SearchTermsWarmer: Sendable {
    private let catalog: CatalogService
    private let logger: Logger
    private let timer = RepeatingTimer(label: "shop.search-terms-warmer")
    private let failing = Mutex(false)

    public init(catalog: CatalogService, logger: Logger) {
        self.catalog = catalog
        self.logger = logger
    }

    /// Prepares now, then checks every `interval` milliseconds (one statement on SQLite, none on
    /// PostgreSQL while the pushed versions are current).
    public func start(interval: Int = 1_000) {
        timer.start(every: .milliseconds(interval), leeway: .milliseconds(100)) { [weak self] in self?.runOnce() }
    }

    /// Stops the timer and waits for a build in progress to finish.
    public func stop() {
        timer.stop()
    }

    private func runOnce() {
        do {
            try catalog.prepareSearchTerms()
            failing.withLock { $0 = false }
        } catch {
            // Logged once per run of failures: the next query builds the terms itself.
            if !failing.withLock({ was in defer { was = true }; return was }) {
                logger.warning("cannot prepare the search terms", ["error": String(describing: error)])
            }
        }
    }
}
