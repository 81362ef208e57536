import Foundation
import Localization

/// The search synonyms: which terms a query also searches for. One group per line, in the format of
/// `Config/search_synonyms.txt` (its header says the same):
///
/// - `送妈妈,母亲节 => 康乃馨`: a query that is one of the left terms also finds the right terms'
///   products (after its own matches);
/// - `rose,玫瑰,玫瑰花`: a plain group, each term finds the others';
/// - terms separated by `,` or `，`, compared folded (ASCII letters in lower case), spaces around
///   them ignored; `#` starts a comment line; blank lines are skipped.
///
/// One step only: a rewrite's terms are not rewritten again. A dictionary with a problem is refused
/// whole, every problem named with its line (`SynonymError.invalid`).
public struct SynonymDictionary: Sendable, Equatable {
    /// The dictionary's text as written.
    public let text: String
    /// Folded term → the terms it also searches for, in the order the file names them.
    let rewrites: [String: [String]]
    /// The terms of `rewrites` spelled in ASCII letters only, for typos of Latin names.
    let latinTerms: [String]

    /// The longest line, in characters.
    public static let maxLineLength = 2_000
    /// The most terms in one group.
    public static let maxGroupTerms = 100
    /// The most lines a dictionary may have.
    public static let maxLines = 10_000

    /// The dictionary `Config/search_synonyms.txt` holds as built into the binary.
    public static let shipped: SynonymDictionary = {
        do {
            return try SynonymDictionary(parsing: shippedData)
        } catch {
            preconditionFailure("Config/search_synonyms.txt as built in does not read: \(error)")
        }
    }()

    /// `Config/search_synonyms.txt` as built into the binary.
    public static var shippedData: String { EmbeddedFiles.files["Config/search_synonyms.txt"] ?? "" }

    /// Reads and checks `text`; throws `SynonymError.invalid` with every problem found.
    public init(parsing text: String) throws(SynonymError) {
        var problems: [SynonymProblem] = []
        var rewrites: [String: [String]] = [:]
        /// Directed edges of `=>` lines (term → right terms), with the line that wrote each.
        var edges: [String: [(term: String, line: Int)]] = [:]
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.count > Self.maxLines {
            throw .invalid([SynonymProblem(line: Self.maxLines + 1, .tooManyLines, ["max": .verbatim(String(Self.maxLines))])])
        }
        for (offset, raw) in lines.enumerated() {
            let line = offset + 1
            let content = raw.trimmingSpaces
            if content.isEmpty || content.hasPrefix("#") { continue }
            if raw.unicodeScalars.count > Self.maxLineLength {
                problems.append(SynonymProblem(line: line, .lineTooLong, ["max": .verbatim(String(Self.maxLineLength))]))
                continue
            }
            let sides = content.components(separatedBy: "=>")
            guard sides.count <= 2 else {
                problems.append(SynonymProblem(line: line, .twoArrows))
                continue
            }
            var groups: [[String]] = []
            var lineProblems: [SynonymProblem] = []
            for side in sides {
                let terms = side.split(separator: ",", omittingEmptySubsequences: false)
                    .flatMap { $0.split(separator: "，", omittingEmptySubsequences: false) }
                    .map { SearchText.fold(String($0).trimmingSpaces) }
                if terms.allSatisfy(\.isEmpty) {
                    lineProblems.append(SynonymProblem(line: line, .emptyGroup))
                } else if terms.contains(where: \.isEmpty) {
                    lineProblems.append(SynonymProblem(line: line, .emptyTerm))
                }
                if terms.count > Self.maxGroupTerms {
                    lineProblems.append(SynonymProblem(line: line, .groupTooLarge, ["max": .verbatim(String(Self.maxGroupTerms))]))
                }
                if let long = terms.first(where: { $0.unicodeScalars.count > SearchText.maxLength }) {
                    lineProblems.append(SynonymProblem(line: line, .termTooLong, ["term": .verbatim(String(long.prefix(16)) + "…"),
                                                                                   "max": .verbatim(String(SearchText.maxLength))]))
                }
                if terms.contains(where: { $0.unicodeScalars.contains { $0.properties.generalCategory == .control } }) {
                    lineProblems.append(SynonymProblem(line: line, .controlCharacter))
                }
                groups.append(terms)
            }
            if groups.count == 1, lineProblems.isEmpty, Set(groups[0].map { Array($0.utf8) }).count < 2 {
                lineProblems.append(SynonymProblem(line: line, .singleTerm))
            }
            problems += lineProblems
            guard lineProblems.isEmpty else { continue }
            if groups.count == 2 {
                for term in groups[0] {
                    for target in groups[1] {
                        rewrites[term, default: []].appendOnce(target)
                        edges[term, default: []].append((target, line))
                    }
                }
            } else {
                for term in groups[0] {
                    for other in groups[0] where Array(other.utf8) != Array(term.utf8) {
                        rewrites[term, default: []].appendOnce(other)
                    }
                }
            }
        }
        problems += Self.cycles(edges)
        guard problems.isEmpty else { throw .invalid(problems.sorted { $0.line < $1.line }) }
        self.text = text
        self.rewrites = rewrites
        latinTerms = rewrites.keys.filter { term in term.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x20 } }.sorted()
    }

    /// A problem for each `=>` rewrite that leads back to where it started (`a => b`, `b => a`),
    /// named at the line of the edge that closes the cycle.
    private static func cycles(_ edges: [String: [(term: String, line: Int)]]) -> [SynonymProblem] {
        var state: [String: Int] = [:]  // 1 on the path, 2 done
        var problems: [SynonymProblem] = []
        var reported = Set<Int>()
        func visit(_ term: String) {
            state[term] = 1
            for edge in edges[term] ?? [] {
                switch state[edge.term] {
                case 1:
                    if reported.insert(edge.line).inserted {
                        problems.append(SynonymProblem(line: edge.line, .cycle, ["term": .verbatim(edge.term)]))
                    }
                case nil: visit(edge.term)
                default: break
                }
            }
            state[term] = 2
        }
        for term in edges.keys.sorted() where state[term] == nil { visit(term) }
        return problems
    }

    /// The terms a folded query also searches for: its rewrites (none when it is no term).
    func terms(for folded: String) -> [String] {
        rewrites[Self.key(folded)] ?? []
    }

    /// A folded query as terms are compared: runs of spaces as one.
    static func key(_ folded: String) -> String {
        folded.split(separator: " ").joined(separator: " ")
    }

    /// For a Latin word of four letters or more that is no term: the Latin terms nearest it within
    /// one edit (two from eight letters) and their rewrites, so `tulp` and `carnaton` still find
    /// their flowers.
    func nearestTerms(for folded: String) -> [String] {
        let key = Self.key(folded)
        guard rewrites[key] == nil else { return [] }
        let letters = Array(key.utf8)
        guard letters.count >= 4, letters.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x20 }) else { return [] }
        let allowed = letters.count >= 8 ? 2 : 1
        var best = allowed + 1
        var nearest: [String] = []
        for term in latinTerms {
            let distance = Self.editDistance(letters, Array(term.utf8), atMost: allowed)
            guard distance <= allowed else { continue }
            if distance < best {
                best = distance
                nearest = [term]
            } else if distance == best {
                nearest.append(term)
            }
        }
        var terms: [String] = []
        for term in nearest.prefix(3) {
            terms.appendOnce(term)
            for rewrite in rewrites[term] ?? [] { terms.appendOnce(rewrite) }
        }
        return terms
    }

    /// Optimal string alignment distance (insertions, deletions, substitutions, swaps of two
    /// neighbours), or `atMost + 1` once it is certain to exceed `atMost`.
    static func editDistance(_ a: [UInt8], _ b: [UInt8], atMost: Int) -> Int {
        if abs(a.count - b.count) > atMost { return atMost + 1 }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...max(b.count, 1) where !b.isEmpty {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { value = min(value, previous2[j - 2] + 1) }
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            if rowMinimum > atMost { return atMost + 1 }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return min(previous[b.count], atMost + 1)
    }
}

/// A synonyms dictionary refused, with every problem.
public enum SynonymError: Error, Equatable, Sendable {
    case invalid([SynonymProblem])
}

/// One problem of a synonyms dictionary, at its line (1-based).
public struct SynonymProblem: Equatable, Sendable, CustomStringConvertible {
    public enum Rule: String, Sendable {
        case lineTooLong, twoArrows, emptyGroup, emptyTerm, singleTerm, groupTooLarge, termTooLong, controlCharacter, cycle, tooManyLines
    }

    public let line: Int
    public let rule: Rule
    /// The rule's placeholders (`max`, `term`), as the message shows them.
    public let values: [String: LocalizedText]

    init(line: Int, _ rule: Rule, _ values: [String: LocalizedText] = [:]) {
        self.line = line
        self.rule = rule
        self.values = values
    }

    public var message: LocalizedText {
        let (zh, en): (String, String) = switch rule {
        case .lineTooLong: ("一行最多 {max} 个字符", "a line holds at most {max} characters")
        case .twoArrows: ("一行只能有一个 =>", "a line holds at most one =>")
        case .emptyGroup: ("这一组没有任何词", "the group has no terms")
        case .emptyTerm: ("有空的词（多余的逗号？）", "a term is empty (an extra comma?)")
        case .singleTerm: ("一组至少要两个不同的词，或写成 词 => 词", "a group needs two different terms, or the form terms => terms")
        case .groupTooLarge: ("一组最多 {max} 个词", "a group holds at most {max} terms")
        case .termTooLong: ("词“{term}”超过 {max} 个字符", "the term \"{term}\" is longer than {max} characters")
        case .controlCharacter: ("词中有控制字符", "a term holds a control character")
        case .cycle: ("改写成环：经由“{term}”又回到了自身", "the rewrites form a cycle through \"{term}\"")
        case .tooManyLines: ("词典最多 {max} 行", "a dictionary holds at most {max} lines")
        }
        let text = LocalizedText(zh: zh, en: en).filling(values)
        return LocalizedText(zh: "第 \(line) 行：" + text.zh, en: "line \(line): " + text.en)
    }

    public var description: String { message.en }
}

extension Substring {
    /// Without spaces (ASCII and ideographic) and tabs at either end.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\u{3000}" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}

extension String {
    var trimmingSpaces: String { self[...].trimmingSpaces }
}

extension Array where Element == String {
    /// Appends `term` unless its bytes are already there.
    mutating func appendOnce(_ term: String) {
        let bytes = [UInt8](term.utf8)
        if !contains(where: { [UInt8]($0.utf8) == bytes }) { append(term) }
    }
}

extension SynonymDictionary {
    /// The largest synonyms file read.
    public static let maxFileBytes = 4 << 20

    /// The dictionary `search.synonyms_path` names (empty: the shipped one); a file that cannot be
    /// read or has a problem is a `ConfigError` naming the path and each problem's line, so the shop
    /// does not start with a dictionary other than the one configured.
    public static func configured(path: String) throws -> SynonymDictionary {
        guard !path.isEmpty else { return .shipped }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError(key: "search.synonyms_path", reason: "cannot read \(path)")
        }
        guard data.count <= maxFileBytes, let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(key: "search.synonyms_path", reason: "\(path) is not UTF-8 text of at most \(maxFileBytes) bytes")
        }
        do {
            return try SynonymDictionary(parsing: text)
        } catch .invalid(let problems) {
            throw ConfigError(key: "search.synonyms_path", reason: "\(path): " + problems.map(\.message.en).joined(separator: "; "))
        }
    }
}
