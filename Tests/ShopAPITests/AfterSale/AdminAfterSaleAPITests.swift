import Foundation
import HTTP
import SQL
@testable import ShopAPI
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("Admin API: the after-sale desk")
struct AdminAfterSaleAPITests {
    @Test func anApprovedRedeliveryIsANewPaidOrderOfTheSameItemsAtZeroCentsLinkedBothWays() throws {
        let a = try AfterSaleScenario()
        let manager = try a.app.staffToken(.manager)
        let order = try a.shippedOrder(quantity: 3)
        let stock = try a.stock()
        let asked = try a.asked(order, ["kind": "redeliver", "reason": "送到时花已经蔫了", "photo_urls": [try a.photo()]])
        #expect(asked.amountCents == nil)

        let withAmount = try a.approve(asked.id, ["amount_cents": 100], as: manager)
        #expect(withAmount.status == 400 && withAmount.error?.field == "amount_cents", "\(withAmount.text)")
        let approved = try a.approve(asked.id, ["note": "明天上午补送"], as: manager)
        #expect(approved.status == 200, "\(approved.text)")
        let decided = try approved.decode(AdminAfterSaleResponse.self).body.shared
        #expect(decided.status == .redelivered && decided.decisionNote == "明天上午补送" && decided.decidedAt != nil)
        let link = try #require(decided.redeliveryOrder)
        #expect(link.number != order.number)

        let redelivery = try a.detail(link.number, as: manager).body.shared
        #expect(redelivery.id == link.id && redelivery.status == .paid && redelivery.paidAt != nil)
        #expect(redelivery.totalCents == 0 && redelivery.items.map(\.priceCents) == [0])
        #expect(redelivery.items.map(\.skuID) == [a.s.sku] && redelivery.items.map(\.quantity) == [3])
        #expect(redelivery.redeliveryOf?.number == order.number && redelivery.redeliveryOf?.id == order.id)
        #expect(redelivery.trackingURL != nil && redelivery.trackingURL?.hasSuffix(order.trackingToken ?? "none") == false,
                "the recipient can follow the redelivery on a page of its own")
        #expect(redelivery.address.recipient == order.address.recipient && redelivery.deliveryDate != nil)
        #expect(try a.stock() == stock - 3, "the flowers sent again come out of stock")
        #expect(try a.app.testShop.orderSales(of: a.s.sku) == 3, "a redelivery is not a second sale")

        // the buyer sees both ends of the link, and the new order in their list
        let original = try a.mine(order)
        #expect(original.afterSale?.status == .redelivered && original.afterSale?.redeliveryOrder?.id == link.id)
        let mine = try a.app.send("GET", "/api/v1/orders", token: a.buyer).decode(PageResponse<OrderResponse>.self).items
        #expect(mine.first?.number == link.number && mine.first?.redeliveryOf?.id == order.id)
        // nothing was paid for the redelivery, so nothing can be refunded of it
        #expect(try a.app.send("POST", "/api/v1/admin/orders/\(link.number)/ship", token: a.florist).status == 200)
        #expect(try a.ask(try a.s.shop.orders.order(link.id, for: a.s.buyer), ["kind": "refund", "reason": "退"]).errorCode == "refund_exceeds_paid")

        let again = try a.approve(asked.id, as: manager)
        #expect(again.status == 409 && again.errorCode == "after_sale_decided", "\(again.text)")
        #expect(try a.audit(asked.id).map(\.action) == ["after_sale.approve"])
        #expect(try a.audit(asked.id).first?.after?.contains(link.number) == true)
    }

    @Test func aRejectionNeedsANoteTheBuyerSeesAndIsFinal() throws {
        let a = try AfterSaleScenario()
        let service = try a.app.staffToken(.service)
        let order = try a.shippedOrder()
        let asked = try a.asked(order, ["kind": "refund", "reason": "不想要了"])

        let noNote = try a.reject(asked.id, [:], as: service)
        #expect(noNote.status == 400 && noNote.error?.field == "note", "\(noNote.text)")
        let blank = try a.reject(asked.id, ["note": "  "], as: service)
        #expect(blank.status == 400 && blank.error?.field == "note")
        #expect(try a.reject(asked.id, ["note": String(repeating: "不", count: 201)], as: service).status == 400)
        #expect(try a.reject(AfterSaleID(999_999), ["note": "没有"], as: service).status == 404)

        let rejected = try a.reject(asked.id, ["note": "鲜花签收后不支持无理由退款"], as: service)
        #expect(rejected.status == 200, "\(rejected.text)")
        let shown = try a.myAfterSales(order)
        #expect(shown.map(\.status) == [.rejected])
        #expect(shown.first?.decisionNote == "鲜花签收后不支持无理由退款" && shown.first?.decidedAt != nil)
        #expect(try a.mine(order).refundedCents == 0)
        // the buyer is told of the decision once, through the notices outbox
        let notices = try a.app.shop.pool.read { db in
            try db.query("SELECT audience, text FROM notifications WHERE order_id = \(order.id) AND event = 'after_sale_decided'")
                .map { (try $0.decode("audience", as: String.self), try $0.decode("text", as: String.self)) }
        }
        #expect(notices.count == 1 && notices.first?.0 == "buyer" && notices.first?.1.contains(order.number) == true, "\(notices)")

        let approveAfter = try a.approve(asked.id, as: service)
        #expect(approveAfter.status == 409 && approveAfter.errorCode == "after_sale_decided")
        #expect(approveAfter.error?.message.contains("已被拒绝") == true)
        let english = try a.app.send("POST", "/api/v1/admin/after-sales/\(asked.id.rawValue)/reject", json: ["note": "again"], token: service,
                                     headers: [("Accept-Language", "en")])
        #expect(english.status == 409 && english.error?.message.contains("rejected") == true, "\(english.text)")
        #expect(a.gateway.refunds.isEmpty)
        let audit = try a.audit(asked.id)
        #expect(audit.map(\.action) == ["after_sale.reject"])
        #expect(audit.first?.before?.contains("\"status\":\"requested\"") == true)
        #expect(audit.first?.after?.contains("\"status\":\"rejected\"") == true)
    }

    @Test func theQueueListsByStatusNewestFirstWithOrderNumbersAndPhotos() throws {
        let a = try AfterSaleScenario()
        let service = try a.app.staffToken(.service)
        let first = try a.shippedOrder()
        let second = try a.shippedOrder()
        let photo = try a.photo()
        let older = try a.asked(first, ["kind": "refund", "reason": "少了一枝", "amount_cents": 645, "photo_urls": [photo]])
        a.app.clock.advance(by: 60)
        let newer = try a.asked(second, ["kind": "redeliver", "reason": "没收到"])
        #expect(try a.reject(newer.id, ["note": "已签收"], as: service).status == 200)

        let all = try a.app.send("GET", "/api/v1/admin/after-sales", token: service)
        #expect(all.status == 200, "\(all.text)")
        let page = try all.decode(PageResponse<AdminAfterSaleResponse>.self)
        #expect(page.items.map(\.body.shared.id) == [newer.id, older.id] && page.total == 2 && page.perPage == 20)
        #expect(page.items.map(\.body.shared.orderNumber) == [second.number, first.number])
        #expect(page.items.last?.body.shared.photoURLs == [photo])
        #expect(page.items.first?.body.own.decidedBy == "service")

        let waiting = try a.app.send("GET", "/api/v1/admin/after-sales", query: ["status": "requested"], token: service)
        #expect(try waiting.decode(PageResponse<AdminAfterSaleResponse>.self).items.map(\.body.shared.id) == [older.id])
        let paged = try a.app.send("GET", "/api/v1/admin/after-sales", query: ["per_page": "1", "page": "2"], token: service)
        #expect(try paged.decode(PageResponse<AdminAfterSaleResponse>.self).items.map(\.body.shared.id) == [older.id])
        let bad = try a.app.send("GET", "/api/v1/admin/after-sales", query: ["status": "lost"], token: service)
        #expect(bad.status == 400 && bad.error?.field == "status")
        #expect(try a.app.send("GET", "/api/v1/admin/after-sales", query: ["per_page": "101"], token: service).status == 400)
    }

    @Test func ownersManagersAndServiceDecideFloristsAndBuyersMayNot() throws {
        let a = try AfterSaleScenario()
        #expect(StaffRole.allCases.filter { $0.may(.afterSale) } == [.owner, .manager, .service])
        #expect(AdminPermissions.table.filter { $0.key.contains("/admin/after-sales") }.values.allSatisfy { $0 == .afterSale })
        let order = try a.shippedOrder()
        let asked = try a.asked(order, ["kind": "redeliver", "reason": "送错地址"])
        for path in ["/approve", "/reject"] {
            let response = try a.app.send("POST", "/api/v1/admin/after-sales/\(asked.id.rawValue)\(path)", json: ["note": "x"], token: a.florist)
            #expect(response.status == 403 && response.errorCode == "forbidden")
            let buyer = try a.app.send("POST", "/api/v1/admin/after-sales/\(asked.id.rawValue)\(path)", json: ["note": "x"], token: a.buyer)
            #expect(buyer.status == 401)
        }
        #expect(try a.app.send("GET", "/api/v1/admin/after-sales", token: a.florist).status == 403)
        #expect(try a.myAfterSales(order).map(\.status) == [.requested])
        let owner = try a.app.staffToken(.owner)
        #expect(try a.app.send("GET", "/api/v1/admin/after-sales", token: owner).status == 200)
        #expect(try a.reject(asked.id, ["note": "店主拒绝"], as: owner).status == 200)
        #expect(try a.audit(asked.id).map(\.actor) == ["owner"])
    }

    @Test func racingDecisionsOnOneRequestDecideItOnce() throws {
        let a = try AfterSaleScenario()
        let service = try a.app.staffToken(.service)
        let manager = try a.app.staffToken(.manager)
        let order = try a.shippedOrder()
        let asked = try a.asked(order, ["kind": "refund", "reason": "花少了", "amount_cents": 1_000])
        let outcomes = Outcomes<Int>()
        race(6) { n in
            let status = n % 2 == 0
                ? (try? a.approve(asked.id, as: n % 4 == 0 ? service : manager).status) ?? -1
                : (try? a.reject(asked.id, ["note": "拒绝 \(n)"], as: manager).status) ?? -1
            outcomes.record(status)
        }
        #expect(outcomes.count(200) == 1 && outcomes.count(409) == 5, "\(outcomes.all)")
        #expect(try a.audit(asked.id).count == 1)
        let refunds = try a.detail(order.number, as: manager).body.own.refunds
        let status = try a.myAfterSales(order).first?.status
        #expect(status == .approved ? refunds.map(\.amountCents) == [1_000] : refunds.isEmpty, "\(String(describing: status))")
    }
}
