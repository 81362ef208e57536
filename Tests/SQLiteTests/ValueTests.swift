import Foundation
import SQL
import SQLite
import Testing

@Suite("Binding and reading values")
struct ValueTests {
    /// Stores `value` in a column without type affinity and reads it back with its SQLite type.
    private func roundTrip<Value: SQLBindable>(_ value: Value) throws -> (value: SQLValue, type: String, row: Row) {
        try withTemporaryPool { pool in
            try pool.write { db in
                try db.execute(script: "CREATE TABLE v (x)")
                try db.run("INSERT INTO v (x) VALUES (\(value))")
            }
            let row = try #require(try pool.read { try $0.queryOne("SELECT x, typeof(x) AS type FROM v") })
            return (row["x"], try row.string("type"), row)
        }
    }

    @Test("Int64 values round-trip exactly", arguments: [Int64.max, Int64.min, 0, -1, 1, 9_007_199_254_740_993])
    func int64RoundTrips(_ value: Int64) throws {
        let result = try roundTrip(value)
        #expect(result.value == .integer(value))
        #expect(result.type == "integer")
        #expect(try result.row.int64("x") == value)
        #expect(try result.row.optionalInt64("x") == value)
    }

    @Test func intAndBoolBindAsIntegers() throws {
        #expect(try roundTrip(Int(42)).value == .integer(42))
        #expect(try roundTrip(Int32(-7)).value == .integer(-7))
        let yes = try roundTrip(true)
        #expect(yes.value == .integer(1))
        #expect(try yes.row.bool("x"))
        #expect(try !roundTrip(false).row.bool("x"))
    }

    @Test("Double values round-trip exactly", arguments: [Double.pi, 0.1, -2.5, 1e300, -Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude])
    func doubleRoundTrips(_ value: Double) throws {
        let result = try roundTrip(value)
        #expect(result.value == .real(value))
        #expect(result.type == "real")
        #expect(try result.row.double("x") == value)
    }

    @Test("Text round-trips through UTF-8", arguments: [
        "红玫瑰花束", "🌹💐 玫瑰 roses", "", "quotes ' \" and \\ backslash", "line\nbreak\ttab",
        "e\u{301}", String(repeating: "花", count: 100_000),
    ])
    func textRoundTrips(_ value: String) throws {
        let result = try roundTrip(value)
        #expect(result.value == .text(value))
        #expect(result.type == "text")
        #expect(try result.row.string("x") == value)
        #expect(try result.row.optionalString("x") == value)
    }

    @Test func substringAndDataBind() throws {
        let text = "玫瑰花束"
        #expect(try roundTrip(text.prefix(2)).value == .text("玫瑰"))
        #expect(try roundTrip(Data([1, 2, 3])).value == .blob([1, 2, 3]))
    }

    @Test("Blobs round-trip byte for byte", arguments: [
        [UInt8]([0]), [0, 1, 2, 127, 128, 254, 255, 0], Array(0...255) + Array(0...255),
        (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) },
    ])
    func blobRoundTrips(_ value: [UInt8]) throws {
        let result = try roundTrip(value)
        #expect(result.value == .blob(value))
        #expect(result.type == "blob")
        #expect(try result.row.blob("x") == value)
    }

    @Test func anEmptyBlobStaysAnEmptyBlobNotNull() throws {
        let result = try roundTrip([UInt8]())
        #expect(result.type == "blob")
        #expect(result.value == .blob([]))
        #expect(try result.row.blob("x") == [])
    }

    @Test func nilOptionalsBindAsNull() throws {
        let none: Int64? = nil
        let result = try roundTrip(none)
        #expect(result.value == .null)
        #expect(result.type == "null")
        #expect(try result.row.optionalInt64("x") == nil)
        #expect(try result.row.optionalString("x") == nil)
        #expect(try roundTrip(String?.none).value == .null)
        #expect(try roundTrip(SQLValue.null).value == .null)
        #expect(try roundTrip(Optional("玫瑰")).value == .text("玫瑰"))
    }

    @Test func severalBindingsLandInOrder() throws {
        try withTemporaryPool { pool in
            let row = try pool.write { db in
                try db.execute(script: "CREATE TABLE t (a INTEGER, b TEXT, c REAL, d BLOB, e TEXT)")
                let name = "玫瑰"
                try db.run("""
                    INSERT INTO t (a, b, c, d, e) VALUES (\(Int64(12_900)), \(name), \(1.5), \([UInt8]([9, 8])), \(String?.none))
                    """)
                let row = try db.queryOne("SELECT * FROM t WHERE a = \(12_900) AND b = \(name)")
                return try #require(row)
            }
            #expect(try row.int64("a") == 12_900)
            #expect(try row.string("b") == "玫瑰")
            #expect(try row.double("c") == 1.5)
            #expect(try row.blob("d") == [9, 8])
            #expect(try row.optionalString("e") == nil)
            #expect(row.has("a") && !row.has("z"))
            #expect(row[0] == .integer(12_900))
            #expect(row["z"] == .null)
        }
    }

    @Test func aMissingColumnThrowsRowDecodingErrorNamingIt() throws {
        let row = try roundTrip(Int64(1)).row
        let error = #expect(throws: RowDecodingError.self) { try row.int64("missing") }
        #expect(error?.column == "missing")
        #expect(throws: RowDecodingError.self) { try row.string("missing") }
        #expect(throws: RowDecodingError.self) { try row.double("missing") }
        #expect(throws: RowDecodingError.self) { try row.blob("missing") }
        #expect(throws: RowDecodingError.self) { try row.optionalInt64("missing") }
        #expect(throws: RowDecodingError.self) { try row.optionalString("missing") }
    }

    @Test func aValueOfTheWrongTypeThrowsRowDecodingError() throws {
        let text = try roundTrip("not a number").row
        let error = #expect(throws: RowDecodingError.self) { try text.int64("x") }
        #expect(error?.column == "x")
        #expect(throws: RowDecodingError.self) { try text.int("x") }
        #expect(throws: RowDecodingError.self) { try text.double("x") }
        #expect(throws: RowDecodingError.self) { try text.optionalInt64("x") }

        let blob = try roundTrip([UInt8]([1, 2])).row
        #expect(throws: RowDecodingError.self) { try blob.string("x") }
        #expect(throws: RowDecodingError.self) { try blob.int64("x") }

        let null = try roundTrip(Int64?.none).row
        #expect(throws: RowDecodingError.self) { try null.int64("x") }
        #expect(throws: RowDecodingError.self) { try null.string("x") }
        #expect(throws: RowDecodingError.self) { try null.blob("x") }

        let fraction = try roundTrip(2.5).row
        #expect(throws: RowDecodingError.self) { try fraction.int64("x") }
        #expect(throws: RowDecodingError.self) { try fraction.string("x") }
        #expect(try roundTrip(3.0).row.int64("x") == 3)
    }
}
