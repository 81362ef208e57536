import SQL

/// Copies the rows of one table, a page at a time: read by key from SQLite, written as one
/// multi-row INSERT each to PostgreSQL. A column that refers to the table itself is inserted
/// NULL and set once every row is in, so a row may point at one copied after it.
struct TableCopy {
    let table: SourceTable
    /// The columns both ends have, in the source's order.
    let columns: [String]
    let batchSize: Int

    /// PostgreSQL's limit on the values one statement binds.
    private static let maxParameters = 65_535

    func run(from lite: any SQLConnection, to pg: any SQLConnection) throws {
        let deferred = table.selfReferences.filter(columns.contains)
        if !deferred.isEmpty, !table.hasPrimaryKey { throw DatabaseCopyError.selfReferenceWithoutKey(table: table.name) }
        let rowsPerPage = max(1, min(batchSize, Self.maxParameters / max(columns.count, 1)))
        let name = SQLIdentifier(table.name)
        let keyList = Self.list(table.key)
        let columnList = Self.list(columns)
        var last: [SQLValue]?
        var references: [[SQLValue]] = []
        while true {
            var page: SQL = "SELECT \(keyList), \(columnList) FROM \(name)"
            if let last { page += " WHERE (\(keyList)) > (\(list: last))" }
            page += " ORDER BY \(keyList) LIMIT \(rowsPerPage)"
            let rows = try lite.query(page)
            guard let final = rows.last else { break }
            let keyCount = table.key.count
            last = (0..<keyCount).map { final[$0] }
            var tuples: [SQL] = []
            tuples.reserveCapacity(rows.count)
            for row in rows {
                var values: [SQLValue] = []
                values.reserveCapacity(columns.count)
                var held: [SQLValue] = []
                for (offset, column) in columns.enumerated() {
                    let value = row[keyCount + offset]
                    if deferred.contains(column) {
                        held.append(value)
                        values.append(.null)
                    } else {
                        values.append(value)
                    }
                }
                if held.contains(where: { $0 != .null }) {
                    references.append((0..<keyCount).map { row[$0] } + held)
                }
                tuples.append("(\(list: values))")
            }
            try pg.run("INSERT INTO \(name) (\(columnList)) VALUES \(tuples.joined(separator: ", "))")
            if rows.count < rowsPerPage { break }
        }
        try restore(references, of: deferred, to: pg)
    }

    /// Sets the self-referencing columns held back, a page of rows per UPDATE, matched by key.
    private func restore(_ references: [[SQLValue]], of deferred: [String], to pg: any SQLConnection) throws {
        guard !references.isEmpty else { return }
        let name = SQLIdentifier(table.name)
        let keyAliases = table.key.indices.map { SQLIdentifier("k\($0)") }
        let valueAliases = deferred.indices.map { SQLIdentifier("v\($0)") }
        let aliases = (keyAliases + valueAliases).map { SQL("\($0)") }.joined(separator: ", ")
        let assignments = zip(deferred, valueAliases).map { SQL("\(SQLIdentifier($0)) = v.\($1)") }.joined(separator: ", ")
        let matches = zip(table.key, keyAliases).map { SQL("\(name).\(SQLIdentifier($0)) = v.\($1)") }.joined(separator: " AND ")
        let perPage = max(1, min(batchSize, Self.maxParameters / (keyAliases.count + valueAliases.count)))
        var start = 0
        while start < references.count {
            let page = references[start..<min(start + perPage, references.count)]
            let tuples = page.map { SQL("(\(list: $0))") }.joined(separator: ", ")
            try pg.run("UPDATE \(name) SET \(assignments) FROM (VALUES \(tuples)) AS v (\(aliases)) WHERE \(matches)")
            start += perPage
        }
    }

    private static func list(_ names: [String]) -> SQL {
        names.map { SQL("\(SQLIdentifier($0))") }.joined(separator: ", ")
    }
}
