import Foundation
import HTTP
@testable import ShopAPI
@testable import ShopCore
import ShopTestSupport
import Testing

/// `shop users ban|unban` and `shop sales`, from the built binary on the test database.
@Suite("shop users and shop sales")
struct PeopleCommandTests {
    typealias CLI = PaymentSimulateCommandTests

    @Test(.enabled(if: CLI.binary != nil, "the shop executable is not built beside the tests"))
    func banAndUnbanABuyerByPhoneAudited() throws {
        let app = try TestAPI()
        let token = try app.token(for: "13800138000")
        let (banned, banOutput) = try CLI.run(["users", "ban", "13800138000", "--reason", "广告"], database: app.shop.config)
        #expect(banned == 0, "\(banOutput)")
        #expect(banOutput.contains("13800138000") && banOutput.contains("广告"), "\(banOutput)")
        #expect(try app.send("GET", "/api/v1/me", token: token).status == 401)
        let login = try app.send("POST", "/api/v1/auth/login", json: ["phone": "13800138000", "password": TestAPI.password])
        #expect(login.status == 403 && login.errorCode == "account_banned")

        let (unbanned, unbanOutput) = try CLI.run(["users", "unban", "13800138000"], database: app.shop.config)
        #expect(unbanned == 0, "\(unbanOutput)")
        #expect(try app.send("POST", "/api/v1/auth/login", json: ["phone": "13800138000", "password": TestAPI.password]).status == 200)
        let entries = try app.shop.audit.entries(AuditFilter(), page: PageRequest()).items
        #expect(entries.map(\.action) == ["user.unban", "user.ban"])
        #expect(entries.allSatisfy { $0.actor.hasPrefix("cli:") && $0.staffID == nil })

        let (unknown, unknownOutput) = try CLI.run(["users", "ban", "13900000000"], database: app.shop.config)
        #expect(unknown == 1 && unknownOutput.contains("no user has the phone 13900000000"), "\(unknownOutput)")
        let (bad, badOutput) = try CLI.run(["users", "ban", "12345"], database: app.shop.config)
        #expect(bad == 2 && badOutput.contains("PHONE must be a mainland mobile number"), "\(badOutput)")
        let (noReason, noReasonOutput) = try CLI.run(["users", "unban", "13800138000", "--reason", "x"], database: app.shop.config)
        #expect(noReason == 2 && noReasonOutput.contains("unknown option --reason"), "\(noReasonOutput)")
    }

    /// The test shop's clock stands at 2026-11-30 16:00 in Beijing: the paid order is that day's.
    @Test(.enabled(if: CLI.binary != nil, "the shop executable is not built beside the tests"))
    func salesByDayAsATableCSVAndJSON() throws {
        let app = try TestAPI()
        let sku = try #require(try app.orderSeed([("A", "10.00", 50)])["A"])
        let buyer = try app.orderBuyer("13900000001")
        let placed = try app.orderPlace(buyer, key: "k1", app.orderBuyNowBody(buyer, [(sku, 3)]))
        #expect(try app.orderPaid(try #require(placed.orderID)))
        let total = try #require(placed.order?.totalCents)
        let range = ["--from", "2026-11-29", "--to", "2026-12-01"]

        let (tableStatus, table) = try CLI.run(["sales"] + range, database: app.shop.config)
        #expect(tableStatus == 0, "\(table)")
        #expect(table.contains("2026-11-30") && table.contains(Money.yuan(fromCents: Int64(total))) && table.contains("total"), "\(table)")

        let (csvStatus, csv) = try CLI.run(["sales"] + range + ["--format", "csv"], database: app.shop.config)
        #expect(csvStatus == 0)
        #expect(csv.components(separatedBy: "\r\n") == ["\u{FEFF}date,orders,items,paid_cents,refunded_cents", "2026-11-29,0,0,0,0",
                                                        "2026-11-30,1,3,\(total),0", "2026-12-01,0,0,0,0", "total,1,3,\(total),0", ""])

        let (jsonStatus, json) = try CLI.run(["sales"] + range + ["--format", "json"], database: app.shop.config)
        #expect(jsonStatus == 0)
        // The API's days and total; the command's JSON has no `timezone`, so not the whole `SalesReportResponse`.
        struct SalesJSON: Decodable {
            let from: String
            let to: String
            let items: [SalesReportResponse.Day]
            let total: SalesFiguresResponse
        }
        let object = try JSON.decoder().decode(SalesJSON.self, from: Data(json.utf8))
        let days = object.items
        #expect(days.map(\.date) == ["2026-11-29", "2026-11-30", "2026-12-01"])
        #expect(days[1].orders == 1 && days[1].items == 3 && days[1].paidCents == total)
        #expect(object.total.paidCents == total)

        for (arguments, message) in [(["sales", "--from", "2026-12-02", "--to", "2026-12-01"], "from must not be more than"),
                                     (["sales", "--from", "12/01"], "--from must be a day written YYYY-MM-DD"),
                                     (["sales", "--format", "xml"], "--format must be table, csv or json")] {
            let (status, output) = try CLI.run(arguments, database: app.shop.config)
            #expect(status == 2 && output.contains(message), "\(arguments): \(output)")
        }
    }
}
