import SQL

/// A search's query and the engine that finds its matches. A product matches when one of its
/// folded fields contains the folded query; its field is the first that does (title, subtitle,
/// description). Two ways to find them, giving the same set: the engine's index (`source`), or
/// the text itself (`contains`, `predicate`), for a walk down the best sellers that stops at the page.
public struct SearchMatch {
    /// A product's searched fields, best first.
    public enum Field: Int, CaseIterable, Sendable {
        case title, subtitle, description

        public var column: String {
            switch self {
            case .title: "title"
            case .subtitle: "subtitle"
            case .description: "description"
            }
        }

        /// The fields ranked above this one.
        public var better: [Field] { Field.allCases.filter { $0.rawValue < rawValue } }
    }

    /// Which matches: those whose first matching field is `field`, or any.
    public enum Scope: Equatable, Sendable {
        case field(Field)
        case any
    }

    /// The folded query.
    public let text: String
    let engine: any SearchEngine

    init(text: String, engine: any SearchEngine) {
        self.text = text
        self.engine = engine
    }

    /// See `SearchEngine.source(of:in:)`.
    func source(_ scope: Scope) -> (from: SQL, condition: SQL) {
        engine.source(of: self, in: scope)
    }

    /// Whether the product is in `scope`, read from its text (no index): `alias` names the row
    /// the engine's `contains` reads.
    public func predicate(_ scope: Scope, alias: String) -> SQL {
        switch scope {
        case .field(let field):
            ([engine.contains(self, field, in: alias)] + field.better.map { "NOT \(engine.contains(self, $0, in: alias))" })
                .joined(separator: " AND ")
        case .any:
            "(" + Field.allCases.map { engine.contains(self, $0, in: alias) }.joined(separator: " OR ") + ")"
        }
    }

    /// Matches per field (in `Field` order) among all on-sale products, from the index alone.
    func countsByField(_ db: any SQLConnection) throws -> [Int] {
        try engine.countsByField(self, db)
    }
}
