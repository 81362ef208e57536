import Foundation
import SQL
import SQLite
import Testing

/// A typed id as the shop declares them: an integer raw value is all it needs to bind and decode.
private struct FlowerID: RawRepresentable, Hashable, SQLCodable {
    let rawValue: Int64
}

/// A stored enum: an unknown raw value in a row is an error, never a default.
private enum Bloom: String, SQLCodable {
    case bud, open, wilted
}

@Suite("Typed values through the SQL API")
struct TypedValueTests {
    private static let schema = """
        CREATE TABLE flowers (
            id INTEGER PRIMARY KEY,
            bloom TEXT NOT NULL,
            picked_at INTEGER NOT NULL,
            fragrant INTEGER NOT NULL,
            note TEXT
        )
        """

    @Test func idsDatesBoolsEnumsAndNullRoundTrip() throws {
        try withTemporaryPool { pool in
            let picked = Date(timeIntervalSince1970: 1_796_025_600)
            let note: String? = nil
            let (id, row) = try pool.writeSQLite { db -> (FlowerID, Row?) in
                try db.execute(script: Self.schema)
                try db.run("""
                    INSERT INTO flowers (id, bloom, picked_at, fragrant, note)
                    VALUES (\(FlowerID(rawValue: 7)), \(Bloom.open), \(picked), \(true), \(note))
                    """)
                let id = FlowerID(rawValue: db.lastInsertRowID)
                return (id, try db.queryOne("SELECT id, bloom, picked_at, fragrant, note FROM flowers WHERE id = \(id)"))
            }
            let flower = try #require(row)
            #expect(id == FlowerID(rawValue: 7))
            #expect(try flower.decode("id") == id)
            #expect(try flower.decode("bloom") == Bloom.open)
            #expect(try flower.decode("picked_at") == picked)
            #expect(try flower.decode("fragrant") == true)
            #expect(try flower.decode("note", as: String?.self) == nil)
            // Stored as the plain values the schema declares.
            #expect(flower["id"] == .integer(7))
            #expect(flower["bloom"] == .text("open"))
            #expect(flower["picked_at"] == .integer(1_796_025_600))
            #expect(flower["fragrant"] == .integer(1))
            #expect(flower["note"] == .null)
            #expect(try pool.read { try $0.scalar("SELECT bloom FROM flowers WHERE id = \(id)", as: Bloom.self) } == .open)
        }
    }

    @Test func aDateStoresWholeSecondsAndAPresentOptionalStoresItsValue() throws {
        try withTemporaryPool { pool in
            let row = try pool.writeSQLite { db -> Row? in
                try db.execute(script: Self.schema)
                let picked = Date(timeIntervalSince1970: 1_796_025_600.75)
                let note: String? = "玫瑰"
                try db.run("""
                    INSERT INTO flowers (bloom, picked_at, fragrant, note) VALUES (\(Bloom.bud), \(picked), \(false), \(note))
                    """)
                return try db.queryOne("SELECT picked_at, fragrant, note FROM flowers")
            }
            let flower = try #require(row)
            #expect(try flower.decode("picked_at") == Date(timeIntervalSince1970: 1_796_025_600))
            #expect(try flower.decode("fragrant") == false)
            #expect(try flower.decode("note", as: String?.self) == "玫瑰")
        }
    }

    @Test func aCorruptEnumValueThrowsRowDecodingErrorNamingTableAndColumn() throws {
        try withTemporaryPool { pool in
            let row = try pool.writeSQLite { db -> Row? in
                try db.execute(script: Self.schema)
                let corrupt = "blooming"
                try db.run("INSERT INTO flowers (bloom, picked_at, fragrant) VALUES (\(corrupt), \(0), \(2))")
                return try db.queryOne("SELECT bloom, fragrant FROM flowers")
            }
            let flower = try #require(row)
            let error = #expect(throws: RowDecodingError.self) { try flower.decode("bloom", as: Bloom.self) }
            #expect(error?.table == "flowers")
            #expect(error?.column == "bloom")
            #expect(error?.value == .text("blooming"))
            #expect(error?.description.contains("flowers.bloom") == true)
            // A boolean column holding anything but 0 or 1 is corrupt too.
            let notABool = #expect(throws: RowDecodingError.self) { try flower.decode("fragrant", as: Bool.self) }
            #expect(notABool?.table == "flowers")
            #expect(notABool?.column == "fragrant")
        }
    }

    @Test func aTableNameChosenByCodeIsSplicedQuotedAndAClauseKeepsItsValues() throws {
        try withTemporaryPool { pool in
            let count = try pool.writeSQLite { db -> Int64? in
                try db.execute(script: Self.schema)
                for bloom in [Bloom.bud, .open, .open] {
                    try db.run("INSERT INTO flowers (bloom, picked_at, fragrant) VALUES (\(bloom), \(0), \(true))")
                }
                let onlyOpen: SQL = " WHERE bloom = \(Bloom.open)"
                return try db.scalarInt("SELECT COUNT(*) FROM \(SQLIdentifier("flowers"))\(onlyOpen)")
            }
            #expect(count == 2)
        }
    }
}
