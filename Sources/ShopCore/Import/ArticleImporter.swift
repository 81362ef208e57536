import Foundation
import SQL

/// `shop import articles`: JSON lines of `author_phone, title, summary, cover_url, content, category,
/// published_at`, validated first and upserted by (author, title) in one transaction, reported
/// like the catalogue import.
public struct ArticleImporter: Sendable {
    public struct Counts: Sendable, Equatable {
        public var created = 0
        public var updated = 0
        public var unchanged = 0
        public var invalid = 0
    }

    public struct Outcome: Sendable {
        public let counts: Counts
        public let issues: [ImportIssue]
    }

    struct ArticleRow {
        let line: Int
        let phone: String
        let draft: ArticleDraft
        let category: String
        let publishedAt: Int64
    }

    static let keys: Set<String> = ["author_phone", "title", "summary", "cover_url", "content", "category", "published_at"]

    let pool: any Database
    let clock: Clock
    let maxBytes: Int
    private let articles = ArticleStore()

    public init(pool: any Database, clock: Clock, maxBytes: Int) {
        self.pool = pool
        self.clock = clock
        self.maxBytes = maxBytes
    }

    public func importFile(at path: String, options: CatalogImporter.Options) throws -> Outcome {
        guard path.lowercased().hasSuffix(".jsonl") || path.lowercased().hasSuffix(".ndjson") else {
            throw ImportError.unsupportedFormat(path)
        }
        return try importData(try ImportFile.read(path, maxBytes: maxBytes), options: options)
    }

    func importData(_ bytes: [UInt8], options: CatalogImporter.Options) throws -> Outcome {
        guard String(validating: bytes, as: UTF8.self) != nil else { throw ImportError.unreadable("the file is not valid UTF-8 text") }
        var issues: [ImportIssue] = []
        var rows: [ArticleRow] = []
        for (offset, lineBytes) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let text = String(decoding: lineBytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if text.isEmpty { continue }
            switch Self.parse(text, line: offset + 1) {
            case .success(let row): rows.append(row)
            case .failure(let rowIssues): issues += rowIssues.issues
            }
        }
        let now = clock.unixNow
        var invalidLines = Set(issues.map(\.line))
        do {
            let counts = try pool.write { db -> Counts in
                var counts = Counts()
                var seen: [String: Int] = [:]
                for row in rows {
                    guard let author = try ProfileStore().authorID(phone: row.phone, db) else {
                        issues.append(ImportIssue(line: row.line, column: "author_phone", reason: "no column author has this phone"))
                        invalidLines.insert(row.line)
                        continue
                    }
                    let key = "\(author)/\(row.draft.title ?? "")"
                    if let first = seen[key] {
                        issues.append(ImportIssue(line: row.line, column: "title", reason: "this author's title already appears on line \(first)"))
                        invalidLines.insert(row.line)
                        continue
                    }
                    seen[key] = row.line
                    var draft = row.draft
                    let existing = try articles.find(author: author, title: draft.title ?? "", db)
                    if options.keepExisting && existing != nil {
                        counts.unchanged += 1
                        continue
                    }
                    draft.categoryID = try articles.ensureCategory(row.category, db)
                    if let existing {
                        if existing.summary == draft.summary && existing.coverURL == draft.coverURL && existing.content == draft.content
                            && existing.categoryID == draft.categoryID && existing.publishedAt == row.publishedAt {
                            counts.unchanged += 1
                        } else {
                            try articles.update(existing.id, draft, publishedAt: row.publishedAt, at: now, db)
                            counts.updated += 1
                        }
                    } else {
                        _ = try articles.insert(author: author, draft, publishedAt: row.publishedAt, at: now, db)
                        counts.created += 1
                    }
                }
                issues.sort { ($0.line, $0.column) < ($1.line, $1.column) }
                if !issues.isEmpty && !options.skipInvalid { throw ImportError.invalidRows(issues) }
                counts.invalid = invalidLines.count
                if options.dryRun { throw DryRun(counts: counts) }
                return counts
            }
            return Outcome(counts: counts, issues: issues)
        } catch let dryRun as DryRun {
            return Outcome(counts: dryRun.counts, issues: issues)
        }
    }

    private struct DryRun: Error { let counts: Counts }

    static func parse(_ text: String, line: Int) -> Result<ArticleRow, RowIssues> {
        guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else {
            return .failure(RowIssues(issues: [ImportIssue(line: line, column: "line", reason: "is not a JSON object")]))
        }
        var issues: [ImportIssue] = []
        var values: [String: String] = [:]
        for (key, value) in object.sorted(by: { $0.key < $1.key }) {
            guard keys.contains(key) else {
                issues.append(ImportIssue(line: line, column: key, reason: "unknown key"))
                continue
            }
            guard case .string(let string) = value else {
                issues.append(ImportIssue(line: line, column: key, reason: "must be a string"))
                continue
            }
            values[key] = string
        }
        func check(_ column: String, _ body: () throws -> Void) {
            do { try body() } catch let error as ValidationError {
                // under the key the rule names (the draft's check covers title, content, summary, cover_url)
                issues.append(ImportIssue(line: line, column: error.field, reason: error.message.en))
            } catch {
                issues.append(ImportIssue(line: line, column: column, reason: "is invalid"))
            }
        }
        var phone = ""
        check("author_phone") { phone = try PhoneNumber.normalize(values["author_phone"] ?? "", field: "author_phone") }
        let draft = ArticleDraft(title: values["title"], summary: values["summary"] ?? "", coverURL: values["cover_url"] ?? "",
                                 content: values["content"])
        var validated = draft
        check("title") { validated = try ArticleService.validated(draft, creating: true) }
        let category = (values["category"] ?? "").trimmingCharacters(in: .whitespaces)
        check("category") { try Validate.length(category, 1...30, field: "category") }
        var published: Int64 = 0
        if let text = values["published_at"], let date = try? Date(text, strategy: .iso8601) {
            published = Int64(date.timeIntervalSince1970)
        } else {
            issues.append(ImportIssue(line: line, column: "published_at", reason: "must be an RFC 3339 time like 2026-11-30T08:00:00Z"))
        }
        guard issues.isEmpty else { return .failure(RowIssues(issues: issues)) }
        return .success(ArticleRow(line: line, phone: phone, draft: validated, category: category, publishedAt: published))
    }
}

extension ProfileStore {
    /// The id of the column author with this phone.
    func authorID(phone: String, _ db: any SQLConnection) throws -> UserID? {
        try db.scalar("SELECT id FROM users WHERE phone = \(phone) AND is_author = 1", as: UserID.self)
    }
}
