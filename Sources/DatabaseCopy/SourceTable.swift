import SQL

/// One table of the SQLite source as the copy needs it: columns, key, the columns that refer
/// to the table itself. `all(in:)` answers them parents first.
struct SourceTable: Sendable, Equatable {
    let name: String
    /// Every column, in declaration order.
    let columns: [String]
    /// The primary key's columns in key order (`rowid` for a table without one): rows are read in
    /// this order, a page at a time.
    let key: [String]
    /// Columns with a foreign key to this same table (`categories.parent_id`).
    let selfReferences: [String]
    /// The other tables its foreign keys point at.
    let parents: Set<String>

    /// Whether `key` is the table's own primary key rather than SQLite's `rowid`.
    var hasPrimaryKey: Bool { key != ["rowid"] }

    /// The ordinary tables of the source (no `sqlite_*`, no `schema_migrations`, no virtual table
    /// or FTS5 shadow table: those are SQLite's search index, rebuilt differently on PostgreSQL),
    /// each after every table it refers to; ties by name.
    static func all(in lite: any SQLConnection) throws -> [SourceTable] {
        let names = try lite.query("""
            SELECT name FROM pragma_table_list
            WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> 'schema_migrations'
            ORDER BY name
            """).map { try $0.string("name") }
        var tables: [String: SourceTable] = [:]
        for name in names {
            tables[name] = try read(name, in: lite)
        }
        return try ordered(tables)
    }

    private static func read(_ name: String, in lite: any SQLConnection) throws -> SourceTable {
        let info = try lite.query("SELECT name, pk FROM pragma_table_info(\(name)) ORDER BY cid")
        let columns = try info.map { try $0.string("name") }
        let key = try info.filter { try $0.int("pk") > 0 }
            .sorted { try $0.int("pk") < $1.int("pk") }
            .map { try $0.string("name") }
        var selfReferences: [String] = []
        var parents: Set<String> = []
        for foreignKey in try lite.query("SELECT \"table\" AS parent, \"from\" AS child FROM pragma_foreign_key_list(\(name))") {
            let parent = try foreignKey.string("parent")
            if parent == name {
                selfReferences.append(try foreignKey.string("child"))
            } else {
                parents.insert(parent)
            }
        }
        return SourceTable(name: name, columns: columns, key: key.isEmpty ? ["rowid"] : key,
                           selfReferences: selfReferences, parents: parents)
    }

    /// Kahn's algorithm: a table comes once all its parents have; a cycle between tables (which
    /// the shop's schema has none of) is an error rather than a guess.
    private static func ordered(_ tables: [String: SourceTable]) throws -> [SourceTable] {
        var placed: Set<String> = []
        var order: [SourceTable] = []
        while order.count < tables.count {
            let ready = tables.values
                .filter { !placed.contains($0.name) && $0.parents.allSatisfy { placed.contains($0) || tables[$0] == nil } }
                .sorted { $0.name < $1.name }
            guard let next = ready.first else {
                let left = tables.keys.filter { !placed.contains($0) }.sorted()
                throw DatabaseCopyError.foreignKeyCycle(tables: left)
            }
            placed.insert(next.name)
            order.append(next)
        }
        return order
    }
}
