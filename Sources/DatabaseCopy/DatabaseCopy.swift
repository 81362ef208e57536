import SQL

/// Copies every table of a fully migrated SQLite shop into an empty PostgreSQL one (`shop db
/// copy`): ids, hashes and counters as they are, sequences moved past the copied ids, row counts
/// checked, all in one PostgreSQL transaction, so a copy that fails leaves the target as it was.
///
/// The source is read in one snapshot: a shop still writing to it during the copy loses what it
/// writes after the copy began, so stop it first.
public struct DatabaseCopy: Sendable {
    /// Tables the PostgreSQL migrations fill themselves (fixed rows): the copy replaces their
    /// rows instead of calling the target non-empty.
    public static let seededByMigrations: Set<String> = ["catalog_version", "catalog_changes"]

    public let source: any Database
    public let target: any Database
    /// The target's migrations, applied first so a fresh database will do.
    public let targetMigrator: Migrator
    /// Rows per INSERT (fewer for wide tables: PostgreSQL binds at most 65535 values a statement).
    public var batchSize = 500

    public init(from source: any Database, to target: any Database, targetMigrator: Migrator) {
        self.source = source
        self.target = target
        self.targetMigrator = targetMigrator
    }

    /// Migrates the target, checks both ends, copies, and answers the rows of each table copied.
    @discardableResult
    public func run() throws -> [CopiedTable] {
        guard source.dialect == .sqlite else { throw DatabaseCopyError.sourceNotSQLite }
        guard target.dialect == .postgresql else { throw DatabaseCopyError.targetNotPostgreSQL }
        let sourceVersions = try source.read { try Self.appliedVersions($0) }
        let known = targetMigrator.migrations.map(\.version)
        guard sourceVersions == known else {
            throw DatabaseCopyError.migrationsDiffer(source: sourceVersions, target: known)
        }
        // Checked before migrating as well as inside the copy, so a non-empty target is refused
        // before anything is written to it.
        try target.read { try Self.refuseRows(in: $0) }
        try targetMigrator.migrate(target)
        return try target.write { pg in
            try source.read { lite in try copy(from: lite, to: pg, sourceVersions: sourceVersions) }
        }
    }

    private func copy(from lite: any SQLConnection, to pg: any SQLConnection, sourceVersions: [Int]) throws -> [CopiedTable] {
        let targetVersions = try Self.appliedVersions(pg)
        guard targetVersions == sourceVersions else {
            throw DatabaseCopyError.migrationsDiffer(source: sourceVersions, target: targetVersions)
        }
        try Self.refuseRows(in: pg)
        let tables = try SourceTable.all(in: lite)
        for table in tables {
            try pg.run("ALTER TABLE \(SQLIdentifier(table.name)) DISABLE TRIGGER USER")
        }
        var copied: [CopiedTable] = []
        for table in tables {
            let targetColumns = try Self.columns(of: table.name, in: pg)
            guard !targetColumns.isEmpty else { throw DatabaseCopyError.tableMissing(table.name) }
            let columns = table.columns.filter(targetColumns.contains)
            if Self.seededByMigrations.contains(table.name) {
                try pg.run("DELETE FROM \(SQLIdentifier(table.name))")
            }
            let expected = try lite.scalarInt("SELECT COUNT(*) FROM \(SQLIdentifier(table.name))") ?? 0
            try TableCopy(table: table, columns: columns, batchSize: batchSize).run(from: lite, to: pg)
            let found = try pg.scalarInt("SELECT COUNT(*) FROM \(SQLIdentifier(table.name))") ?? 0
            guard found == expected else {
                throw DatabaseCopyError.countMismatch(table: table.name, source: Int(expected), target: Int(found))
            }
            copied.append(CopiedTable(name: table.name, rows: Int(found)))
        }
        // Last, once every count matched: setval is not undone by a rollback.
        for table in tables {
            try pg.run("ALTER TABLE \(SQLIdentifier(table.name)) ENABLE TRIGGER USER")
            try Self.resetSequences(of: table.name, in: pg)
        }
        return copied
    }

    /// The versions in `schema_migrations`, ascending; none when the table is missing.
    static func appliedVersions(_ db: any SQLConnection) throws -> [Int] {
        let exists: SQL = switch db.dialect {
        case .sqlite: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
        case .postgresql:
            "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = 'schema_migrations'"
        }
        guard try db.scalarInt(exists) == 1 else { return [] }
        return try db.query("SELECT version FROM schema_migrations ORDER BY version").map { try $0.int("version") }
    }

    /// Throws `targetNotEmpty` naming every table of the target's schema that has rows
    /// (`schema_migrations` and the tables the migrations seed aside).
    static func refuseRows(in pg: any SQLConnection) throws {
        let tables = try pg.query("""
            SELECT table_name FROM information_schema.tables
            WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name
            """).map { try $0.string("table_name") }
        var filled: [String] = []
        for table in tables where table != "schema_migrations" && !seededByMigrations.contains(table) {
            if try pg.queryOne("SELECT 1 FROM \(SQLIdentifier(table)) LIMIT 1") != nil { filled.append(table) }
        }
        guard filled.isEmpty else { throw DatabaseCopyError.targetNotEmpty(tables: filled) }
    }

    /// The columns of a table of the target's schema (empty when there is no such table).
    static func columns(of table: String, in pg: any SQLConnection) throws -> Set<String> {
        Set(try pg.query("""
            SELECT column_name FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = \(table)
            """).map { try $0.string("column_name") })
    }

    /// Moves each identity (or serial) column's sequence to the largest copied value, so the
    /// next row inserted gets the id after it.
    static func resetSequences(of table: String, in pg: any SQLConnection) throws {
        let generated = try pg.query("""
            SELECT column_name FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = \(table)
              AND (is_identity = 'YES' OR column_default LIKE 'nextval(%')
            """).map { try $0.string("column_name") }
        for column in generated {
            guard let largest = try pg.scalarInt("SELECT MAX(\(SQLIdentifier(column))) FROM \(SQLIdentifier(table))") else { continue }
            let quotedTable = "\"\(table)\""
            _ = try pg.query("SELECT setval(pg_get_serial_sequence(\(quotedTable), \(column)), \(largest))")
        }
    }
}

/// One table copied and the rows it now has in the target.
public struct CopiedTable: Sendable, Equatable {
    public let name: String
    public let rows: Int

    public init(name: String, rows: Int) {
        self.name = name
        self.rows = rows
    }
}

/// Why a copy was refused or undone.
public enum DatabaseCopyError: Error, Equatable, CustomStringConvertible {
    case sourceNotSQLite
    case targetNotPostgreSQL
    case migrationsDiffer(source: [Int], target: [Int])
    case targetNotEmpty(tables: [String])
    case tableMissing(String)
    case countMismatch(table: String, source: Int, target: Int)
    case selfReferenceWithoutKey(table: String)
    case foreignKeyCycle(tables: [String])

    public var description: String {
        switch self {
        case .sourceNotSQLite: return "the source must be a SQLite database"
        case .targetNotPostgreSQL: return "the target must be a PostgreSQL database"
        case .migrationsDiffer(let source, let target):
            return "the source has migrations \(Self.versions(source)) but the target has \(Self.versions(target)): "
                + "run `shop migrate` on the source with this shop binary first"
        case .targetNotEmpty(let tables):
            return "the target database is not empty (rows in \(tables.joined(separator: ", "))): nothing was copied"
        case .tableMissing(let table): return "the target has no table \(table): it does not match the source's migrations"
        case .countMismatch(let table, let source, let target):
            return "\(table): \(source) rows in the source but \(target) in the target; the copy was rolled back"
        case .selfReferenceWithoutKey(let table):
            return "\(table) refers to itself but has no primary key to restore the references by"
        case .foreignKeyCycle(let tables):
            return "the foreign keys of \(tables.joined(separator: ", ")) form a cycle: no order copies them parents first"
        }
    }

    private static func versions(_ list: [Int]) -> String {
        guard let first = list.first, let last = list.last else { return "none" }
        return list == Array(first...last) ? (first == last ? "\(first)" : "\(first)–\(last)") : list.map(String.init).joined(separator: ", ")
    }
}
