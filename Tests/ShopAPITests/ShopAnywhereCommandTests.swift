import Foundation
@testable import ShopAPI
import ShopCore
import ShopTestSupport
import Testing

/// `shop` run as an operator would from any folder: the built binary with a new, empty temporary
/// folder as its working directory, no `SHOP_*` settings but the ones a test gives, the language
/// from `LANG`.
@Suite("shop from anywhere")
struct ShopAnywhereCommandTests {
    typealias CLI = PaymentSimulateCommandTests

    /// A new empty folder; removed by `cleanUp`.
    struct Folder {
        let url: URL
        var path: String { url.path }

        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("shop-anywhere-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        func cleanUp() { try? FileManager.default.removeItem(at: url) }

        /// What is in the folder, recursively.
        var contents: [String] { (FileManager.default.subpaths(atPath: path) ?? []).sorted() }
    }

    /// Runs `shop arguments` in `folder`; answers exit status, stdout and stderr.
    static func run(_ arguments: [String], in folder: Folder, language: String = "C.UTF-8",
                    environment settings: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
        guard let executable = CLI.binary else { throw FixtureError("no shop executable") }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder.url
        var environment = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("SHOP_") && !$0.key.hasPrefix("LC_") && $0.key != "LANG" && $0.key != "LANGUAGE"
        }
        environment["LANG"] = language
        environment.merge(settings) { $1 }
        process.environment = environment
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let err = OrderCrashBox(Data())
        let reader = Thread { err.update { $0 = errors.fileHandleForReading.readDataToEndOfFile() } }
        reader.start()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !reader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err.value, as: UTF8.self))
    }

    static let enabled = CLI.binary != nil

    @Test(.enabled(if: enabled, "the shop executable is not built beside the tests"))
    func ordersListInAFolderWithoutAShopRefusesNamingThePathAndCreatesNothing() throws {
        let folder = try Folder()
        defer { folder.cleanUp() }
        let (status, out, err) = try Self.run(["orders", "list"], in: folder)
        #expect(status == 1, "\(out)\(err)")
        #expect(err.contains("no shop database at \(folder.path)/data/shop.sqlite"), "\(err)")
        #expect(err.contains("shop migrate"), "it says how to make one: \(err)")
        #expect(!out.contains("0 of 0 orders"))
        #expect(folder.contents.isEmpty, "nothing is created: \(folder.contents)")

        for command in [["coupons", "create", "SPRING", "--percent-off", "10"], ["refunds", "list"], ["authors", "grant", "13800000000"]] {
            let (status, _, err) = try Self.run(command, in: folder, language: "zh_CN.UTF-8")
            #expect(status == 1 && err.contains("找不到商店数据库 \(folder.path)/data/shop.sqlite"), "\(command): \(err)")
        }
        #expect(folder.contents.isEmpty, "nothing is created: \(folder.contents)")
    }

    @Test(.enabled(if: enabled, "the shop executable is not built beside the tests"))
    func aConfigNamedThatDoesNotExistIsAnErrorAndVerboseSaysWhatIsUsed() throws {
        let folder = try Folder()
        defer { folder.cleanUp() }
        let (status, _, err) = try Self.run(["orders", "list", "--config", "missing.json"], in: folder)
        #expect(status == 1 && err.contains("no config file at \(folder.path)/missing.json"), "\(err)")

        let shop = try TestShop()
        let settings = TestDatabase.environment(for: shop.shop.config)
        let (listed, out, said) = try Self.run(["-v", "orders", "list"], in: folder, environment: settings)
        #expect(listed == 0 && out.contains("0 of 0 orders"), "\(out)\(said)")
        #expect(said.contains("config: built-in defaults (no \(folder.path)/Config/shop.json)"), "\(said)")
        let database = TestDatabase.isPostgreSQL ? "database: postgresql://" : "database: sqlite:\(shop.shop.config.database.path)"
        #expect(said.contains(database), "\(said)")

        try Data("{}".utf8).write(to: folder.url.appendingPathComponent("mine.json"))
        let (configured, _, named) = try Self.run(["orders", "list", "--config", "mine.json", "-v"], in: folder, language: "zh_CN.UTF-8",
                                                  environment: settings)
        #expect(configured == 0 && named.contains("配置：\(folder.path)/mine.json"), "\(named)")
    }

    @Test(.enabled(if: enabled, "the shop executable is not built beside the tests"))
    func aPostgreSQLDatabaseWithoutTheShopsTablesIsRefusedLikeAMissingFile() throws {
        guard let schema = try TestDatabase.makeSchema() else { return }  // PostgreSQL only
        defer { schema.drop() }
        let folder = try Folder()
        defer { folder.cleanUp() }
        let (status, _, err) = try Self.run(["coupons", "list"], in: folder, environment: ["SHOP_DATABASE_URL": schema.url])
        #expect(status == 1 && err.contains("is not a shop database (no migrations applied)"), "\(err)")
        let tables = try TestDatabase.tables(try schema.connect())
        #expect(tables.isEmpty, "nothing is created: \(tables)")
    }

    @Test(.enabled(if: enabled, "the shop executable is not built beside the tests"))
    func versionAnswersWithTheVersion() throws {
        let folder = try Folder()
        defer { folder.cleanUp() }
        let (status, out, _) = try Self.run(["--version"], in: folder)
        #expect(status == 0 && out.range(of: #"^shop [0-9]+\.[0-9]+\.[0-9]+"#, options: .regularExpression) != nil, "\(out)")
        #expect(try Self.run(["help"], in: folder).out.contains(out.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test(.enabled(if: enabled, "the shop executable is not built beside the tests"))
    func helpListsEachCommandOnceAndExplainsEveryCommandInTheOperatorsLanguage() throws {
        let folder = try Folder()
        defer { folder.cleanUp() }
        let (status, overview, _) = try Self.run(["help"], in: folder)
        #expect(status == 0)
        for name in ["coupons create", "coupons list", "coupons disable", "authors grant", "import articles", "orders list"] {
            #expect(overview.split(separator: "\n").filter { $0.hasPrefix("  \(name) ") }.count == 1, "\(name) is listed once: \(overview)")
        }
        let (_, coupons, _) = try Self.run(["coupons", "--help"], in: folder)
        #expect(coupons.components(separatedBy: "Usage: shop coupons create").count == 2, "printed once: \(coupons)")
        let (_, authors, _) = try Self.run(["authors", "grant", "--help"], in: folder)
        #expect(authors.split(separator: "\n").count > 2 && authors.contains("column author"), "\(authors)")

        let (zhStatus, zh, _) = try Self.run(["help"], in: folder, language: "zh_CN.UTF-8")
        #expect(zhStatus == 0 && zh.contains("用法：shop <命令>") && zh.contains("列出订单"), "\(zh)")
        for command in CommandNames.all {
            let (status, usage, _) = try Self.run(command + ["--help"], in: folder, language: "zh_CN.UTF-8")
            #expect(status == 0 && usage.hasPrefix("用法：shop \(command.joined(separator: " "))"), "\(command): \(usage)")
        }
        // LC_ALL wins over LANG, LC_MESSAGES too.
        let (_, english, _) = try Self.run(["help"], in: folder, language: "zh_CN.UTF-8", environment: ["LC_ALL": "en_US.UTF-8"])
        #expect(english.contains("Usage: shop <command>"), "\(english)")
        let (_, chinese, _) = try Self.run(["help"], in: folder, environment: ["LC_MESSAGES": "zh_CN.UTF-8"])
        #expect(chinese.contains("用法：shop <命令>"), "\(chinese)")
    }

    @Test(.enabled(if: enabled, "the shop executable is not built beside the tests"))
    func badUsageIsExit2InTheOperatorsLanguageAndWritesNothing() throws {
        let folder = try Folder()
        defer { folder.cleanUp() }
        let (unknown, _, said) = try Self.run(["orders", "frobnicate"], in: folder, language: "zh_CN.UTF-8")
        #expect(unknown == 2 && said.contains("没有“orders frobnicate”这个命令"), "\(said)")
        let (option, _, wrong) = try Self.run(["coupons", "list", "--colour", "red"], in: folder, language: "zh_CN.UTF-8")
        #expect(option == 2 && wrong.contains("未知选项 --colour") && wrong.contains("用法：shop coupons list"), "\(wrong)")
        let (lang, _, badLang) = try Self.run(["orders", "list", "--lang", "fr"], in: folder)
        #expect(lang == 2 && badLang.contains("--lang must be zh or en"), "\(badLang)")
        #expect(folder.contents.isEmpty, "\(folder.contents)")
    }

    @Test(.enabled(if: enabled, "the shop executable is not built beside the tests"))
    func seedDemoFromAnotherFolderLoadsTheDemoShopBuiltIntoTheBinary() throws {
        let folder = try Folder()
        defer { folder.cleanUp() }
        let schema = try TestDatabase.makeSchema()
        defer { schema?.drop() }
        var settings = ["SHOP_DATABASE_PATH": folder.path + "/shop.sqlite"]
        if let schema { settings["SHOP_DATABASE_URL"] = schema.url }
        let (status, out, err) = try Self.run(["seed", "demo"], in: folder, language: "zh_CN.UTF-8", environment: settings)
        #expect(status == 0, "\(out)\(err)")
        #expect(out.contains("演示商品") && out.contains("products: created="), "\(out)")
        #expect(!out.contains("products: created=0 "), "the demo catalogue was imported: \(out)")
        let (again, skipped, _) = try Self.run(["seed", "demo", "--if-empty"], in: folder, environment: settings)
        #expect(again == 0 && skipped.contains("the shop already has products"), "\(skipped)")
        let (listed, orders, _) = try Self.run(["orders", "list"], in: folder, environment: settings)
        #expect(listed == 0 && orders.contains("0 of 0 orders"), "\(orders)")
    }

    @Test(.enabled(if: enabled, "the shop executable is not built beside the tests"))
    func serveStartedFromAnotherFolderServesTheDocsPageItsDocumentAndTheDemoPictures() throws {
        let folder = try Folder()
        defer { folder.cleanUp() }
        let schema = try TestDatabase.makeSchema()
        defer { schema?.drop() }
        var settings = ["SHOP_DATABASE_PATH": folder.path + "/shop.sqlite", "SHOP_SERVER_PORT": "0", "SHOP_SERVER_METRICS_PORT": "0",
                        "SHOP_APP_LOG_LEVEL": "info", "SHOP_MEDIA_PATH": folder.path + "/media"]
        if let schema { settings["SHOP_DATABASE_URL"] = schema.url }
        guard let executable = CLI.binary else { throw FixtureError("no shop executable") }
        let log = folder.url.appendingPathComponent("serve.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        let process = Process()
        process.executableURL = executable
        process.arguments = ["serve"]
        process.currentDirectoryURL = folder.url
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SHOP_") }.merging(settings) { $1 }
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        try handle.close()
        defer {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        var base: String?
        let deadline = Date().addingTimeInterval(20)
        while base == nil, Date() < deadline, process.isRunning {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: #"address=http://127\.0\.0\.1:[0-9]+"#, options: .regularExpression) {
                base = String(text[range].dropFirst("address=".count))
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let address = try #require(base, "no serving line: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        let client = OrderCrashClient(base: address)
        defer { client.close() }
        let document = try client.send("GET", "/openapi.json")
        #expect(document.status == 200 && (try? document.decode(OpenAPIServers.self))?.openapi != nil, "\(document.status) \(document.text.prefix(200))")
        let page = try client.send("GET", "/docs")
        #expect(page.status == 200 && page.text.contains("<html"), "\(page.status)")
        let picture = try client.send("GET", "/media/demo/rose-red.svg")
        #expect(picture.status == 200, "\(picture.status)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/openapi.json"))
    }

    @Test(.enabled(if: enabled, "the shop executable is not built beside the tests"))
    func refundsRetryGivenAnOrderNumberPointsToTheOrdersRefundNumbers() throws {
        let s = try PaymentAPIScenario()
        let order = try s.placeOrder(quantity: 1)
        #expect(try s.app.send("POST", "/api/v1/orders/\(order.id.rawValue)/payments", json: ["provider": "mockpay"],
                               token: s.token).status == 201)
        #expect(try s.mockpay(s.mockpayBody(order, event: "evt_paid")).status == 200)
        #expect(try s.app.send("POST", "/api/v1/orders/\(order.id.rawValue)/cancel", token: s.token).order?.status == .refunding)
        let refund = try #require(try s.shop.payments.refunds(status: nil).first { $0.orderNumber == order.number })
        let folder = try Folder()
        defer { folder.cleanUp() }
        let settings = TestDatabase.environment(for: s.shop.config)

        let (status, _, err) = try Self.run(["refunds", "retry", order.number], in: folder, environment: settings)
        #expect(status == 1, "\(err)")
        #expect(err.contains("\(order.number) is an order number, not a refund number; its refunds: \(refund.number)"), "\(err)")
        let (zhStatus, _, zh) = try Self.run(["refunds", "retry", order.number], in: folder, language: "zh_CN.UTF-8", environment: settings)
        #expect(zhStatus == 1 && zh.contains("是订单号，不是退款号；它的退款：\(refund.number)"), "\(zh)")
        let (unknown, _, none) = try Self.run(["refunds", "retry", "R-NOPE"], in: folder, environment: settings)
        #expect(unknown == 1 && none.contains("no refund numbered R-NOPE"), "\(none)")
    }
}

/// Every command's words, as `shop help` lists them.
enum CommandNames {
    static let all: [[String]] = [
        ["serve"], ["migrate"], ["seed", "demo"], ["db", "copy"], ["import", "catalog"], ["import", "articles"],
        ["orders", "list"], ["orders", "show"], ["orders", "ship"], ["orders", "deliver"], ["orders", "cancel"], ["orders", "refund"],
        ["pay", "simulate"], ["payments", "reconcile"],
        ["refunds", "list"], ["refunds", "retry"], ["coupons", "create"], ["coupons", "list"], ["coupons", "disable"],
        ["authors", "grant"], ["authors", "revoke"],
    ]
}
