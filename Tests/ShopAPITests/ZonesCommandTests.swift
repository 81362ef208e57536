import Foundation
@testable import ShopCore
import ShopTestSupport
import Testing

/// `shop zones import|list` as an operator uses them: the built binary on the test database.
@Suite("shop zones")
struct ZonesCommandTests {
    typealias CLI = PaymentSimulateCommandTests

    func file(_ app: TestAPI, _ name: String, _ text: String) throws -> String {
        let url = app.testShop.directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test(.enabled(if: CLI.binary != nil, "the shop executable is not built beside the tests"))
    func importAFileOfTwoZonesAndListThem() throws {
        let app = try TestAPI()
        let path = try file(app, "zones.json", """
            {"zones": [
              {"name": "杭州", "region_codes": ["330100"], "fee_cents": 800, "free_over_cents": 10000, "same_day": true},
              {"name": "南山", "region_codes": ["440305"], "fee_cents": 1500, "same_day": false}
            ]}
            """)
        let (imported, output) = try CLI.run(["zones", "import", path], database: app.shop.config)
        #expect(imported == 0, "\(output)")
        #expect(output.contains("2 delivery zones imported") && output.contains("330100 杭州市"), "\(output)")
        #expect(try app.shop.deliveryZones.list().map(\.name) == ["杭州", "南山"])
        let entry = try #require(try app.shop.audit.entries(AuditFilter(target: "delivery_zones"), page: try PageRequest()).items.first)
        #expect(entry.action == "delivery.zones" && entry.actor.hasPrefix("cli:"), "\(entry)")

        let (listed, table) = try CLI.run(["zones", "list"], database: app.shop.config)
        #expect(listed == 0, "\(table)")
        for needed in ["NAME", "FREE OVER", "杭州", "8.00", "100.00", "南山", "15.00", "440305 南山区", "2 delivery zones"] {
            #expect(table.contains(needed), "missing \(needed) in:\n\(table)")
        }
        let (json, jsonOutput) = try CLI.run(["zones", "list", "--format", "json"], database: app.shop.config)
        #expect(json == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(jsonOutput.utf8)) as? [[String: String]])
        #expect(rows.map { $0["name"] } == ["杭州", "南山"] && rows[1]["same_day"] == "no", "\(jsonOutput)")
        let (csv, csvOutput) = try CLI.run(["zones", "list", "--format", "csv"], database: app.shop.config)
        #expect(csv == 0 && csvOutput.contains("name,fee,free_over,same_day,regions"), "\(csvOutput)")
    }

    @Test(.enabled(if: CLI.binary != nil, "the shop executable is not built beside the tests"))
    func aFileWithProblemsListsEachAndChangesNothing() throws {
        let app = try TestAPI()
        _ = try app.shop.deliveryZones.replace(with: [DeliveryZoneDraft(name: "旧", regionCodes: ["110105"], feeCents: 0, sameDay: true)],
                                               by: .commandLine(user: "test"))
        let path = try file(app, "bad.json", """
            [{"name": "市区", "region_codes": ["440300"], "fee_cents": 800, "same_day": true},
             {"name": "南山", "region_codes": ["440305", "123456"], "fee_cents": -100, "same_day": true}]
            """)
        let (status, output) = try CLI.run(["zones", "import", path], database: app.shop.config)
        #expect(status == 1, "\(output)")
        for needed in ["zone 2: 440305 (南山区) lies inside 440300 (深圳市) of zone 1", "zone 2: 123456 is not a region code the shop knows",
                       "zone 2: fee_cents must be a whole number of cents from 0 to 100000", "3 problems; the delivery zones were not changed"] {
            #expect(output.contains(needed), "missing \(needed) in:\n\(output)")
        }
        #expect(try app.shop.deliveryZones.list().map(\.name) == ["旧"])
        let (missing, missingOutput) = try CLI.run(["zones", "import", "/nonexistent/zones.json"], database: app.shop.config)
        #expect(missing == 1 && missingOutput.contains("no such file: /nonexistent/zones.json"), "\(missingOutput)")
        let (usage, usageOutput) = try CLI.run(["zones", "list", "--format", "xml"], database: app.shop.config)
        #expect(usage == 2 && usageOutput.contains("--format must be table, csv or json"), "\(usageOutput)")
    }
}
