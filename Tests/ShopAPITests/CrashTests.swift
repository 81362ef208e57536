import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTP
import SQL
import SQLite
@testable import ShopAPI
import ShopTestSupport
import Testing

/// The crash test of the orders issue: the real `shop serve` takes buy-now orders from several
/// threads and is killed with SIGKILL mid-way, three times over one database. After each kill the
/// database must be intact, stock + units in live orders must equal the initial stock, and every
/// order the client was told about (201) must exist. On PostgreSQL the server (and its files) is
/// not what is killed, so there is no file to check: the invariants are what is checked there.
@Suite("Orders survive SIGKILL", .serialized)
struct CrashTests {
    static let initialStock: [String: Int64] = ["CRASH-A": 100_000, "CRASH-B": 100_000, "CRASH-C": 40]
    static let phone = "13900009999"

    @Test(.timeLimit(.minutes(1)))
    func ordersAcknowledgedBeforeAKillSurviveAndStockAddsUp() throws {
        guard let shop = OrderCrashHarness.shopExecutable() else {
            Issue.record("""
                the `shop` executable was not found beside the test bundle (\(Bundle.main.bundleURL.path), \
                \(CommandLine.arguments.first ?? "?")); build it with `swift build --build-tests` first
                """)
            return
        }
        let harness = try OrderCrashHarness(shop: shop)
        defer { harness.cleanUp() }
        let started = Date()

        try harness.runToCompletion(["migrate"])
        try harness.writeCatalogue(Self.initialStock)
        try harness.runToCompletion(["import", "catalog", harness.catalogPath])
        let skus = try harness.skuIDs()
        #expect(Set(skus.keys) == Set(Self.initialStock.keys))

        var session: (token: String, addressID: Int64)?
        var acknowledged: [OrderCrashHarness.Placed] = []
        for cycle in 0..<3 {
            let server = try harness.startServer(cycle: cycle)
            defer { harness.stop(server) }
            let client = OrderCrashClient(base: server.base)
            defer { client.close() }
            if session == nil { session = try harness.signUp(client, phone: Self.phone) }
            let (token, addressID) = try #require(session)

            // The idempotency key of an acknowledged order survives the kill too: replaying it answers the same order.
            if let earlier = acknowledged.last {
                let replay = try client.send("POST", "/api/v1/orders", body: earlier.body, token: token,
                                             headers: ["Idempotency-Key": earlier.key])
                #expect(replay.status == 200, "replay after restart: \(replay.status) \(replay.text)")
                #expect(try replay.decode(OrderResponse.self).number == earlier.number)
            }

            let placed = harness.fireOrders(client, token: token, addressID: addressID, skus: skus, cycle: cycle,
                                             threads: 4, killAfter: 0.6, server: server)
            #expect(!placed.acknowledged.isEmpty, "cycle \(cycle): no order was acknowledged before the kill")
            #expect(placed.unexpected.isEmpty, "cycle \(cycle): unexpected answers \(placed.unexpected.prefix(5))")
            acknowledged += placed.acknowledged

            try harness.verifyDatabase(initialStock: Self.initialStock, skus: skus, acknowledged: acknowledged, cycle: cycle)
        }
        #expect(Date().timeIntervalSince(started) < 30, "the crash test should stay within its time budget")
    }
}

/// Runs the `shop` binary in a temp directory and checks its database after each kill.
final class OrderCrashHarness: @unchecked Sendable {
    struct Server {
        let process: Process
        let base: String
    }

    /// An order the server acknowledged with a 201.
    struct Placed {
        let key: String
        // Untyped on purpose: a request body (tests also send ill-typed, null and extra fields).
        let body: [String: Any]
        let number: String
        let skuID: Int64
        let quantity: Int
    }

    struct Outcome {
        var acknowledged: [Placed] = []
        var unexpected: [String] = []
    }

    let shop: URL
    let directory: URL
    /// The test's own schema when the suites run on PostgreSQL; nil on SQLite (the file below).
    let schema: TestSchema?
    var databasePath: String { directory.appendingPathComponent("shop.sqlite").path }
    var codesPath: String { directory.appendingPathComponent("codes.jsonl").path }
    var catalogPath: String { directory.appendingPathComponent("catalog.csv").path }

    init(shop: URL) throws {
        self.shop = shop
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("shop-crash-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        schema = try TestDatabase.makeSchema()
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: directory)
        schema?.drop()
    }

    /// The `shop` executable in the products folder that holds this test binary, found by walking up
    /// from the bundle and from `argv[0]`.
    static func shopExecutable() -> URL? {
        var starts = [Bundle.main.bundleURL, Bundle.main.executableURL].compactMap { $0 }
        if let argument = CommandLine.arguments.first {
            starts.append(URL(fileURLWithPath: argument))
            starts.append(URL(fileURLWithPath: argument).resolvingSymlinksInPath())
        }
        for start in starts {
            var directory = start.standardizedFileURL
            while directory.path != "/" && !directory.path.isEmpty {
                let candidate = directory.appendingPathComponent("shop")
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                   FileManager.default.isExecutableFile(atPath: candidate.path) {
                    return candidate
                }
                directory.deleteLastPathComponent()
            }
        }
        return nil
    }

    /// The child's environment: the caller's minus any SHOP_* setting, plus this test's.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SHOP_") }
        environment["SHOP_DATABASE_PATH"] = databasePath
        if let schema { environment["SHOP_DATABASE_URL"] = schema.url }
        environment["SHOP_DATABASE_MIGRATIONS_PATH"] = Repository.migrations(schema == nil ? .sqlite : .postgresql)
        environment["SHOP_VERIFICATION_SENDER"] = "file"
        environment["SHOP_VERIFICATION_FILE_PATH"] = codesPath
        environment["SHOP_AUTH_ARGON2_MEMORY_KIB"] = "1024"
        environment["SHOP_AUTH_ARGON2_ITERATIONS"] = "1"
        environment["SHOP_SERVER_THREADS"] = "4"
        // one buyer places every order here: the unpaid-order limit is not what this test is about
        environment["SHOP_ORDERS_MAX_UNPAID_PER_USER"] = "100000"
        environment["SHOP_APP_LOG_LEVEL"] = "info"
        return environment
    }

    private func process(_ arguments: [String], output: URL) throws -> Process {
        let process = Process()
        process.executableURL = shop
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = environment
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try handle.close()
        return process
    }

    /// Runs a short command and throws unless it exits 0.
    func runToCompletion(_ arguments: [String]) throws {
        let log = directory.appendingPathComponent("\(arguments.first ?? "cmd")-\(UUID().uuidString).log")
        let process = try process(arguments, output: log)
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw FixtureError("shop \(arguments.joined(separator: " ")) did not finish")
        }
        guard process.terminationStatus == 0 else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw FixtureError("shop \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(text)")
        }
    }

    func writeCatalogue(_ stock: [String: Int64]) throws {
        let header = "product_code,sku_code,sku_name,title,subtitle,category,price,original_price,stock,description,"
            + "cover_url,image_urls,attributes,status"
        let lines = stock.keys.sorted().map { code in
            ["P-\(code)", code, "规格\(code)", "花束\(code)", "", "花束/玫瑰", "19.90", "", String(stock[code] ?? 0), "",
             "https://img.floral.example/\(code).jpg", "", "", "on_sale"].joined(separator: ",")
        }
        try (([header] + lines).joined(separator: "\n") + "\n").write(toFile: catalogPath, atomically: true, encoding: .utf8)
    }

    /// Opens the database file directly, as nobody else would after a crash (on PostgreSQL, a
    /// connection of its own to the test's schema).
    func withDatabase<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        let connection: any SQLConnection = try schema?.connect() ?? SQLite.Connection(path: databasePath)
        return try body(connection)
    }

    func skuIDs() throws -> [String: Int64] {
        try withDatabase { db in
            var ids: [String: Int64] = [:]
            for row in try db.query("SELECT id, code FROM skus") { ids[try row.string("code")] = try row.int64("id") }
            return ids
        }
    }

    /// Starts `shop serve --port 0` and waits for its "serving" log line.
    func startServer(cycle: Int) throws -> Server {
        let log = directory.appendingPathComponent("serve-\(cycle).log")
        let process = try process(["serve", "--port", "0"], output: log)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") where line.contains(" serving ") {
                if let range = line.range(of: #"address=http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) {
                    return Server(process: process, base: String(line[range].dropFirst("address=".count)))
                }
            }
            if !process.isRunning {
                throw FixtureError("shop serve exited \(process.terminationStatus) before serving: \(text)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        throw FixtureError("shop serve did not log its address within 10 s")
    }

    /// SIGKILL, unless it is already dead (a failed step must not leave a server behind).
    func stop(_ server: Server) {
        if server.process.isRunning { kill(server.process.processIdentifier, SIGKILL) }
        server.process.waitUntilExit()
    }

    /// Registers over HTTP with the code the file sender wrote, and adds an address.
    func signUp(_ client: OrderCrashClient, phone: String) throws -> (token: String, addressID: Int64) {
        let requested = try client.send("POST", "/api/v1/auth/verification-codes", body: ["phone": phone, "purpose": "register"])
        guard requested.status == 202 else { throw FixtureError("code request: \(requested.status) \(requested.text)") }
        let lines = ((try? String(contentsOfFile: codesPath, encoding: .utf8)) ?? "").split(separator: "\n")
        // Untyped on purpose: the code sender's file lines, not API responses.
        let code = lines.compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["phone"] as? String == phone, object["purpose"] as? String == "register" else { return nil }
            return object["code"] as? String
        }.last
        guard let code else { throw FixtureError("no code for \(phone) in \(codesPath)") }
        let registered = try client.send("POST", "/api/v1/auth/register", body: ["phone": phone, "code": code, "password": "flower123"])
        guard registered.status == 201 else { throw FixtureError("register: \(registered.status) \(registered.text)") }
        let token = try registered.decode(SessionResponse.self).token
        let address = try client.send("POST", "/api/v1/addresses", body: [
            "recipient": "王小花", "phone": "13800138000", "province": "浙江省", "city": "杭州市", "district": "西湖区",
            "detail": "人民路1号",
        ], token: token)
        guard address.status == 201 else { throw FixtureError("address: \(address.status) \(address.text)") }
        return (token, try address.decode(AddressResponse.self).own.id.rawValue)
    }

    /// Buy-now orders from `threads` threads until the server dies; SIGKILL after `killAfter` seconds.
    func fireOrders(_ client: OrderCrashClient, token: String, addressID: Int64, skus: [String: Int64], cycle: Int,
                    threads: Int, killAfter: TimeInterval, server: Server) -> Outcome {
        let collected = OrderCrashBox(Outcome())
        let codes = skus.keys.sorted()
        let group = DispatchGroup()
        let stopAt = Date().addingTimeInterval(killAfter + 10)
        for thread in 0..<threads {
            group.enter()
            Thread {
                defer { group.leave() }
                var sequence = 0
                while Date() < stopAt {
                    sequence += 1
                    let code = codes[(thread + sequence) % codes.count]
                    let sku = skus[code] ?? 0
                    let quantity = 1 + sequence % 2
                    let key = "crash-\(cycle)-\(thread)-\(sequence)"
                    // Untyped on purpose: a request body (tests also send ill-typed, null and extra fields).
                    let body: [String: Any] = ["address_id": addressID, "items": [["sku_id": sku, "quantity": quantity]]]
                    guard let answer = try? client.send("POST", "/api/v1/orders", body: body, token: token,
                                                        headers: ["Idempotency-Key": key]) else {
                        return // the server is gone
                    }
                    let error = (try? answer.decode(ErrorResponse.self))?.error.code
                    let number = (try? answer.decode(OrderResponse.self))?.number
                    collected.update { outcome in
                        if answer.status == 201, let number {
                            outcome.acknowledged.append(Placed(key: key, body: body, number: number, skuID: sku, quantity: quantity))
                        } else if !(answer.status == 409 && error == "out_of_stock") {
                            outcome.unexpected.append("\(answer.status) \(answer.text)")
                        }
                    }
                }
            }.start()
        }
        // Kill after `killAfter`, but not before the first order is acknowledged (a loaded machine
        // may take longer than that to answer one), and at the latest 5 s in.
        Thread.sleep(forTimeInterval: killAfter)
        let latest = Date().addingTimeInterval(5)
        while collected.value.acknowledged.isEmpty, Date() < latest { Thread.sleep(forTimeInterval: 0.05) }
        stop(server)
        _ = group.wait(timeout: .now() + 10)
        return collected.value
    }

    /// Integrity (of the SQLite file: a PostgreSQL server was not killed), stock conservation, and
    /// every acknowledged order present with what was asked.
    func verifyDatabase(initialStock: [String: Int64], skus: [String: Int64], acknowledged: [Placed], cycle: Int,
                        sourceLocation: SourceLocation = #_sourceLocation) throws {
        try withDatabase { db in
            if db.dialect == .sqlite {
                let integrity = try db.query("PRAGMA integrity_check").map { try $0.string("integrity_check") }
                #expect(integrity == ["ok"], "cycle \(cycle): integrity_check \(integrity)", sourceLocation: sourceLocation)
            }
            for (code, initial) in initialStock {
                let sku = skus[code] ?? 0
                let stock = try db.scalarInt("SELECT stock FROM skus WHERE id = \(sku)") ?? -1
                let sold = try db.scalarInt("""
                    SELECT COALESCE(SUM(i.quantity), 0) FROM order_items i JOIN orders o ON o.id = i.order_id
                    WHERE i.sku_id = \(sku) AND o.status <> 'cancelled'
                    """) ?? -1
                #expect(stock >= 0, "cycle \(cycle): \(code) stock \(stock)", sourceLocation: sourceLocation)
                #expect(stock + sold == initial, "cycle \(cycle): \(code) stock \(stock) + sold \(sold) ≠ \(initial)",
                        sourceLocation: sourceLocation)
            }
            var missing: [String] = []
            var wrong: [String] = []
            for placed in acknowledged {
                guard try db.scalarInt("SELECT COUNT(*) FROM orders WHERE number = \(placed.number)") == 1 else {
                    missing.append(placed.number)
                    continue
                }
                let items = try db.query("""
                    SELECT i.sku_id, i.quantity FROM orders o JOIN order_items i ON i.order_id = o.id WHERE o.number = \(placed.number)
                    """).map { [try $0.int64("sku_id"), try $0.int64("quantity")] }
                if items != [[placed.skuID, Int64(placed.quantity)]] { wrong.append(placed.number) }
            }
            #expect(missing.isEmpty, "cycle \(cycle): \(missing.count) acknowledged orders missing, e.g. \(missing.prefix(5))",
                    sourceLocation: sourceLocation)
            #expect(wrong.isEmpty, "cycle \(cycle): \(wrong.count) acknowledged orders with other items, e.g. \(wrong.prefix(5))",
                    sourceLocation: sourceLocation)
            let keys = try db.scalarInt("SELECT COUNT(*) FROM idempotency_keys") ?? -1
            let orders = try db.scalarInt("SELECT COUNT(*) FROM orders") ?? -1
            #expect(keys == orders, "cycle \(cycle): \(orders) orders but \(keys) idempotency keys", sourceLocation: sourceLocation)
        }
    }
}

/// A small blocking HTTP client for the crash test (one ephemeral URLSession per server life).
final class OrderCrashClient: @unchecked Sendable {
    struct Answer {
        let status: Int
        let data: Data
        /// The body decoded into one of the API's DTOs, as `TestResponse.decode` does.
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try JSON.decoder().decode(T.self, from: data) }
        var text: String { String(decoding: data, as: UTF8.self) }
    }

    let base: String
    private let session: URLSession

    init(base: String) {
        self.base = base
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 3
        configuration.timeoutIntervalForResource = 5
        session = URLSession(configuration: configuration)
    }

    func close() {
        session.invalidateAndCancel()
    }

    // Untyped on purpose: a request body (tests also send ill-typed, null and extra fields).
    func send(_ method: String, _ path: String, body: [String: Any]? = nil, token: String? = nil,
              headers: [String: String] = [:]) throws -> Answer {
        guard let url = URL(string: base + path) else { throw FixtureError("bad URL \(base + path)") }
        var request = URLRequest(url: url, timeoutInterval: 3)
        request.httpMethod = method
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let done = DispatchSemaphore(value: 0)
        let result = OrderCrashBox<Result<Answer, any Error>>(.failure(FixtureError("no answer")))
        session.dataTask(with: request) { data, response, error in
            if let error {
                result.update { $0 = .failure(error) }
            } else if let http = response as? HTTPURLResponse {
                result.update { $0 = .success(Answer(status: http.statusCode, data: data ?? Data())) }
            }
            done.signal()
        }.resume()
        done.wait()
        return try result.value.get()
    }
}

/// A value shared between threads behind a lock.
final class OrderCrashBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    func update(_ change: (inout Value) -> Void) {
        lock.lock()
        change(&stored)
        lock.unlock()
    }
}
