import Foundation
import HTTP
@testable import ShopCore
import ShopTestSupport
import Testing

/// `shop orders list --delivery-date D [--format csv]`: the florist's worklist, from the built binary.
@Suite("shop orders list --delivery-date")
struct WorklistCommandTests {
    typealias CLI = PaymentSimulateCommandTests

    /// Places a buy-now order over the API for 2026-12-03 with `extra` delivery fields; paid unless `paid` is false.
    // Untyped on purpose: a request body (tests also send ill-typed, null and extra fields).
    func place(_ api: TestAPI, _ buyer: OrderAPIBuyer, _ sku: Int64, key: String, paid: Bool = true,
               _ extra: [String: Any]) throws -> String {
        var body = api.orderBuyNowBody(buyer, [(sku, 2)])
        body["delivery_date"] = "2026-12-03"
        body.merge(extra) { $1 }
        let placed = try api.orderPlace(buyer, key: key, body)
        guard placed.status == 201, let id = placed.orderID, let number = placed.orderNumber else {
            throw FixtureError("checkout answered \(placed.status) \(placed.text)")
        }
        if paid {
            let now = api.clock.clock.unixNow
            _ = try api.shop.pool.write { db in try OrderLifecycle().markPaid(OrderID(id), at: now, db) }
        }
        return number
    }

    @Test(.enabled(if: CLI.binary != nil, "the shop executable is not built beside the tests"))
    func theCSVWorklistHasAHeaderTheDaysPaidOrdersBySlotAndQuotedCards() throws {
        let api = try TestAPI()
        let sku = try #require(try api.orderSeed([("A", "10.00", 50)])["A"])
        let buyer = try api.orderBuyer("13900000001")
        let evening = try place(api, buyer, sku, key: "k1", ["delivery_slot": "evening", "card_message": "生日快乐, \"宝贝\"\n爱你",
                                                             "card_signature": "小明"])
        let morning = try place(api, buyer, sku, key: "k2", ["delivery_slot": "morning", "card_message": "=HYPERLINK(\"x\")"])
        let unpaid = try place(api, buyer, sku, key: "k3", paid: false, ["card_message": "未付款"])

        let (status, output) = try CLI.run(["orders", "list", "--delivery-date", "2026-12-03", "--format", "csv"], database: api.shop.config)
        #expect(status == 0, "\(output)")
        let lines = output.components(separatedBy: "\r\n")
        #expect(lines.first == "\u{FEFF}number,status,delivery_date,delivery_slot,recipient,phone,address,items,card_message,card_signature,note",
                "UTF-8 behind a byte order mark, English headers without --lang")
        #expect(output.utf8.starts(with: [0xEF, 0xBB, 0xBF]))
        #expect(lines.dropFirst().first?.hasPrefix("\(morning),paid,2026-12-03,morning,王小花,13800138000,浙江省杭州市西湖区人民路1号,") == true, "\(output)")
        #expect(output.contains(",\"'=HYPERLINK(\"\"x\"\")\","), "a formula is defused and quoted: \(output)")
        #expect(output.contains("\(evening),paid,2026-12-03,evening,"), "\(output)")
        #expect(output.contains("\"生日快乐, \"\"宝贝\"\"\n爱你\",小明"), "RFC 4180 quoting: \(output)")
        #expect(output.contains("花束A 规格A x2"), "\(output)")
        #expect(!output.contains(unpaid) && !output.contains("未付款"))
        #expect(output.hasSuffix("\r\n"))
        #expect(output.components(separatedBy: "\r\n").count == 4, "header, two orders, the final CRLF: \(output)")

        let (tableStatus, table) = try CLI.run(["orders", "list", "--delivery-date", "2026-12-03"], database: api.shop.config)
        #expect(tableStatus == 0 && table.contains("2 orders to deliver on 2026-12-03") && table.contains("CARD_MESSAGE"), "\(table)")
        let (pendingStatus, pending) = try CLI.run(["orders", "list", "--delivery-date", "2026-12-03", "--status", "pending_payment"],
                                                   database: api.shop.config)
        #expect(pendingStatus == 0 && pending.contains(unpaid) && !pending.contains(morning), "\(pending)")
    }

    @Test(.enabled(if: CLI.binary != nil, "the shop executable is not built beside the tests"))
    func aFullWidthOrInvisiblyPrefixedFormulaIsDefusedLikeAPlainOne() throws {
        let api = try TestAPI()
        let sku = try #require(try api.orderSeed([("A", "10.00", 50)])["A"])
        let buyer = try api.orderBuyer("13900000001")
        _ = try place(api, buyer, sku, key: "k1", ["card_message": "＝HYPERLINK(\"http://x.example\")",
                                                   "card_signature": "\u{200B}=1+1"])
        _ = try place(api, buyer, sku, key: "k2", ["card_message": "\u{2060}\u{200B}＠SUM(1)", "card_signature": "﹦2",
                                                   "note": "－3 支"])
        _ = try place(api, buyer, sku, key: "k3", ["card_message": "\u{200B}生日快乐"])

        let (status, output) = try CLI.run(["orders", "list", "--delivery-date", "2026-12-03", "--format", "csv"], database: api.shop.config)
        #expect(status == 0, "\(output)")
        #expect(output.contains(",\"'＝HYPERLINK(\"\"http://x.example\"\")\",'\u{200B}=1+1,"), "\(output)")
        #expect(output.contains(",'\u{2060}\u{200B}＠SUM(1),'﹦2,'－3 支\r\n"), "\(output)")
        #expect(output.contains(",\u{200B}生日快乐,"), "text that is no formula stays as written: \(output)")
    }

    @Test(.enabled(if: CLI.binary != nil, "the shop executable is not built beside the tests"))
    func langZhGivesTheWorklistChineseHeadersSlotsAndStatusesBehindAByteOrderMark() throws {
        let api = try TestAPI()
        let sku = try #require(try api.orderSeed([("A", "10.00", 50)])["A"])
        let buyer = try api.orderBuyer("13900000001")
        let morning = try place(api, buyer, sku, key: "k1", ["delivery_slot": "morning"])
        let anyTime = try place(api, buyer, sku, key: "k2", [:])

        let (status, output) = try CLI.run(["orders", "list", "--delivery-date", "2026-12-03", "--format", "csv", "--lang", "zh"],
                                           database: api.shop.config)
        #expect(status == 0, "\(output)")
        #expect(Array(output.utf8.prefix(3)) == [0xEF, 0xBB, 0xBF], "a byte order mark, so Chinese Excel reads UTF-8")
        let lines = output.components(separatedBy: "\r\n")
        #expect(lines.first == "\u{FEFF}订单号,状态,配送日期,配送时段,收花人,电话,地址,商品,贺卡内容,贺卡署名,备注", "\(output)")
        #expect(output.contains("\(morning),已付款,2026-12-03,上午,王小花,"), "\(output)")
        #expect(output.contains("\(anyTime),已付款,2026-12-03,不限,"), "\(output)")

        let (tableStatus, table) = try CLI.run(["orders", "list", "--lang", "zh"], database: api.shop.config)
        #expect(tableStatus == 0 && table.contains("订单号") && table.contains("已付款") && table.contains("共 2 个订单"), "\(table)")
    }

    @Test(.enabled(if: CLI.binary != nil, "the shop executable is not built beside the tests"))
    func aBadDeliveryDateOrFormatIsAUsageError() throws {
        let api = try TestAPI()
        let (dateStatus, date) = try CLI.run(["orders", "list", "--delivery-date", "2026-12-32"], database: api.shop.config)
        #expect(dateStatus == 2 && date.contains("YYYY-MM-DD"), "\(date)")
        let (formatStatus, _) = try CLI.run(["orders", "list", "--format", "pdf"], database: api.shop.config)
        #expect(formatStatus == 2)
    }
}
