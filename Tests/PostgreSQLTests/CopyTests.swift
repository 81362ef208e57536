import Foundation
import PostgreSQL
import SQL
import Testing

@Suite("PostgreSQL COPY", .enabled(if: hasTestDatabase, "set SHOP_TEST_POSTGRES_URL (make postgres)"), .serialized)
struct CopyTests {
    /// Text that COPY's text format must escape or that a careless encoder would mangle.
    private static let awkwardTexts = [
        "tab\there", "line\nfeed", "carriage\rreturn", "crlf\r\n", "back\\slash", "\\N", "\\.", "\\", "trailing\\",
        "'single' \"double\" quotes", ",comma;semicolon|pipe", "玫瑰花束 🌹 送给妈妈", "é and e\u{301}", "", " ", "\\t literal",
        "\\x41", "100%_like",
    ]

    @Test("text with tabs, newlines, backslashes, quotes, Chinese and NULLs comes back byte for byte")
    func awkwardValuesRoundTripExactly() throws {
        try withSchema { url in
            let db = try Connection(url: url)
            try db.execute(script: "CREATE TABLE c (id int8 PRIMARY KEY, t text, i int8, r float8, b bytea)")
            var rows: [[SQLValue]] = []
            for (index, text) in Self.awkwardTexts.enumerated() {
                rows.append([.integer(Int64(index)), .text(text), .integer(Int64(index) - 5), .real(Double(index) / 3), .blob(Array(text.utf8))])
            }
            rows.append([.integer(1_000), .null, .null, .null, .null])
            rows.append([.integer(1_001), .text("min and max"), .integer(Int64.min), .real(-1e300), .blob((0...255).map { UInt8($0) })])
            rows.append([.integer(1_002), .text("max"), .integer(Int64.max), .real(0.1), .blob([])])
            let loaded = try db.copy(into: "c", columns: ["id", "t", "i", "r", "b"], rows: rows)
            #expect(loaded == rows.count)
            let stored = try db.query("SELECT id, t, i, r, b FROM c ORDER BY id")
            #expect(stored.count == rows.count)
            for (row, expected) in zip(stored, rows) {
                #expect(row["id"] == expected[0])
                #expect(row["t"] == expected[1])
                if case .text(let text) = row["t"], case .text(let sent) = expected[1] {
                    #expect(Array(text.utf8) == Array(sent.utf8))
                }
                #expect(row["i"] == expected[2])
                #expect(row["r"] == expected[3])
                #expect(row["b"] == expected[4])
            }
        }
    }

    @Test("a copy of many rows, past one send buffer, loads every row in order")
    func manyRowsLoad() throws {
        try withSchema { url in
            let db = try Connection(url: url)
            try db.execute(script: "CREATE TABLE c (id int8 PRIMARY KEY, t text)")
            let rows: [[SQLValue]] = (0..<20_000).map { [.integer(Int64($0)), .text("第\($0)行\t\\\n" + String(repeating: "花", count: $0 % 50))] }
            #expect(try db.copy(into: "c", columns: ["id", "t"], rows: rows) == rows.count)
            #expect(try db.scalarInt("SELECT COUNT(*) FROM c") == 20_000)
            let last = try #require(try db.queryOne("SELECT t FROM c WHERE id = 19999"))
            #expect(last["t"] == rows[19_999][1])
        }
    }

    @Test("a value the column refuses fails the whole copy, loads nothing, and leaves the connection usable")
    func aRefusedValueLoadsNothing() throws {
        try withSchema { url in
            let db = try Connection(url: url)
            try db.execute(script: "CREATE TABLE c (id int8 PRIMARY KEY, n int8 NOT NULL CHECK (n >= 0))")
            let rows: [[SQLValue]] = [[.integer(1), .integer(1)], [.integer(2), .integer(-1)], [.integer(3), .integer(3)]]
            #expect(throws: PostgreSQLError.self) { try db.copy(into: "c", columns: ["id", "n"], rows: rows) }
            #expect(try db.scalarInt("SELECT COUNT(*) FROM c") == 0)
            let text: [[SQLValue]] = [[.integer(4), .text("not a number")]]
            #expect(throws: PostgreSQLError.self) { try db.copy(into: "c", columns: ["id", "n"], rows: text) }
            #expect(throws: PostgreSQLError.self) { try db.copy(into: "missing", columns: ["id"], rows: [[.integer(1)]]) }
            #expect(try db.copy(into: "c", columns: ["id", "n"], rows: [[.integer(5), .integer(5)]]) == 1)
            #expect(try db.scalarInt("SELECT COUNT(*) FROM c") == 1)
        }
    }

    @Test("a copy inside a transaction is rolled back with it")
    func aCopyIsPartOfItsTransaction() throws {
        try withPool { pool in
            try pool.write { db in try db.execute(script: "CREATE TABLE c (id int8 PRIMARY KEY)") }
            struct Abort: Error {}
            #expect(throws: Abort.self) {
                try pool.write { db in
                    let copying = try #require(db as? any SQLBulkCopying)
                    try copying.copy(into: "c", columns: ["id"], rows: [[.integer(1)], [.integer(2)]])
                    throw Abort()
                }
            }
            #expect(try pool.read { try $0.scalarInt("SELECT COUNT(*) FROM c") } == 0)
        }
    }
}
