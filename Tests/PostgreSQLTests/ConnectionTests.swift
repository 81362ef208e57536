import Foundation
import PostgreSQL
import SQL
import Testing

@Suite("PostgreSQL connection", .enabled(if: hasTestDatabase, "set SHOP_TEST_POSTGRES_URL (make postgres)"), .serialized)
struct ConnectionTests {
    private static let everyByte = (0...255).map { UInt8($0) }
    private static let unicode = "玫瑰 🌹 Ünïcødé 'quoted' \"double\" $1 ? \\ back"

    @Test func everyKindOfValueComesBackAsItWasStored() throws {
        try withSchema { url in
            let db = try Connection(url: url)
            try db.execute(script: "CREATE TABLE v (id int8 PRIMARY KEY, i int8, r float8, t text, b bytea)")
            let rows: [(Int64, SQLValue, SQLValue, SQLValue, SQLValue)] = [
                (1, .integer(Int64.max), .real(0.1), .text(Self.unicode), .blob(Self.everyByte)),
                (2, .integer(Int64.min), .real(-1e300), .text(""), .blob([])),
                (3, .null, .null, .null, .null),
                (4, .integer(0), .real(12345.678), .text("plain"), .blob([0, 0, 0])),
            ]
            for (id, i, r, t, b) in rows {
                try db.run("INSERT INTO v (id, i, r, t, b) VALUES (\(id), \(i), \(r), \(t), \(b))")
            }
            let stored = try db.query("SELECT i, r, t, b FROM v ORDER BY id")
            #expect(stored.count == rows.count)
            for (row, expected) in zip(stored, rows) {
                #expect(row["i"] == expected.1)
                #expect(row["r"] == expected.2)
                #expect(row["t"] == expected.3)
                #expect(row["b"] == expected.4)
            }
        }
    }

    @Test func parametersSelectedDirectlyKeepTheirKind() throws {
        try withSchema { url in
            let db = try Connection(url: url)
            let values: [SQLValue] = [.integer(Int64.max), .integer(-42), .real(2.5), .real(-.infinity), .real(1e-300), .text(Self.unicode),
                                      .blob(Self.everyByte), .null]
            for value in values {
                let row = try #require(try db.queryOne("SELECT \(value) AS v"))
                #expect(row["v"] == value)
            }
        }
    }

    @Test func resultsAreDecodedByTheirColumnType() throws {
        try withSchema { url in
            let db = try Connection(url: url)
            let row = try #require(try db.queryOne("""
                SELECT 7::int2 AS small, 70000::int4 AS medium, 1.5::float4 AS single,
                       SUM(x) AS total, 12.00::numeric AS whole, 12.5::numeric AS fraction,
                       true AS yes, false AS no, 'x'::varchar AS label, '2024-01-02'::date AS day
                FROM (VALUES (1::int4), (2::int4)) AS t(x)
                """))
            #expect(row["small"] == .integer(7))
            #expect(row["medium"] == .integer(70000))
            #expect(row["single"] == .real(1.5))
            #expect(row["total"] == .integer(3))
            #expect(row["whole"] == .integer(12))
            #expect(row["fraction"] == .real(12.5))
            #expect(try row.bool("yes") == true)
            #expect(try row.bool("no") == false)
            #expect(row["label"] == .text("x"))
            #expect(row["day"] == .text("2024-01-02"))
        }
    }

    @Test func composedStatementsNumberTheirParametersInOrder() throws {
        try withSchema { url in
            let db = try Connection(url: url)
            try db.execute(script: "CREATE TABLE f (id int8, name text, price int8)")
            for (id, name, price) in [(1, "rose", 500), (2, "tulip", 300), (3, "lily", 800), (4, "iris", 200)] {
                try db.run("INSERT INTO f VALUES (\(id), \(name), \(price))")
            }
            let cheapest = 250
            var query: SQL = "SELECT name FROM f WHERE price > \(cheapest)"
            let names = ["rose", "lily", "iris"]
            query += " AND name IN (\(list: names))"
            let below: SQL = " AND price < \(900)"
            query += below + " ORDER BY price"
            #expect(query.render { "$\($0)" }.text
                == "SELECT name FROM f WHERE price > $1 AND name IN ($2, $3, $4) AND price < $5 ORDER BY price")
            #expect(try db.query(query).map { try $0.string("name") } == ["rose", "lily"])
        }
    }

    @Test func runAnswersTheNumberOfRowsChanged() throws {
        try withSchema { url in
            let db = try Connection(url: url)
            try db.execute(script: "CREATE TABLE c (n int8); INSERT INTO c SELECT generate_series(1, 10)")
            #expect(try db.run("UPDATE c SET n = n + 1 WHERE n > \(5)") == 5)
            #expect(try db.run("DELETE FROM c WHERE n < \(0)") == 0)
            #expect(try db.scalarInt("SELECT count(*) FROM c") == 10)
        }
    }

    @Test func aTakenUniqueKeyIsAUniqueViolationNamingTheConstraintButNotTheValue() throws {
        try withSchema { url in
            let db = try Connection(url: url)
            try db.execute(script: "CREATE TABLE u (email text CONSTRAINT u_email UNIQUE)")
            let email = "secret@example.com"
            try db.run("INSERT INTO u VALUES (\(email))")
            let error = #expect(throws: PostgreSQLError.self) { try db.run("INSERT INTO u VALUES (\(email))") }
            #expect(error?.kind == .uniqueViolation)
            #expect(error?.isUniqueViolation == true)
            #expect(error?.sqlstate == "23505")
            #expect(error?.constraint == "u_email")
            #expect(error?.sql == "INSERT INTO u VALUES ($1)")
            #expect(error.map { !$0.description.contains(email) } == true)
        }
    }

    @Test func constraintsAreClassifiedBySQLSTATE() throws {
        try withSchema { url in
            let db = try Connection(url: url)
            try db.execute(script: """
                CREATE TABLE parent (id int8 PRIMARY KEY);
                CREATE TABLE child (id int8 PRIMARY KEY, parent_id int8 REFERENCES parent (id),
                                    stock int8 NOT NULL CHECK (stock >= 0));
                """)
            let check = #expect(throws: PostgreSQLError.self) { try db.run("INSERT INTO child VALUES (1, NULL, \(-1))") }
            #expect(check?.kind == .checkViolation)
            #expect(check?.isCheckViolation == true)
            let foreignKey = #expect(throws: PostgreSQLError.self) { try db.run("INSERT INTO child VALUES (1, \(9), 1)") }
            #expect(foreignKey?.kind == .foreignKeyViolation)
            let notNull = #expect(throws: PostgreSQLError.self) { try db.run("INSERT INTO child VALUES (1, NULL, NULL)") }
            #expect(notNull?.kind == .notNullViolation)
            let syntax = #expect(throws: PostgreSQLError.self) { try db.run("SELEC 1") }
            #expect(syntax?.kind == .other)
            #expect(syntax?.sqlstate == "42601")
        }
    }

    @Test func aScriptRunsEveryStatementAndStopsAtTheFirstError() throws {
        try withSchema { url in
            let db = try Connection(url: url)
            try db.execute(script: """
                CREATE TABLE s (n int8);
                INSERT INTO s VALUES (1);
                INSERT INTO s VALUES (2);
                """)
            #expect(try db.scalarInt("SELECT sum(n) FROM s") == 3)
            #expect(throws: PostgreSQLError.self) {
                try db.execute(script: "INSERT INTO s VALUES (3); SELECT nonsense; INSERT INTO s VALUES (4);")
            }
            #expect(try db.scalarInt("SELECT count(*) FROM s") == 2)
        }
    }

    @Test func pgTrgmCanBeCreated() throws {
        try withSchema { url in
            let db = try Connection(url: url)
            try db.execute(script: "CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public")
            #expect(try db.scalar("SELECT public.similarity('rose', 'roses') > 0.5", as: Bool.self) == true)
        }
    }

    @Test func aServerThatIsNotThereIsAConnectionError() {
        let error = #expect(throws: PostgreSQLError.self) {
            _ = try Connection(url: "postgresql://nobody@127.0.0.1:1/none?connect_timeout=2")
        }
        #expect(error?.kind == .connectionLost)
        #expect(error?.sqlstate == nil)
    }
}

@Suite("PostgreSQL prepared statements", .enabled(if: hasTestDatabase, "set SHOP_TEST_POSTGRES_URL (make postgres)"))
struct PreparedStatementTests {
    @Test func aStatementIsPreparedOnceAndRunWithEachCallsValues() throws {
        try withSchema { url in
            let db = try Connection(url: url)
            try db.execute(script: "CREATE TABLE p (n int8, t text)")
            for n in 1...5 { try db.run("INSERT INTO p (n, t) VALUES (\(Int64(n)), \("row \(n)"))") }
            #expect(db.preparedStatementCount == 1)
            #expect(try db.scalarInt("SELECT sum(n) FROM p WHERE n > \(Int64(2))") == 12)
            #expect(try db.scalarInt("SELECT sum(n) FROM p WHERE n > \(Int64(3))") == 9)
            #expect(db.preparedStatementCount == 2)
            let onServer = try db.scalarInt("SELECT count(*) FROM pg_prepared_statements")
            #expect(onServer == 3)  // the two, and this count itself
        }
    }

    @Test func aNullAndANumberForOneTextArePreparedApart() throws {
        try withSchema { url in
            let db = try Connection(url: url)
            try db.execute(script: "CREATE TABLE p (n int8)")
            let none: Int64? = nil
            try db.run("INSERT INTO p (n) VALUES (\(none))")
            try db.run("INSERT INTO p (n) VALUES (\(Int64(4)))")
            #expect(try db.scalarInt("SELECT count(*) FROM p WHERE n IS NULL") == 1)
            #expect(try db.scalarInt("SELECT sum(n) FROM p") == 4)
        }
    }

    @Test func aStatementThatFailsInATransactionLeavesTheCacheUsable() throws {
        try withSchema { url in
            let db = try Connection(url: url)
            try db.execute(script: "CREATE TABLE p (n int8 UNIQUE)")
            try db.run("INSERT INTO p (n) VALUES (\(Int64(1)))")
            #expect(throws: PostgreSQLError.self) {
                try db.transaction { db in try db.run("INSERT INTO p (n) VALUES (\(Int64(1)))") }
            }
            _ = try db.transaction { db in try db.run("INSERT INTO p (n) VALUES (\(Int64(2)))") }
            #expect(try db.scalarInt("SELECT count(*) FROM p") == 2)
        }
    }

    @Test func aResetConnectionPreparesAgain() throws {
        try withSchema { url in
            let db = try Connection(url: url)
            #expect(try db.scalarInt("SELECT \(Int64(1)) + 1") == 2)
            #expect(db.preparedStatementCount == 1)
            #expect(db.reset())
            #expect(db.preparedStatementCount == 0)
            #expect(try db.scalarInt("SELECT \(Int64(1)) + 1") == 2)
        }
    }

    /// A prepared statement's column names are read from its first result with rows and kept for
    /// its later ones: each statement's rows keep their own names, however the calls interleave,
    /// and whether they come alone, in a pipeline or with the commit.
    @Test func eachStatementsRowsKeepTheirOwnColumnNamesCallAfterCall() throws {
        try withSchema { url in
            let db = try Connection(url: url)
            try db.execute(script: "CREATE TABLE p (n int8, t text); INSERT INTO p VALUES (1, 'one'), (2, 'two')")
            func ab(_ n: Int64) -> SQL { "SELECT n AS a, t AS b FROM p WHERE n = \(n)" }
            func cd(_ n: Int64) -> SQL { "SELECT n AS c, t AS d FROM p WHERE n = \(n)" }
            #expect(try db.query(ab(3)).isEmpty)
            for n: Int64 in [1, 2, 1] {
                let one = try #require(try db.queryOne(ab(n)))
                #expect(try one.decode("a", as: Int64.self) == n && !one.has("c"))
                let other = try #require(try db.query(cd(n)).first)
                #expect(try other.decode("c", as: Int64.self) == n && other.decode("d", as: String.self) == (n == 1 ? "one" : "two"))
                #expect(!other.has("a") && !other.has("b"))
            }
            let (piped, ending) = try db.transaction { db in
                let piped = try db.queries([cd(2), ab(2)])
                return (piped, try db.queryEnding(ab(1)))
            }
            #expect(try piped[0].first?.decode("d", as: String.self) == "two" && piped[1].first?.decode("b", as: String.self) == "two")
            #expect(try ending.first?.decode("b", as: String.self) == "one" && ending.first?.has("d") == false)
            #expect(db.preparedStatementCount == 2)
        }
    }

    @Test func oneOffTextsCannotGrowTheCacheWithoutBound() throws {
        try withSchema { url in
            let db = try Connection(url: url)
            for n in 0..<(Connection.maxPreparedStatements + 10) {
                _ = try db.scalarInt(SQL(stringLiteral: "SELECT \(n)"))
            }
            #expect(db.preparedStatementCount <= Connection.maxPreparedStatements)
            #expect(try db.scalarInt("SELECT count(*) FROM pg_prepared_statements") ?? 0 <= Int64(Connection.maxPreparedStatements) + 1)
        }
    }
}
