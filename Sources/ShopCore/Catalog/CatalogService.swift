import SQL

/// Browsing the shop: the category tree, product lists with search, product pages,
/// suggestions and hot keywords.
public struct CatalogService: Sendable {
    let pool: any Database
    let clock: Clock
    let logger: Logger
    let settings: Config.Search
    private let store: CatalogStore
    private let search: SearchStore
    private let facets: FacetStore
    private let changes = CatalogChanges()
    private let recorder: SearchRecorder
    private let throttle: SearchThrottle
    /// The catalogue's versions in memory, where a node is told of changes (PostgreSQL under
    /// `shop serve`): a kept answer is then checked without a statement. Nil, or versions it cannot
    /// vouch for: each check reads the version from the database.
    private let versions: PushedCatalogVersions?

    static let hotWindowSeconds: Int64 = 7 * 86_400

    /// `synonyms`: the dictionary in force while staff have saved none (`search.synonyms_path`).
    public init(pool: any Database, search engine: any SearchEngine, clock: Clock, logger: Logger, settings: Config.Search,
                synonyms: SynonymDictionary = .shipped, versions: PushedCatalogVersions? = nil) {
        self.pool = pool
        self.versions = versions
        store = CatalogStore(search: engine, synonyms: synonyms)
        search = SearchStore(engine: engine)
        facets = FacetStore(engine: engine)
        self.clock = clock
        self.logger = logger
        self.settings = settings
        recorder = SearchRecorder(pool: pool, store: search, logger: logger)
        throttle = SearchThrottle(perMinute: settings.maxPerMinutePerIP)
    }

    /// Reads the synonyms dictionary, builds the pinyin lexicon and copies the on-sale products'
    /// texts (`SearchTextCopy`, for dense queries' counts) at the catalogue's current version when
    /// they are not kept at it (`SearchTermsWarmer`, after a start or a change), so that no
    /// shopper's query waits for them. No statement when the pushed versions say they are kept.
    public func prepareSearchTerms() throws {
        if let index = versions?.current()?.index, isPrepared(at: index) { return }
        try pool.read { db in
            let version = try changes.indexVersion(db)
            if !store.expansion.isPrepared(at: version) { try store.expansion.prepare(at: version, db) }
            try store.search.texts.prepare(at: version, db)
        }
    }

    private func isPrepared(at version: Int64) -> Bool {
        store.expansion.isPrepared(at: version) && store.search.texts.isPrepared(at: version)
    }

    /// Whether the search terms are kept at the index's `version` (for tests).
    func searchTermsArePrepared(at version: Int64) -> Bool {
        isPrepared(at: version)
    }

    /// Whether any product exists (on sale or not).
    public func hasProducts() throws -> Bool {
        try pool.read { db in try store.hasProducts(db) }
    }

    /// The category tree, unless nothing in the catalogue changed since version `known` (nil: the
    /// caller holds no copy).
    public func categoryTree(unlessAt known: Int64?) throws -> Versioned<[CategoryNode]> {
        // The usual answer, "unchanged", costs no statement with versions in memory, else one; a
        // change reads again in one snapshot.
        if let known, try catalogVersion() == known { return .unchanged }
        return try pool.read { db in
            let version = try changes.version(db)
            if version == known { return .unchanged }
            return .current(try store.categoryTree(db), version: version)
        }
    }

    /// A page of on-sale products matching the query, unless nothing in the catalogue changed since
    /// version `known` (a version of the whole catalogue: every product's stock, price, sales, text
    /// and status; nil: the caller holds no copy). A search is counted for the hot keywords either
    /// way, with who searched and whether it found anything (a keyword that could never be hot is not
    /// counted): an unchanged answer found what it found at that version, which the index's cached
    /// counts say without ranking anything. Past `search.max_per_minute_per_ip` searches a minute
    /// from one address is `tooManySearches`.
    public func products(_ query: ProductQuery, unlessAt known: Int64?) throws -> Versioned<Page<ProductSummary>> {
        try listing(query, facets: false, unlessAt: known).map(\.page)
    }

    /// `products`, with the list's facets (`ProductFacets`) when `facets` is true, counted in the
    /// same transaction as the page.
    public func listing(_ query: ProductQuery, facets withFacets: Bool, unlessAt known: Int64?) throws -> Versioned<ProductListing> {
        try Self.validatePrices(query)
        var query = query
        query.text = try SearchText.normalize(query.text)
        try admit(query)
        let (answer, total) = try unchangedProducts(query, since: known) ?? readListing(query, facets: withFacets)
        if let text = query.text, let total, query.page.page == 1, SearchText.mayBeHot(text) {
            recorder.record(text.lowercased(), searcher: query.searcher?.key ?? "", found: total > 0, at: clock.unixNow)
        }
        return answer
    }

    /// `listing` read afresh, as a kept body's background refresh needs it: not counted against
    /// anyone's search limit and not recorded as a search (the request that found the kept body
    /// old was counted and recorded already).
    public func freshListing(_ query: ProductQuery, facets withFacets: Bool) throws -> Versioned<ProductListing> {
        try Self.validatePrices(query)
        var query = query
        query.text = try SearchText.normalize(query.text)
        return try readListing(query, facets: withFacets).answer
    }

    /// `freshListing` with its version, for `listing` and the refresh alike: the page and its facets
    /// in one snapshot, with the total the search log needs.
    private func readListing(_ query: ProductQuery, facets withFacets: Bool) throws -> (answer: Versioned<ProductListing>, total: Int?) {
        try pool.read { db in
            let version = try changes.version(db)
            if let category = query.categoryID, try !store.categoryExists(category, db) { throw CatalogError.categoryNotFound }
            let page = try store.products(query, db)
            let counts = withFacets
                ? try facets.facets(query, expanded: { try store.expandedMatchesOfText(query, at: $0, db) }, db) : nil
            return (.current(ProductListing(page: page, facets: counts), version: version), page.total)
        }
    }

    /// `.unchanged` (and, for a search, its total from the index's counts) when the catalogue is
    /// still at `known`, checked statement by statement (the total only feeds the search log);
    /// nil when there is no `known` or the catalogue moved.
    private func unchangedProducts(_ query: ProductQuery, since known: Int64?) throws -> (Versioned<ProductListing>, Int?)? {
        guard let known else { return nil }
        if let versions = versions?.current() {
            guard versions.catalog == known else { return nil }
            guard query.text != nil else { return (.unchanged, nil) }
            let total = try store.cachedSearchTotal(query, indexVersion: versions.index)
                ?? pool.readEach { try store.searchTotal(query, indexVersion: versions.index, $0) }
            return (.unchanged, total)
        }
        return try pool.readEach { db in
            guard query.text != nil else { return try changes.version(db) == known ? (.unchanged, nil) : nil }
            let versions = try changes.versionAndIndexVersion(db)
            guard versions.catalog == known else { return nil }
            return (.unchanged, try store.searchTotal(query, indexVersion: versions.index, db))
        }
    }

    /// A product page, unless nothing it shows changed since version `known` (a version of this
    /// product's counter: compare it only with what this method answered for the same id).
    public func product(_ id: ProductID, unlessAt known: Int64?) throws -> Versioned<ProductDetail> {
        if let known, try versions?.current()?.of(id) ?? pool.readEach({ try changes.version(of: id, $0) }) == known {
            return .unchanged
        }
        return try pool.read { db in
            let version = try changes.version(of: id, db)
            if version == known { return .unchanged }
            guard let detail = try CatalogStore.product(id, db) else { throw CatalogError.productNotFound }
            return .current(detail, version: version)
        }
    }

    /// The whole catalogue's version: from memory when it can be vouched for, else read.
    private func catalogVersion() throws -> Int64 {
        if let versions = versions?.current() { return versions.catalog }
        return try pool.readEach { try changes.version($0) }
    }

    /// Counts a search (any page) against its client address's limit; lists without `q` are not searches.
    private func admit(_ query: ProductQuery) throws {
        guard query.text != nil, let address = query.searcher?.clientIP else { return }
        try throttle.admit(address, at: clock.unixNow)
    }

    private static func validatePrices(_ query: ProductQuery) throws {
        if let min = query.minPriceCents, min < 0 { throw ValidationError("min_price_cents", .notNegative) }
        if let max = query.maxPriceCents, max < 0 { throw ValidationError("max_price_cents", .notNegative) }
        // A range that holds nothing is a mistake to point out, not an empty page to show.
        if let min = query.minPriceCents, let max = query.maxPriceCents, min > max {
            throw ValidationError.notAbove("min_price_cents", "max_price_cents")
        }
    }

    /// A product page; unknown and off-sale products are `productNotFound`.
    public func product(_ id: ProductID) throws -> ProductDetail {
        guard let detail = try pool.read({ db in try CatalogStore.product(id, db) }) else { throw CatalogError.productNotFound }
        return detail
    }

    /// Up to 10 terms for the search box, those starting with the text first.
    public func suggestions(_ raw: String?) throws -> [String] {
        guard let text = try SearchText.normalize(raw) else { return [] }
        return try pool.read { db in try search.suggestions(text, limit: 10, titles: store.search, db) }
    }

    /// Up to 10 keywords of the last 7 days, by the number of different people who searched them and
    /// found something (at least `search.hot_min_searchers`); none containing a blocked word.
    public func hotKeywords() throws -> [HotKeyword] {
        try recorder.flushBeforeReading()
        let since = clock.unixNow - Self.hotWindowSeconds
        return try pool.read { db in
            try search.hot(since: since, minSearchers: settings.hotMinSearchers, blocked: settings.blockedWords, limit: 10, db)
        }
    }

    /// Drops the search counts of days more than 30 days ago, and searchers the hot keywords no
    /// longer look at (older than 7 days).
    public func purgeSearchLog() throws {
        let now = clock.unixNow
        try pool.write { db in try search.purge(counts: now - 30 * 86_400, searchers: now - Self.hotWindowSeconds, db) }
    }

    /// Writes the searches not yet recorded (at shutdown).
    public func flushSearches() {
        recorder.flush()
    }
}
