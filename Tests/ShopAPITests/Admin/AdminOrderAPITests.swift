import Foundation
import HTTP
@testable import ShopAPI
import ShopTestSupport
import Testing
@testable import ShopCore

/// A shop with WeChat Pay on a fake gateway, a buyer's order paid through it, and staff of each role.
final class AdminOrderScenario: @unchecked Sendable {
    let gateway: FakeWechatPayGateway
    let s: PaymentAPIScenario
    var app: TestAPI { s.app }

    init() throws {
        let gateway = try FakeWechatPayGateway()
        self.gateway = gateway
        s = try PaymentAPIScenario { PaymentKeys.configure(&$0, wechatGateway: gateway, alipayGateway: nil) }
    }

    /// Two roses (129.00), paid through WeChat Pay's notification.
    func paidOrder() throws -> Order {
        let order = try s.placeOrder(quantity: 2)
        #expect(try app.send("POST", "/api/v1/orders/\(order.id.rawValue)/payments", json: ["provider": "wechatpay"], token: s.token).status == 201)
        #expect(try s.webhook("wechatpay", body: try gateway.pay(order.number), contentType: "text/xml").status == 200)
        return try s.shop.orders.order(order.id, for: s.buyer)
    }

    func post(_ path: String, _ body: Any?, as token: String) throws -> TestResponse {
        try app.send("POST", "/api/v1/admin/orders" + path, json: body, token: token)
    }

    func get(_ path: String, query: [String: String] = [:], as token: String) throws -> TestResponse {
        try app.send("GET", "/api/v1/admin/orders" + path, query: query, token: token)
    }

    /// Waits (at most 10 s) for the payments bulkhead to bring `count` refunds to WeChat Pay.
    func waitForRefunds(_ count: Int) {
        let deadline = Date().addingTimeInterval(10)
        while gateway.refunds.count < count, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    }

    func audit(_ number: String) throws -> [AuditEntry] {
        try app.shop.audit.entries(AuditFilter(target: "order:\(number)"), page: try PageRequest(perPage: 100)).items.reversed()
    }
}

@Suite("Admin API: orders")
struct AdminOrderAPITests {
    @Test func aFloristShipsByTheShopsCourierAndDeliversWithAPhotoTheBuyerSeesIt() throws {
        let a = try AdminOrderScenario()
        let florist = try a.app.staffToken(.florist)
        let order = try a.paidOrder()

        let shipped = try a.post("/\(order.number)/ship", nil, as: florist)
        #expect(shipped.status == 200, "\(shipped.text)")
        let shippedOrder = try shipped.decode(OrderResponse.self)
        #expect(shippedOrder.status == .shipped)
        // `shipment` is an `ExplicitNull`: it decodes only when the key is there, so nil means an explicit null.
        #expect(shippedOrder.shipment == nil)
        a.app.clock.advance(by: 1_800)
        let delivered = try a.post("/\(order.number)/deliver", ["photo_url": "/media/ab/door.jpg"], as: florist)
        #expect(delivered.status == 200, "\(delivered.text)")
        let deliveredOrder = try delivered.decode(OrderResponse.self)
        #expect(deliveredOrder.status == .delivered)
        #expect(deliveredOrder.deliveryPhotoURL == "/media/ab/door.jpg")

        let mine = try a.app.send("GET", "/api/v1/orders/\(order.id.rawValue)", token: a.s.token).decode(OrderResponse.self)
        #expect(mine.status == .delivered)
        #expect(mine.deliveredAt == deliveredOrder.deliveredAt)
        #expect(mine.deliveredAt != nil)
        let confirmed = try a.app.send("POST", "/api/v1/orders/\(order.id.rawValue)/confirm-receipt", token: a.s.token)
        #expect(try confirmed.decode(OrderResponse.self).status == .completed)

        let audit = try a.audit(order.number)
        #expect(audit.map(\.action) == ["order.ship", "order.deliver"])
        #expect(audit.allSatisfy { $0.actor == "florist" && $0.requestID != nil })
    }

    @Test func illegalMovesAre409sUnknownNumbers404sAndRolesWithoutTheRight403s() throws {
        let a = try AdminOrderScenario()
        let florist = try a.app.staffToken(.florist)
        let service = try a.app.staffToken(.service)
        let order = try a.paidOrder()

        // Untyped on purpose: an empty request body.
        let early = try a.post("/\(order.number)/deliver", [String: Any](), as: florist)
        #expect(early.status == 409 && early.errorCode == "order_state_conflict", "\(early.text)")
        #expect(try a.post("/20990101000000/ship", nil, as: florist).status == 404)
        let badPhoto = try a.post("/\(order.number)/ship", ["carrier": "顺丰"], as: florist)
        #expect(badPhoto.status == 400 && badPhoto.errorCode == "validation_failed" && badPhoto.error?.field == "tracking_number")
        #expect(try a.post("/\(order.number)/refund", ["amount_cents": 100, "reason": "x"], as: florist).status == 403)
        #expect(try a.post("/\(order.number)/ship", nil, as: service).status == 403)
        #expect(try a.s.status(order) == .paid)
        #expect(try a.audit(order.number).isEmpty)
    }

    @Test func serviceRefundsPartThroughWechatPayThenNoMoreThanWasPaidAndTheDetailShowsIt() throws {
        let a = try AdminOrderScenario()
        let service = try a.app.staffToken(.service)
        let order = try a.paidOrder()

        let refund = try a.post("/\(order.number)/refund", ["amount_cents": 2_900, "reason": "少了一枝"], as: service)
        #expect(refund.status == 201, "\(refund.text)")
        let refunded = try refund.decode(AdminRefundResponse.self)
        let number = refunded.number
        #expect(refunded.amountCents == 2_900)
        a.waitForRefunds(1)
        #expect(a.gateway.refund(number)?.refundFee == 2_900)

        let over = try a.post("/\(order.number)/refund", ["amount_cents": 10_001, "reason": "多退"], as: service)
        #expect(over.status == 422 && over.errorCode == "refund_exceeds_paid", "\(over.text)")
        #expect(over.error?.field == "amount_cents")
        #expect(over.error?.message.contains("100.00") == true)
        #expect(try a.post("/\(order.number)/refund", ["amount_cents": 0, "reason": "零"], as: service).status == 400)

        let detail = try a.get("/\(order.number)", as: service)
        #expect(detail.status == 200)
        let shown = try detail.decode(AdminOrderDetailResponse.self).body
        #expect(shown.own.buyerPhone == "13900000001")
        #expect(shown.shared.status == .paid)
        let refunds = shown.own.refunds
        #expect(refunds.map(\.number) == [number])
        #expect(refunds.first?.reason == "少了一枝")
        #expect(shown.own.payments.map(\.status) == [.succeeded])

        // the rest goes back with the cancel, through the same machinery as a buyer's cancel
        let cancelled = try a.post("/\(order.number)/cancel", ["reason": "缺货"], as: service)
        #expect((try? cancelled.decode(OrderResponse.self))?.status == .refunding, "\(cancelled.text)")
        a.waitForRefunds(2)
        #expect(a.gateway.allRefunds.values.map(\.refundFee).sorted() == [2_900, 10_000])
        #expect(try a.audit(order.number).map(\.action) == ["order.refund", "order.cancel"])
    }

    @Test func theListFiltersByStatusAndPhoneNewestFirstAndNotesAreKept() throws {
        let a = try AdminOrderScenario()
        let florist = try a.app.staffToken(.florist)
        let unpaid = try a.s.placeOrder(quantity: 1)
        a.app.clock.advance(by: 60)
        let paid = try a.paidOrder()

        let all = try a.get("", as: florist)
        #expect(all.status == 200)
        let allPage = try all.decode(PageResponse<OrderResponse>.self)
        #expect(allPage.items.map(\.number) == [paid.number, unpaid.number])
        #expect(allPage.total == 2 && allPage.perPage == 20)
        let byStatus = try a.get("", query: ["status": "pending_payment", "q": "0001"], as: florist)
        #expect(try byStatus.decode(PageResponse<OrderResponse>.self).items.map(\.number) == [unpaid.number])
        #expect(try a.get("", query: ["status": "lost"], as: florist).status == 400)
        #expect(try a.get("", query: ["from": "2026-13-01"], as: florist).status == 400)

        let note = try a.post("/\(paid.number)/notes", ["text": "买家要求下午送"], as: florist)
        #expect(note.status == 201, "\(note.text)")
        #expect(try note.decode(AdminOrderNoteResponse.self).author == "florist")
        #expect(try a.post("/\(paid.number)/notes", ["text": ""], as: florist).status == 400)
        let notes = try a.get("/\(paid.number)", as: florist).decode(AdminOrderDetailResponse.self).body.own.notes
        #expect(notes.map(\.text) == ["买家要求下午送"])
    }
}
