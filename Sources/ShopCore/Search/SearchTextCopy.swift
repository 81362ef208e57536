import Foundation
import SQL
import Synchronization

/// Every on-sale product's folded title, subtitle and description (with its category), kept in
/// memory at one `catalog_version`, to count the tiers of a dense query without the database.
///
/// A query made of text most products share (the care text every generated description repeats:
/// 6,000–25,000 matches) has every product as a candidate in both engines' indexes, so its exact
/// tier counts checked each candidate's text: 25,000 rows read and compared, 50–150 ms per query
/// on the bench catalogue. Here it is one pass over each field's bytes (`memchr` and `memcmp`), a few ms.
/// Queries with few candidates stay with the index, which answers them in well under a
/// millisecond: a sample of every `sampleStride`-th product decides, holding the pieces the
/// engine's index looks up (`denseMatches`).
///
/// Exact: the copy is read in one transaction with the version it is kept at (`catalog_version`
/// moves in the same transaction as any change to which products a search finds: text, status,
/// category), and used only by a search that read that same version; after a change the search
/// counts from the index until `SearchTermsWarmer` reads the copy again. Byte comparison of
/// folded text, as both engines compare (see `SearchText.fold`).
final class SearchTextCopy: Sendable {
    /// The texts at one version.
    struct Texts: Sendable {
        /// Each on-sale product's id, by position (products in id order).
        let ids: [ProductID]
        /// Each on-sale product's category, by position.
        let categories: [Int64]
        /// Per field, in `SearchMatch.Field` order.
        let fields: [Field]
        /// How often each byte value occurs in the texts: a search looks for the query's rarest byte.
        let byteCounts: [Int]

        /// One field of every product: its folded text, each followed by a zero byte, and where
        /// each product's text ends (past its zero byte).
        struct Field: Sendable {
            var bytes: [UInt8] = []
            var ends: [Int] = []
        }

        var count: Int { categories.count }
    }

    private struct State {
        var version: Int64 = -1
        /// Nil at `version`: the catalogue holds more than `maxProducts` on-sale products.
        var texts: Texts?
    }

    private let state = Mutex(State())

    /// Larger catalogues are not copied (about 200 bytes of memory per product).
    static let maxProducts = 250_000
    /// A query is counted here when the indexes would find at least one product in `denseShare`
    /// as a candidate, as a sample of every `sampleStride`-th product says: the indexes spend
    /// 1.5–2 µs on a candidate (its row read and its text checked), this copy about 0.1 µs on
    /// each product (compared only where the query's least frequent byte is), and it reads them
    /// all. (One in 8 left `No.4`, 1,111 matches among 25,000, to pg_trgm: 35–50 ms.)
    static let sampleStride = 16
    static let denseShare = 32
    /// At most this many of a query's candidate pieces are checked on the sample.
    static let samplePieces = 6

    /// The copy, when it is kept at `version`.
    func texts(at version: Int64) -> Texts? {
        state.withLock { $0.version == version ? $0.texts : nil }
    }

    /// Whether the copy was read at `version` (or found too large then).
    func isPrepared(at version: Int64) -> Bool {
        state.withLock { $0.version == version }
    }

    /// Reads the copy at `version`, which the caller read in this same transaction.
    func prepare(at version: Int64, _ db: any SQLConnection) throws {
        guard !isPrepared(at: version) else { return }
        let onSale = try db.scalarInt("SELECT COUNT(*) FROM products WHERE status = \(ProductStatus.onSale)") ?? 0
        var texts: Texts?
        if onSale <= Self.maxProducts {
            var ids: [ProductID] = []
            var categories: [Int64] = []
            var fields = [Texts.Field](repeating: Texts.Field(), count: SearchMatch.Field.allCases.count)
            ids.reserveCapacity(Int(onSale))
            categories.reserveCapacity(Int(onSale))
            for index in fields.indices { fields[index].ends.reserveCapacity(Int(onSale)) }
            for row in try db.query("""
                SELECT id, category_id, title, subtitle, description FROM products
                WHERE status = \(ProductStatus.onSale) ORDER BY id
                """) {
                ids.append(try row.decode("id"))
                categories.append(try row.decode("category_id"))
                for field in SearchMatch.Field.allCases {
                    let text: String = try row.decode(field.column)
                    fields[field.rawValue].bytes.append(contentsOf: SearchText.fold(text).utf8)
                    fields[field.rawValue].bytes.append(0)
                    fields[field.rawValue].ends.append(fields[field.rawValue].bytes.count)
                }
            }
            var byteCounts = [Int](repeating: 0, count: 256)
            for field in fields {
                for byte in field.bytes { byteCounts[Int(byte)] += 1 }
            }
            texts = Texts(ids: ids, categories: categories, fields: fields, byteCounts: byteCounts)
        }
        state.withLock { state in
            state.version = version
            state.texts = texts
        }
    }
}

extension SearchTextCopy.Texts {
    /// Each on-sale product's first field (`SearchMatch.Field` order) holding a folded text, by
    /// position; `none` where no field holds it.
    struct Matches: Sendable {
        let first: [UInt8]
        let none: UInt8
    }

    /// Whether the folded `text` holds a byte that no on-sale product's text holds: nothing
    /// matches it, whatever its filters (an emoji, a script the catalogue does not use).
    func holdsAbsentByte(_ text: String) -> Bool {
        text.utf8.contains { byteCounts[Int($0)] == 0 }
    }

    /// The relevance tiers' sizes (`ProductSearch.tiers(named:)` order) of the folded `text`
    /// among all on-sale products; nil when `denseMatches` leaves the text to the indexes.
    func denseCounts(of text: String, in engine: any SearchEngine, named: [CategoryID]) -> [Int]? {
        denseMatches(of: text, in: engine).map { tiers(of: $0, named: named) }
    }

    /// The matches of the folded `text` when `engine`'s index would check many candidates for it: a
    /// product is one when it holds every one of the engine's `candidatePieces` of the text. Nil
    /// when the text is shorter than three characters (the indexes count those from their
    /// entries), when a sample says the index has few candidates to check for it (it then counts
    /// it for less), or when it holds a control character (the zero byte between products).
    ///
    /// The index's own pieces, not the text's: pg_trgm takes its trigrams from the letters and
    /// digits alone, so a care-text phrase with a few hundred matches (`换水，斜剪根部。养`) has
    /// thousands of candidates there (10–25 ms of rechecks), which its 3-character strings with
    /// the punctuation did not say.
    func denseMatches(of text: String, in engine: any SearchEngine) -> Matches? {
        guard text.unicodeScalars.count >= 3, !text.unicodeScalars.contains(where: { $0.value < 0x20 }), count > 0 else { return nil }
        let pieces = engine.candidatePieces(of: text)
        // Products holding a few of them, spread over the text, are at least the candidates; the
        // sample stops once it has found enough (a care text's pieces are in every product).
        let sampleSize = (count + SearchTextCopy.sampleStride - 1) / SearchTextCopy.sampleStride
        let enough = max(1, (sampleSize + SearchTextCopy.denseShare - 1) / SearchTextCopy.denseShare)
        let held = holding(SearchPiece.spread(pieces, count: SearchTextCopy.samplePieces), every: SearchTextCopy.sampleStride,
                           upTo: enough)
        guard held >= enough else { return nil }
        return matches(of: text)
    }

    /// How many of every `stride`-th product (from the first) hold all of `pieces`, each in one of
    /// its fields (none: every product does), counted up to `limit`.
    func holding(_ pieces: [SearchPiece], every stride: Int = 1, upTo limit: Int = .max) -> Int {
        // The rarest first: most products lack it, and are passed after one look.
        let pieces = pieces.map { ($0, rarest($0.bytes)) }.sorted { byteCounts[Int($0.0.bytes[$0.1])] < byteCounts[Int($1.0.bytes[$1.1])] }
        var held = 0
        for product in Swift.stride(from: 0, to: count, by: stride)
        where pieces.allSatisfy({ piece, rare in fields.contains { Self.holds($0, product, piece, rare: rare) } }) {
            held += 1
            if held >= limit { break }
        }
        return held
    }

    /// The matches of the folded `text` (one pass over each field's bytes, a few ms at most over
    /// the bench's 25,000 products); nil when it is empty or holds a control character.
    func matches(of text: String) -> Matches? {
        guard !text.isEmpty, !text.unicodeScalars.contains(where: { $0.value < 0x20 }) else { return nil }
        let needle = Array(text.utf8)
        let rare = rarest(needle)
        let none = UInt8(fields.count)
        var first = [UInt8](repeating: none, count: count)
        needle.withUnsafeBytes { needle in
            // Each product's first field holding the text, one pass over each field.
            for (field, texts) in fields.enumerated() {
                texts.bytes.withUnsafeBytes { haystack in
                    var product = 0
                    var offset = 0
                    while let position = Self.firstIndex(of: needle, rare: rare, in: haystack, from: offset, to: haystack.count) {
                        while texts.ends[product] <= position { product += 1 }
                        if first[product] == none { first[product] = UInt8(field) }
                        offset = texts.ends[product]
                    }
                }
            }
        }
        return Matches(first: first, none: none)
    }

    /// The relevance tiers' sizes (`ProductSearch.tiers(named:)` order) of `matches`.
    func tiers(of matches: Matches, named: [CategoryID]) -> [Int] {
        let isNamed = Set(named.map(\.rawValue))
        var tiers = [Int](repeating: 0, count: isNamed.isEmpty ? fields.count : 2 * fields.count)
        for (product, field) in matches.first.enumerated() where field != matches.none {
            let other = !isNamed.isEmpty && !isNamed.contains(categories[product])
            tiers[Int(field) + (other ? fields.count : 0)] += 1
        }
        return tiers
    }

    /// The ids of the products of `matches` in `tier` (in id order), given the categories the query names.
    func ids(of matches: Matches, in tier: ProductSearch.Tier, named: [CategoryID]) -> [ProductID] {
        let isNamed = Set(named.map(\.rawValue))
        var ids: [ProductID] = []
        for (product, field) in matches.first.enumerated() where field != matches.none {
            if case .field(let wanted) = tier.scope, wanted.rawValue != Int(field) { continue }
            if let inNamed = tier.named, !isNamed.isEmpty, isNamed.contains(categories[product]) != inNamed { continue }
            ids.append(self.ids[product])
        }
        return ids
    }

    /// Where in `needle` its byte that the texts hold least often is: where a search stops to compare.
    private func rarest(_ needle: [UInt8]) -> Int {
        needle.indices.min { byteCounts[Int(needle[$0])] < byteCounts[Int(needle[$1])] } ?? 0
    }

    /// Whether `product`'s text in `field` holds `piece` (where it begins or ends a word, if it must).
    private static func holds(_ field: Field, _ product: Int, _ piece: SearchPiece, rare: Int) -> Bool {
        let start = product == 0 ? 0 : field.ends[product - 1]
        let end = field.ends[product] - 1
        return piece.bytes.withUnsafeBytes { needle in
            field.bytes.withUnsafeBytes { bytes in
                var from = start
                while let found = firstIndex(of: needle, rare: rare, in: bytes, from: from, to: end) {
                    if (!piece.startsWord || !endsWithWordCharacter(bytes, from: start, to: found))
                        && (!piece.endsWord || !beginsWithWordCharacter(bytes, from: found + needle.count, to: end)) {
                        return true
                    }
                    from = found + 1
                }
                return false
            }
        }
    }

    /// Whether the last character of `bytes[from..<to]` (UTF-8) is a letter or a digit.
    private static func endsWithWordCharacter(_ bytes: UnsafeRawBufferPointer, from: Int, to end: Int) -> Bool {
        guard end > from else { return false }
        var start = end - 1
        while start > from, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        let scalar = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self).unicodeScalars.first
        return scalar.map(SearchPiece.isWordCharacter) ?? false
    }

    /// Whether the first character of `bytes[from..<to]` (UTF-8) is a letter or a digit.
    private static func beginsWithWordCharacter(_ bytes: UnsafeRawBufferPointer, from: Int, to end: Int) -> Bool {
        guard end > from else { return false }
        var next = from + 1
        while next < end, bytes[next] & 0xC0 == 0x80 { next += 1 }
        let scalar = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[from..<next]), as: UTF8.self).unicodeScalars.first
        return scalar.map(SearchPiece.isWordCharacter) ?? false
    }

    /// Where `needle` first starts in `haystack[from..<to]`: `memchr` finds its byte at `rare`
    /// (the texts' least frequent of its bytes), `memcmp` compares the rest there.
    static func firstIndex(of needle: UnsafeRawBufferPointer, rare: Int, in haystack: UnsafeRawBufferPointer,
                           from: Int, to end: Int) -> Int? {
        guard let base = haystack.baseAddress, let pattern = needle.baseAddress, !needle.isEmpty else { return nil }
        let byte = Int32(needle[rare])
        var start = from
        while start + needle.count <= end {
            // The rare byte of a match starting in start ... end - needle.count.
            guard let found = memchr(base + start + rare, byte, end - needle.count - start + 1) else { return nil }
            let candidate = base.distance(to: UnsafeRawPointer(found)) - rare
            if memcmp(base + candidate, pattern, needle.count) == 0 { return candidate }
            start = candidate + 1
        }
        return nil
    }
}
