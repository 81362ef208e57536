import SQL
import Synchronization

/// What else a query searches for, after its own matches: its synonyms (`SynonymDictionary`), and,
/// for a Latin query, the catalogue's Chinese words it spells in pinyin (`SearchLexicon`). Both are
/// kept in memory per `catalog_version`, which moves with every change to the catalogue's text,
/// categories or on-sale products and with every edit of the dictionary (0036): each node reads
/// the dictionary again (one statement) and builds the lexicon again (a bounded read, only when a
/// Latin query needs it) on its first search after a move.
///
/// A query's whole result is the ordered union of its own matches and each term's, no product
/// twice, remembered per query and version (`merged`), so every page and the total agree.
final class QueryExpansion: Sendable {
    /// The dictionary when the database holds none: `search.synonyms_path`, else the shipped one.
    let configured: SynonymDictionary
    let pinyin: PinyinTable

    /// A query whose own matches are more than this is not expanded (its own matches fill many pages
    /// already); each expansion term contributes at most this many products.
    static let maxMatchesPerTerm = 1_000

    private struct State {
        var version: Int64 = -1
        var dictionary: SynonymDictionary?
        var lexicon: SearchLexicon?
        var merged: [MergedKey: [ProductID]] = [:]
        /// The terms each folded text stands for (most: none), so a kept page's check and a
        /// repeated search look them up instead of working them out again.
        var terms: [String: [String]] = [:]

        /// Forgets everything kept at another version.
        mutating func moveTo(_ newVersion: Int64) {
            guard version != newVersion else { return }
            version = newVersion
            dictionary = nil
            lexicon = nil
            merged.removeAll(keepingCapacity: true)
            terms.removeAll(keepingCapacity: true)
        }
    }

    /// A query's filters and order, for the merged results.
    struct MergedKey: Hashable {
        let filter: ProductFilter
        let order: String
    }

    static let capacity = 1_024

    private let state = Mutex(State())

    init(configured: SynonymDictionary, pinyin: PinyinTable = .shipped) {
        self.configured = configured
        self.pinyin = pinyin
    }

    /// The terms the folded `text` also searches for at `version` (none for most queries), in
    /// order: synonyms, then the words its pinyin spells, and only when neither gives any, the
    /// nearest Latin terms of the dictionary (a typo); never `text` itself.
    func terms(for text: String, at version: Int64, _ db: any SQLConnection) throws -> [String] {
        if let kept = state.withLock({ $0.version == version ? $0.terms[text] : nil }) { return kept }
        let found = try terms(for: text, dictionary: try dictionary(at: version, db), lexicon: { try lexicon(at: version, db) })
        rememberTerms(found, for: text, at: version)
        return found
    }

    private func rememberTerms(_ found: [String], for text: String, at version: Int64) {
        state.withLock { state in
            guard state.version == version else { return }
            if state.terms.count >= Self.capacity * 8 { state.terms.removeAll(keepingCapacity: true) }
            state.terms[text] = found
        }
    }

    /// `terms(for:at:_:)` from what is kept in memory alone; nil when it would need the database
    /// (the dictionary or the lexicon not read at `version`): a kept page's check asks no statement.
    func keptTerms(for text: String, at version: Int64) -> [String]? {
        if let kept = state.withLock({ $0.version == version ? $0.terms[text] : nil }) { return kept }
        struct NotKept: Error {}
        guard let dictionary = state.withLock({ $0.version == version ? $0.dictionary : nil }) else { return nil }
        return try? terms(for: text, dictionary: dictionary, lexicon: {
            guard let kept = state.withLock({ $0.version == version ? $0.lexicon : nil }) else { throw NotKept() }
            return kept
        })
    }

    private func terms(for text: String, dictionary: SynonymDictionary, lexicon: () throws -> SearchLexicon) throws -> [String] {
        var terms = dictionary.terms(for: text)
        if let spelling = PinyinTable.spelling(of: text) {
            for term in try lexicon().terms(spelling: spelling) { terms.appendOnce(term) }
        }
        if terms.isEmpty { terms = dictionary.nearestTerms(for: text) }
        let own = Array(text.utf8)
        return terms.filter { Array($0.utf8) != own }
    }

    /// The dictionary in force at `version`: the database's (0036), else the configured one.
    func dictionary(at version: Int64, _ db: any SQLConnection) throws -> SynonymDictionary {
        if let kept = state.withLock({ $0.version == version ? $0.dictionary : nil }) { return kept }
        let dictionary = try SynonymStore().stored(db).flatMap { try? SynonymDictionary(parsing: $0.text) } ?? configured
        state.withLock { state in
            state.moveTo(version)
            state.dictionary = dictionary
        }
        return dictionary
    }

    /// Whether the dictionary and the lexicon are kept at `version`.
    func isPrepared(at version: Int64) -> Bool {
        state.withLock { $0.version == version && $0.dictionary != nil && $0.lexicon != nil }
    }

    /// Reads the dictionary and builds the lexicon at `version` unless kept, so that no Latin query
    /// waits for them (`SearchTermsWarmer`: the first one after a start or a change took 150–200 ms).
    func prepare(at version: Int64, _ db: any SQLConnection) throws {
        _ = try dictionary(at: version, db)
        _ = try lexicon(at: version, db)
    }

    private func lexicon(at version: Int64, _ db: any SQLConnection) throws -> SearchLexicon {
        if let kept = state.withLock({ $0.version == version ? $0.lexicon : nil }) { return kept }
        let lexicon = try SearchLexicon.read(db, pinyin: pinyin)
        state.withLock { state in
            state.moveTo(version)
            state.lexicon = lexicon
        }
        return lexicon
    }

    /// The merged results remembered for `key` at `version`.
    func merged(_ key: MergedKey, at version: Int64) -> [ProductID]? {
        state.withLock { $0.version == version ? $0.merged[key] : nil }
    }

    func remember(_ ids: [ProductID], for key: MergedKey, at version: Int64) {
        state.withLock { state in
            state.moveTo(version)
            if state.merged.count >= Self.capacity { state.merged.removeAll(keepingCapacity: true) }
            state.merged[key] = ids
        }
    }
}
