import Foundation
import HTTP
import SQL
@testable import ShopAPI
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("API: after-sale requests (售后)")
struct AfterSaleAPITests {
    @Test func aRefundWithAnUploadedPhotoIsApprovedPaidBackThroughTheProviderAndShownOnTheOrder() throws {
        let a = try AfterSaleScenario()
        let service = try a.app.staffToken(.service)
        let order = try a.shippedOrder()
        let photo = try a.photo()

        let asked = try a.asked(order, ["kind": "refund", "reason": "花瓣枯萎了", "photo_urls": [photo], "amount_cents": 5_000])
        #expect(asked.status == .requested && asked.kind == .refund && asked.orderID == order.id)
        #expect(asked.photoURLs == [photo] && asked.amountCents == 5_000 && asked.reason == "花瓣枯萎了")
        #expect(asked.decidedAt == nil && asked.decisionNote == nil)
        let before = try a.mine(order)
        #expect(before.afterSale?.id == asked.id && before.afterSale?.status == .requested)
        #expect(before.refundedCents == 0)

        let approved = try a.approve(asked.id, ["note": "抱歉，已退款"], as: service)
        #expect(approved.status == 200, "\(approved.text)")
        let decision = try approved.decode(AdminAfterSaleResponse.self).body
        #expect(decision.shared.status == .approved && decision.shared.decisionNote == "抱歉，已退款")
        #expect(decision.own.decidedBy == "service")
        let refundNumber = try #require(decision.own.refundNumber)

        // the refund reaches WeChat Pay off the request, for the amount asked, under its own number
        a.waitForRefunds(1)
        #expect(a.gateway.refund(refundNumber)?.refundFee == 5_000)
        #expect(try a.mine(order).afterSale?.status == .approved)
        #expect(try a.s.webhook("wechatpay", body: try a.gateway.confirmRefund(refundNumber), contentType: "text/xml").status == 200)

        let after = try a.mine(order)
        #expect(after.afterSale?.status == .refunded)
        #expect(after.refundedCents == 5_000)
        #expect(after.status == .delivered, "a partial refund keeps the order where it was")
        #expect(try a.myAfterSales(order).map(\.status) == [.refunded])
        let detail = try a.detail(order.number, as: service).body
        #expect(detail.shared.refundedCents == 5_000)
        #expect(detail.own.afterSales.map(\.body.own.refundNumber) == [refundNumber])
        #expect(detail.own.refunds.map(\.amountCents) == [5_000])
        let audit = try a.audit(asked.id)
        #expect(audit.map(\.action) == ["after_sale.approve"])
        #expect(audit.first?.actor == "service" && audit.first?.requestID != nil)
        #expect(audit.first?.after?.contains(refundNumber) == true)
    }

    @Test func aRefundWithoutAnAmountAsksForAllThatIsLeftAndNeverMoreThanWasPaid() throws {
        let a = try AfterSaleScenario()
        let manager = try a.app.staffToken(.manager)
        let order = try a.shippedOrder()
        #expect(order.totalCents == 12_900)
        #expect(try a.app.send("POST", "/api/v1/admin/orders/\(order.number)/refund", json: ["amount_cents": 2_900, "reason": "少一枝"],
                               token: manager).status == 201)

        let over = try a.ask(order, ["kind": "refund", "reason": "全部退", "amount_cents": 10_001])
        #expect(over.status == 422 && over.errorCode == "refund_exceeds_paid" && over.error?.field == "amount_cents", "\(over.text)")
        #expect(over.error?.message.contains("100.00") == true)
        let all = try a.asked(order, ["kind": "refund", "reason": "全部退"])
        #expect(all.amountCents == 10_000)

        // the desk may not approve more than is left either; the request stays waiting
        let tooMuch = try a.approve(all.id, ["amount_cents": 10_001], as: manager)
        #expect(tooMuch.status == 422 && tooMuch.errorCode == "refund_exceeds_paid", "\(tooMuch.text)")
        #expect(try a.myAfterSales(order).map(\.status) == [.requested])
        #expect(try a.audit(all.id).isEmpty)
        let less = try a.approve(all.id, ["amount_cents": 8_000], as: manager)
        #expect(try less.decode(AdminAfterSaleResponse.self).body.shared.amountCents == 8_000, "\(less.text)")
    }

    @Test func badRequestsAreRefusedNamingTheFieldAndWriteNothing() throws {
        let a = try AfterSaleScenario()
        let order = try a.shippedOrder()
        let photo = try a.photo()
        let good: [String: Any] = ["kind": "refund", "reason": "花坏了", "photo_urls": [photo]]
        func refused(_ change: [String: Any], field: String, status: Int = 400, code: String = "validation_failed",
                     sourceLocation: SourceLocation = #_sourceLocation) throws {
            let response = try a.ask(order, good.merging(change) { $1 })
            #expect(response.status == status && response.errorCode == code && response.error?.field == field, "\(response.text)",
                    sourceLocation: sourceLocation)
        }
        try refused(["kind": "exchange"], field: "kind")
        try refused(["reason": ""], field: "reason")
        try refused(["reason": "   "], field: "reason")
        try refused(["reason": String(repeating: "花", count: 201)], field: "reason")
        try refused(["reason": "bad\u{7}bell"], field: "reason")
        try refused(["photo_urls": "/media/x.jpg"], field: "photo_urls")
        try refused(["photo_urls": try (0..<7).map { _ in try a.photo() }], field: "photo_urls")
        try refused(["photo_urls": ["https://evil.example/flower.jpg"]], field: "photo_urls")
        try refused(["photo_urls": ["/media/demo/rose-red.svg"]], field: "photo_urls")
        try refused(["photo_urls": ["/media/0123456789abcdef0123456789abcdef-1280.jpg"]], field: "photo_urls")
        try refused(["photo_urls": ["/media/../secret-1280.jpg"]], field: "photo_urls")
        try refused(["amount_cents": 0], field: "amount_cents")
        // a fraction where a whole number belongs: Foundation names no field for it
        #expect(try a.ask(order, good.merging(["amount_cents": 12.5]) { $1 }).errorCode == "validation_failed")
        try refused(["amount_cents": 12_901], field: "amount_cents", status: 422, code: "refund_exceeds_paid")
        try refused(["kind": "redeliver", "amount_cents": 100], field: "amount_cents")
        #expect(try a.ask(order, ["reason": "没有类型"]).error?.field == "kind")
        #expect(try a.rows() == 0)
        #expect(try a.mine(order).afterSale == nil)
        // the thumbnail of one's upload is one of the shop's pictures too
        #expect(try a.ask(order, good.merging(["photo_urls": [MediaLibrary.thumbnailURL(for: photo)]]) { $1 }).status == 201)
    }

    @Test func anotherBuyersOrderIsNotFoundAndStaffTokensAreNotBuyers() throws {
        let a = try AfterSaleScenario()
        let order = try a.shippedOrder()
        let (_, stranger, _) = try PaymentAPIScenario.person(a.app, phone: "13900000002")
        let theirs = try a.ask(order, ["kind": "redeliver", "reason": "不是我的"], token: stranger)
        #expect(theirs.status == 404 && theirs.errorCode == "not_found")
        #expect(try a.app.send("GET", "/api/v1/orders/\(order.id.rawValue)/after-sales", token: stranger).status == 404)
        #expect(try a.ask(order, ["kind": "redeliver", "reason": "员工"], token: a.florist).status == 401)
        #expect(try a.app.send("POST", "/api/v1/orders/\(order.id.rawValue)/after-sales", json: ["kind": "redeliver", "reason": "x"]).status == 401)
        #expect(try a.rows() == 0)
    }

    @Test func theWindowRunsFromDeliveryOrFromShippingAndAnOrderNeverShippedHasNone() throws {
        // the florist's sign-in must outlast the days this test lets pass
        let a = try AfterSaleScenario { $0.admin.tokenLifetimeHours = 720 }
        let unshipped = try a.paidOrder()
        let early = try a.ask(unshipped, ["kind": "refund", "reason": "还没到"])
        #expect(early.status == 422 && early.errorCode == "after_sale_closed", "\(early.text)")
        #expect(early.error?.message.contains("48") == true)

        let deliveredLate = try a.shippedOrder(delivered: false)
        a.app.clock.advance(by: 30 * 3_600)
        #expect(try a.app.send("POST", "/api/v1/admin/orders/\(deliveredLate.number)/deliver", json: [String: Any](), token: a.florist).status == 200)
        let shippedOnly = try a.shippedOrder(delivered: false)
        let alsoShippedOnly = try a.shippedOrder(delivered: false)
        a.app.clock.advance(by: 48 * 3_600)
        // 48 hours after shipping (never marked delivered): the last second of its window
        #expect(try a.ask(shippedOnly, ["kind": "redeliver", "reason": "没送到"]).status == 201)
        // 78 hours after shipping but 48 after delivery: the window runs from delivery
        let fromDelivery = try a.ask(deliveredLate, ["kind": "redeliver", "reason": "送晚了"])
        #expect(fromDelivery.status == 201, "\(fromDelivery.text)")
        a.app.clock.advance(by: 1)
        let closed = try a.ask(alsoShippedOnly, ["kind": "refund", "reason": "过期了"])
        #expect(closed.status == 422 && closed.errorCode == "after_sale_closed", "\(closed.text)")
    }

    @Test func anOrderHoldsOneOpenRequestAndMayAskAgainOnceItIsSettled() throws {
        let a = try AfterSaleScenario()
        let service = try a.app.staffToken(.service)
        let order = try a.shippedOrder()
        let first = try a.asked(order, ["kind": "redeliver", "reason": "送错了"])
        let second = try a.ask(order, ["kind": "refund", "reason": "再申请"])
        #expect(second.status == 409 && second.errorCode == "after_sale_open", "\(second.text)")

        #expect(try a.reject(first.id, ["note": "照片看不出问题"], as: service).status == 200)
        let again = try a.asked(order, ["kind": "refund", "reason": "再申请", "amount_cents": 1_000])
        #expect(try a.myAfterSales(order).map(\.id) == [again.id, first.id])
        #expect(try a.mine(order).afterSale?.id == again.id)
        // approved and its refund not yet confirmed: still open
        #expect(try a.approve(again.id, as: service).status == 200)
        #expect(try a.ask(order, ["kind": "redeliver", "reason": "第三次"]).errorCode == "after_sale_open")
    }

    @Test func racingRequestsForOneOrderOpenExactlyOne() throws {
        let a = try AfterSaleScenario()
        let order = try a.shippedOrder()
        let outcomes = Outcomes<Int>()
        race(8) { n in
            let status = (try? a.ask(order, ["kind": n % 2 == 0 ? "refund" : "redeliver", "reason": "同时申请 \(n)"]).status) ?? -1
            outcomes.record(status)
        }
        #expect(outcomes.count(201) == 1, "\(outcomes.all)")
        #expect(outcomes.count(409) == 7, "\(outcomes.all)")
        #expect(try a.rows() == 1)
        // the partial unique index itself refuses a second open request, whatever the code checks first
        let refused = #expect(throws: (any Error).self) {
            try a.app.shop.pool.write { db in
                try db.run("""
                    INSERT INTO after_sales (order_id, user_id, kind, status, reason, created_at)
                    VALUES (\(order.id), \(a.s.buyer), 'redeliver', 'requested', '绕过检查', 0)
                    """)
            }
        }
        #expect((refused as? any SQLError)?.isUniqueViolation == true, "\(String(describing: refused))")
    }
}
