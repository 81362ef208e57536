import SQL

/// The catalogue's own Chinese words by their pinyin: category names and the one- to four-character
/// strings of on-sale titles, each with how many titles hold it, indexed by full spelling (`meigui`)
/// and by initials (`mg`). A Latin query that spells one of them searches for the words it spells
/// (`QueryExpansion`), the most used first, so `mg` finds 玫瑰 before rarer words.
///
/// Built from the database at one `catalog_version` by `read`: the categories and the titles of at
/// most `maxTitles` best-selling on-sale products (a bounded read however large the catalogue), so a
/// catalogue of 100,000 products costs the same as one of 20,000.
struct SearchLexicon: Sendable {
    /// A word and how many titles hold it (a category name counts its products too).
    struct Entry: Sendable {
        let term: String
        let count: Int
    }

    /// Full spelling → words, most used first.
    private(set) var full: [String: [Entry]] = [:]
    /// Spelling of initials (two letters or more) → words, most used first.
    private(set) var initials: [String: [Entry]] = [:]

    /// The most titles read.
    static let maxTitles = 20_000
    /// The longest title string indexed, in characters.
    static let maxLength = 4
    /// At most this many words a query is rewritten to.
    static let maxTerms = 3

    /// The words of `counts` indexed by their spellings in `pinyin`.
    init(counts: [String: Int], pinyin: PinyinTable) {
        var full: [String: [Entry]] = [:]
        var initials: [String: [Entry]] = [:]
        for (term, count) in counts {
            guard let spellings = pinyin.spellings(of: term) else { continue }
            let entry = Entry(term: term, count: count)
            for spelling in spellings.full { full[spelling, default: []].append(entry) }
            if term.unicodeScalars.count >= 2 {
                for spelling in spellings.initials { initials[spelling, default: []].append(entry) }
            }
        }
        let order: (Entry, Entry) -> Bool = { first, second in
            first.count != second.count ? first.count > second.count : Array(first.term.utf8).lexicographicallyPrecedes(second.term.utf8)
        }
        self.full = full.mapValues { $0.sorted(by: order) }
        self.initials = initials.mapValues { $0.sorted(by: order) }
    }

    /// The lexicon of the catalogue as `db` holds it now.
    static func read(_ db: any SQLConnection, pinyin: PinyinTable) throws -> SearchLexicon {
        var counts: [String: Int] = [:]
        let titles = try db.query("""
            SELECT title FROM products WHERE status = \(ProductStatus.onSale) ORDER BY sales DESC, id DESC LIMIT \(maxTitles)
            """).map { try $0.decode("title", as: String.self) }
        // Strings held by a single title add little in a large catalogue and cost the most memory.
        let minCount = titles.count > 2_000 ? 2 : 1
        var seen = Set<String>()
        for title in titles {
            seen.removeAll(keepingCapacity: true)
            for run in Self.runs(of: title, pinyin: pinyin) {
                for start in run.indices {
                    var gram = String.UnicodeScalarView()
                    for index in start..<min(start + maxLength, run.count) {
                        gram.append(run[index])
                        let term = String(gram)
                        if seen.insert(term).inserted { counts[term, default: 0] += 1 }
                    }
                }
            }
        }
        counts = counts.filter { $0.value >= minCount }
        for row in try db.query("""
            SELECT c.name, (SELECT COUNT(*) FROM products p WHERE p.category_id = c.id AND p.status = \(ProductStatus.onSale)) AS n
            FROM categories c
            """) {
            let name: String = try row.decode("name")
            let products = Int(try row.decode("n", as: Int64.self))
            guard pinyin.spellings(of: name) != nil else { continue }
            counts[name] = max(counts[name] ?? 0, products)
        }
        return SearchLexicon(counts: counts, pinyin: pinyin)
    }

    /// The stretches of `text` made only of characters with a reading.
    static func runs(of text: String, pinyin: PinyinTable) -> [[Unicode.Scalar]] {
        var runs: [[Unicode.Scalar]] = []
        var current: [Unicode.Scalar] = []
        for scalar in text.unicodeScalars {
            if !pinyin.readings(of: scalar).isEmpty {
                current.append(scalar)
            } else if !current.isEmpty {
                runs.append(current)
                current = []
            }
        }
        if !current.isEmpty { runs.append(current) }
        return runs
    }

    /// The words `spelling` spells in full, else (two letters or more) by initials: the most used
    /// first, at most `maxTerms`, none used by a third as many titles as the first or fewer.
    func terms(spelling: String) -> [String] {
        let found = full[spelling] ?? (spelling.utf8.count >= 2 ? initials[spelling] : nil) ?? []
        guard let top = found.first else { return [] }
        return found.prefix(Self.maxTerms).filter { 3 * $0.count > top.count }.map(\.term)
    }
}
