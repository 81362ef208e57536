import Foundation
import ShopCore
import ShopTestSupport
import Testing

/// `shop serve` as an operator starts it: the built binary.
@Suite("shop serve")
struct ServeCommandTests {
    typealias CLI = PaymentSimulateCommandTests

    /// Everything production asks for but `app.public_url`.
    static let productionEnvironment = [
        "SHOP_APP_ENV": "production", "SHOP_AUTH_PEPPER": String(repeating: "p", count: 40),
        "SHOP_PAYMENTS_MOCKPAY_SECRET": String(repeating: "m", count: 40), "SHOP_VERIFICATION_SENDER": "webhook",
        "SHOP_VERIFICATION_WEBHOOK_URL": "https://sms.example.com/send", "SHOP_SERVER_PORT": "0", "SHOP_SERVER_METRICS_PORT": "0",
    ]

    @Test(.enabled(if: CLI.binary != nil, "the shop executable is not built beside the tests"))
    func productionRefusesToStartWithoutAPublicURLNamingTheKey() throws {
        let shop = try TestShop()
        let (status, output) = try Self.serve(environment: TestDatabase.environment(for: shop.shop.config)
            .merging(Self.productionEnvironment) { $1 })
        #expect(status == 1, "\(output)")
        #expect(output.contains("app.public_url") && output.contains("required in production"), "\(output)")
    }

    /// Runs `shop serve` with `environment` alone (no inherited `SHOP_*`); one still serving
    /// after `seconds` is stopped, and its status is then nil.
    static func serve(environment: [String: String], seconds: Double = 20) throws -> (Int32?, String) {
        guard let executable = CLI.binary else { throw FixtureError("no shop executable") }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["serve"]
        process.currentDirectoryURL = Repository.root()
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("SHOP_") }.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        let stopped = process.isRunning
        if stopped { process.terminate() }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (stopped ? nil : process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
