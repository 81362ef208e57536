import SQL

/// The synonyms dictionary staff saved (0036): one row, its text and when it was saved.
struct SynonymStore {
    /// The saved dictionary, nil while staff have saved none.
    func stored(_ db: any SQLConnection) throws -> (text: String, updatedAt: Int64)? {
        guard let row = try db.queryOne("SELECT body, updated_at FROM search_synonyms WHERE id = 1") else { return nil }
        return (try row.decode("body"), try row.decode("updated_at"))
    }

    /// Saves `text` as the dictionary (the table's triggers move the catalogue's versions).
    func save(_ text: String, at now: Int64, _ db: any SQLConnection) throws {
        try db.run("""
            INSERT INTO search_synonyms (id, body, updated_at) VALUES (1, \(text), \(now))
            ON CONFLICT (id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at
            """)
    }
}

/// The search synonyms for staff and the command line: the dictionary in force and where it comes
/// from, and replacing it (checked whole, audited as `search.synonyms`; a refused dictionary changes
/// nothing). A saved dictionary applies at once on every node: saving moves `catalog_version`.
public struct SearchSynonyms: Sendable {
    let pool: any Database
    let clock: Clock
    /// The dictionary in force while staff have saved none.
    let configured: SynonymDictionary
    private let store = SynonymStore()
    private let audit = AuditTrail()

    public init(pool: any Database, clock: Clock, configured: SynonymDictionary) {
        self.pool = pool
        self.clock = clock
        self.configured = configured
    }

    /// Where the dictionary in force comes from.
    public enum Source: String, Sendable {
        /// Saved by staff (`PUT /admin/search/synonyms`).
        case database
        /// `search.synonyms_path`, or the shipped dictionary when that is empty.
        case configuration
    }

    /// The dictionary in force, its source and when staff saved it (nil: never).
    public func current() throws -> (text: String, source: Source, updatedAt: Int64?) {
        try pool.read { db in
            guard let stored = try store.stored(db) else { return (configured.text, .configuration, nil) }
            return (stored.text, .database, stored.updatedAt)
        }
    }

    /// Checks and saves `text` as the dictionary; `SynonymError.invalid` naming every problem's line,
    /// and nothing changed, otherwise.
    public func replace(with text: String, by actor: StaffActor) throws -> (text: String, source: Source, updatedAt: Int64?) {
        let dictionary = try SynonymDictionary(parsing: text)
        let now = clock.unixNow
        return try pool.write { db in
            let before = try store.stored(db)?.text ?? configured.text
            try store.save(dictionary.text, at: now, db)
            try audit.record(actor, "search.synonyms", target: "search_synonyms", before: ["text": before],
                             after: ["text": dictionary.text], at: now, db)
            return (dictionary.text, .database, now)
        }
    }
}
