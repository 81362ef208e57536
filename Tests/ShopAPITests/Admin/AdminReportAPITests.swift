import Foundation
import HTTP
@testable import ShopAPI
import ShopCore
import ShopTestSupport
import Testing

/// Reports at the operators' desk: sales by day and one day's deliveries.
@Suite("Admin: reports")
struct AdminReportAPITests {
    @Test func salesListEveryDayOfTheRangeWithZerosAndTheTotal() throws {
        let app = try TestAPI()
        let staff = try app.staffToken(.manager)
        let response = try app.send("GET", "/api/v1/admin/reports/sales", query: ["from": "2026-11-29", "to": "2026-12-01"], token: staff)
        #expect(response.status == 200, "\(response.text)")
        let report = try response.decode(SalesReportResponse.self)
        #expect(report.from == "2026-11-29" && report.to == "2026-12-01")
        #expect(report.timezone == "Asia/Shanghai")
        #expect(report.items.map(\.date) == ["2026-11-29", "2026-11-30", "2026-12-01"])
        #expect(report.items.allSatisfy { $0.orders == 0 && $0.paidCents == 0 })
        // Untyped on purpose: the key sets of each day and of the total (a decoder ignores extra keys).
        let keys: Set<String> = ["date", "orders", "items", "paid_cents", "refunded_cents"]
        #expect(response.keysOfEach("items") == Array(repeating: keys, count: 3))
        #expect(response.keys(of: "total") == keys.subtracting(["date"]))
    }

    @Test func badDaysAndRangesAre400NamingTheField() throws {
        let app = try TestAPI()
        let staff = try app.staffToken(.owner)
        for (query, field) in [(["from": "2026-13-01"], "from"), (["to": "yesterday"], "to"),
                               (["from": "2026-12-02", "to": "2026-12-01"], "from"),
                               (["from": "2026-01-01", "to": "2027-01-02"], "to")] {
            let response = try app.send("GET", "/api/v1/admin/reports/sales", query: query, token: staff)
            #expect(response.status == 400 && response.errorCode == "validation_failed" && response.error?.field == field,
                    "\(query): \(response.text)")
        }
        let deliveries = try app.send("GET", "/api/v1/admin/reports/deliveries", query: ["date": "12/03"], token: staff)
        #expect(deliveries.status == 400 && deliveries.error?.field == "date")
    }

    /// A florist reads the deliveries but not the sales; an unpaid order is nothing to deliver.
    @Test func deliveriesAreCountedBySlotAndStatusForTheFlorist() throws {
        let app = try TestAPI()
        let sku = try #require(try app.orderSeed([("A", "10.00", 50)])["A"])
        let buyer = try app.orderBuyer("13900000001")
        for (key, slot, paid) in [("k1", "morning", true), ("k2", "morning", true), ("k3", "evening", false)] {
            var body = app.orderBuyNowBody(buyer, [(sku, 1)])
            body["delivery_date"] = "2026-12-03"
            body["delivery_slot"] = slot
            let placed = try app.orderPlace(buyer, key: key, body)
            #expect(placed.status == 201, "\(placed.text)")
            if paid { #expect(try app.orderPaid(try #require(placed.orderID))) }
        }
        let florist = try app.staffToken(.florist)
        #expect(try app.send("GET", "/api/v1/admin/reports/sales", token: florist).status == 403)
        let response = try app.send("GET", "/api/v1/admin/reports/deliveries", query: ["date": "2026-12-03"], token: florist)
        #expect(response.status == 200, "\(response.text)")
        let report = try response.decode(DeliveriesReportResponse.self)
        #expect(report.date == "2026-12-03" && report.total == 2)
        let items = report.items
        #expect(items.count == 1 && items.first?.slot == .morning && items.first?.status == .paid && items.first?.orders == 2,
                "\(response.text)")
        #expect(report.slots.map(\.slot) == [.morning, .afternoon, .evening])
        #expect(report.slots.map(\.orders) == [2, 0, 0])
        let otherDay = try app.send("GET", "/api/v1/admin/reports/deliveries", query: ["date": "2026-12-04"], token: florist)
        #expect(try otherDay.decode(DeliveriesReportResponse.self).total == 0)
    }
}
