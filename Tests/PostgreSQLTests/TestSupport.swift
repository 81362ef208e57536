import Foundation
import ThreadTestSupport
import PostgreSQL
import SQL

/// The cluster the PostgreSQL suites run against (`make postgres` prints it); they are skipped
/// when it is not set.
let testURL = ProcessInfo.processInfo.environment["SHOP_TEST_POSTGRES_URL"]
let hasTestDatabase = testURL != nil

/// A fresh schema in the test database, dropped when `body` returns; `body` gets a URL whose
/// connections all use it as their search path, so tests never see each other's tables.
@discardableResult
func withSchema<T>(_ body: (_ url: String) throws -> T) throws -> T {
    guard let base = testURL else { throw SkippedWithoutDatabase() }
    let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
    let admin = try Connection(url: base)
    try admin.execute(script: "CREATE SCHEMA \(schema)")
    defer { try? admin.execute(script: "DROP SCHEMA \(schema) CASCADE") }
    let url: String
    if base.hasPrefix("postgres://") || base.hasPrefix("postgresql://") {
        url = base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
    } else {
        url = base + " options='-csearch_path=\(schema)'"
    }
    return try body(url)
}

/// A pool of `size` over a fresh schema (see `withSchema`).
@discardableResult
func withPool<T>(size: Int = 4, _ body: (Pool) throws -> T) throws -> T {
    try withSchema { url in try body(try Pool(url: url, size: size)) }
}

struct SkippedWithoutDatabase: Error {}

