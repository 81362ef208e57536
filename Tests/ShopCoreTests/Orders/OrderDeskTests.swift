import Foundation
import FakePaymentGateways
import SQL
import ShopTestSupport
import Testing
@testable import ShopCore

extension GatewayScenario {
    /// An order of two roses (129.00) paid through `provider`'s own notification.
    func paidOrder(_ provider: PaymentProvider) throws -> Order {
        let order = try s.placeOrder(quantity: 2)
        let intent = try s.payments.start(order.id, provider: provider, for: s.buyer)
        if provider == .alipay {
            try alipay.openApp(orderString: try #require(intent.payParams["order_string"]))
            _ = try s.payments.receive(provider: "alipay", headers: [:], body: try alipay.pay(order.number))
        } else {
            _ = try s.payments.receive(provider: "wechatpay", headers: ["content-type": "text/xml"], body: try wechat.pay(order.number))
        }
        return try s.order(order.id)
    }

    /// The audit log's entries on one order, oldest first: `action actor`.
    func audit(_ number: String) throws -> [AuditEntry] {
        try AuditLog(pool: s.test.pool).entries(AuditFilter(target: "order:\(number)"), page: try PageRequest(perPage: 100)).items.reversed()
    }
}

@Suite("Orders: the operators' desk")
struct OrderDeskTests {
    static let florist = StaffActor.commandLine(user: "florist")

    @Test func aPaidOrderShipsByTheShopsCourierIsDeliveredWithAPhotoAndTheBuyerCompletesIt() throws {
        let g = try GatewayScenario()
        let order = try g.paidOrder(.alipay)

        let shipped = try g.s.shop.orders.ship(number: order.number, carrier: " ", trackingNumber: nil, by: Self.florist)
        #expect(shipped.status == .shipped)
        #expect(shipped.shipment == nil)
        g.s.test.clock.advance(by: 3_600)
        let delivered = try g.s.shop.orders.deliver(number: order.number, photoURL: "/media/ab/door.jpg", by: Self.florist)
        #expect(delivered.status == .delivered)
        #expect(delivered.deliveredAt == g.s.test.clock.now)
        #expect(delivered.deliveryPhotoURL == "/media/ab/door.jpg")

        let completed = try g.s.shop.orders.confirmReceipt(order.id, for: g.s.buyer)
        #expect(completed.status == .completed)
        let audit = try g.audit(order.number)
        #expect(audit.map(\.action) == ["order.ship", "order.deliver"])
        #expect(audit.map(\.actor) == ["cli:florist", "cli:florist"])
        #expect(audit[1].before?.contains(#""status":"shipped""#) == true)
        #expect(audit[1].after?.contains(#""delivery_photo_url":"/media/ab/door.jpg""#) == true)
        #expect(audit[1].after?.contains(#""status":"delivered""#) == true)
    }

    @Test func illegalMovesConflictNameTheStatusAndWriteNothing() throws {
        let g = try GatewayScenario()
        let unpaid = try g.s.placeOrder()
        #expect(throws: OrderError.stateConflict(current: .pendingPayment, action: .ship)) {
            try g.s.shop.orders.ship(number: unpaid.number, carrier: nil, trackingNumber: nil, by: Self.florist)
        }
        let paid = try g.paidOrder(.alipay)
        #expect(throws: OrderError.stateConflict(current: .paid, action: .deliver)) {
            try g.s.shop.orders.deliver(number: paid.number, photoURL: nil, by: Self.florist)
        }
        #expect(throws: OrderError.stateConflict(current: .pendingPayment, action: .refund)) {
            try g.s.shop.orders.refund(number: unpaid.number, amountCents: 100, reason: "缺货", by: Self.florist)
        }
        #expect(throws: OrderError.notFound) {
            try g.s.shop.orders.deliver(number: "20261130000000000", photoURL: nil, by: Self.florist)
        }
        #expect(throws: ValidationError("photo_url", .url)) {
            try g.s.shop.orders.deliver(number: paid.number, photoURL: "https://evil.example/x.jpg", by: Self.florist)
        }
        #expect(throws: ValidationError("tracking_number", .empty)) {
            try g.s.shop.orders.ship(number: paid.number, carrier: "顺丰", trackingNumber: nil, by: Self.florist)
        }
        #expect(try g.s.order(paid.id).status == .paid)
        #expect(try g.s.order(unpaid.id).status == .pendingPayment)
        #expect(try g.audit(paid.number).isEmpty && g.audit(unpaid.number).isEmpty)
    }

    @Test(arguments: [PaymentProvider.alipay, .wechatpay])
    func partialRefundsGoThroughTheProviderUnderTheirOwnNumbersAndNeverExceedThePayment(provider: PaymentProvider) throws {
        let g = try GatewayScenario()
        let order = try g.paidOrder(provider)
        _ = try g.s.shop.orders.ship(number: order.number, carrier: "顺丰", trackingNumber: "SF1", by: Self.florist)

        let first = try g.s.shop.orders.refund(number: order.number, amountCents: 3_000, reason: "一枝花蔫了", by: Self.florist)
        #expect(first.amountCents == 3_000 && first.paymentAmountCents == 12_900 && first.reason == "一枝花蔫了")
        try g.s.payments.processRefunds(order: order.id)
        #expect(throws: OrderError.refundExceedsPaid(availableCents: 9_900)) {
            try g.s.shop.orders.refund(number: order.number, amountCents: 9_901, reason: "多退", by: Self.florist)
        }
        let second = try g.s.shop.orders.refund(number: order.number, amountCents: 9_900, reason: "全部退回", by: Self.florist)
        try g.s.payments.processRefunds(order: order.id)
        #expect(throws: OrderError.refundExceedsPaid(availableCents: 0)) {
            try g.s.shop.orders.refund(number: order.number, amountCents: 1, reason: "再退", by: Self.florist)
        }

        #expect(first.number != second.number)
        let taken = provider == .alipay ? g.alipay.refunds : g.wechat.refunds
        #expect(taken == [first.number: order.number, second.number: order.number])
        if provider == .wechatpay {
            #expect(g.wechat.refund(first.number)?.refundFee == 3_000)
            #expect(g.wechat.refund(second.number)?.refundFee == 9_900)
        }
        // the order keeps its status: the money went back, the flowers went out
        #expect(try g.s.order(order.id).status == .shipped)
        let detail = try g.s.shop.orders.detail(number: order.number)
        #expect(detail.refunds.map(\.amountCents) == [3_000, 9_900])
        #expect(detail.buyerPhone == "13900000001")
        #expect(try g.audit(order.number).map(\.action) == ["order.ship", "order.refund", "order.refund"])
    }

    @Test func cancellingAPaidOrderAfterAPartialRefundSendsBackOnlyWhatIsLeft() throws {
        let g = try GatewayScenario()
        let order = try g.paidOrder(.alipay)
        let part = try g.s.shop.orders.refund(number: order.number, amountCents: 2_900, reason: "少一枝", by: Self.florist)
        try g.s.payments.processRefunds(order: order.id)

        let cancelled = try g.s.shop.orders.cancel(number: order.number, reason: "花店缺货", by: Self.florist)
        #expect(cancelled.status == .refunding)
        #expect(try g.stock() == 20)
        try g.s.payments.processRefunds(order: order.id)

        let refunded = try g.s.order(order.id)
        #expect(refunded.status == .refunded)
        #expect(refunded.refund?.amountCents == 10_000)
        #expect(try g.s.payments.refunds(order: order.id).map(\.amountCents) == [2_900, 10_000])
        #expect(g.alipay.refunds.count == 2 && g.alipay.refunds[part.number] == order.number)
        let audit = try g.audit(order.number)
        #expect(audit.map(\.action) == ["order.refund", "order.cancel"])
        #expect(audit[1].after?.contains(#""cancel_reason":"花店缺货""#) == true)
    }

    @Test func racingRefundsAndACancelNeverGiveBackMoreThanWasPaid() throws {
        let g = try GatewayScenario()
        let order = try g.paidOrder(.alipay)
        let outcomes = Outcomes<String>()
        let shop = g.s.shop
        race(6) { index in
            do {
                if index == 0 {
                    _ = try shop.orders.cancel(number: order.number, reason: "缺货", by: Self.florist)
                } else {
                    _ = try shop.orders.refund(number: order.number, amountCents: 5_000, reason: "第\(index)次", by: Self.florist)
                }
                outcomes.record("ok")
            } catch {
                outcomes.record("refused")
            }
        }
        let refunds = try g.s.payments.refunds(order: order.id)
        #expect(refunds.reduce(0) { $0 + $1.amountCents } <= 12_900, "\(refunds.map(\.amountCents))")
        #expect(try g.s.order(order.id).status == .refunding, "the cancel always wins or follows the refunds")
        #expect(refunds.reduce(0) { $0 + $1.amountCents } == 12_900, "the cancel refunds whatever the parts left")
    }

    @Test func cancellingAnUnpaidOrderGivesTheStockBackAndAShippedOneConflicts() throws {
        let g = try GatewayScenario()
        let unpaid = try g.s.placeOrder(quantity: 3)
        #expect(try g.stock() == 17)
        let cancelled = try g.s.shop.orders.cancel(number: unpaid.number, reason: "买家电话取消", by: Self.florist)
        #expect(cancelled.status == .cancelled)
        #expect(try g.stock() == 20)

        let paid = try g.paidOrder(.alipay)
        _ = try g.s.shop.orders.ship(number: paid.number, carrier: nil, trackingNumber: nil, by: Self.florist)
        #expect(throws: OrderError.stateConflict(current: .shipped, action: .cancel)) {
            try g.s.shop.orders.cancel(number: paid.number, reason: "太晚了", by: Self.florist)
        }
        #expect(throws: ValidationError("reason", .empty)) {
            try g.s.shop.orders.cancel(number: paid.number, reason: "  ", by: Self.florist)
        }
    }

    @Test func autoCompleteCompletesDeliveredOrdersAsWellAsShippedOnes() throws {
        let g = try GatewayScenario()
        let shipped = try g.paidOrder(.alipay)
        let delivered = try g.paidOrder(.alipay)
        _ = try g.s.shop.orders.ship(number: shipped.number, carrier: nil, trackingNumber: nil, by: Self.florist)
        _ = try g.s.shop.orders.ship(number: delivered.number, carrier: nil, trackingNumber: nil, by: Self.florist)
        _ = try g.s.shop.orders.deliver(number: delivered.number, photoURL: nil, by: Self.florist)

        g.s.test.clock.advance(by: TimeInterval(g.s.test.config.orders.autoCompleteDays * 86_400 + 1))
        #expect(try g.s.shop.orders.sweep().completed == 2)
        #expect(try g.s.order(shipped.id).status == .completed)
        #expect(try g.s.order(delivered.id).status == .completed)
    }

    @Test func theDeskFindsOrdersByNumberPhonesAndRecipientAndFilters() throws {
        let g = try GatewayScenario()
        let first = try g.s.placeOrder(quantity: 1)
        g.s.test.clock.advance(by: 60)
        let second = try g.paidOrder(.alipay)
        let orders = g.s.shop.orders
        let page = try PageRequest(page: 1, perPage: 20)

        #expect(try orders.search(OrderFilter(), page: page).items.map(\.number) == [second.number, first.number])
        #expect(try orders.search(OrderFilter(query: String(first.number.suffix(10))), page: page).items.map(\.number) == [first.number])
        // the buyer's phone in part, the recipient's, the recipient's name
        #expect(try orders.search(OrderFilter(query: "00000001"), page: page).total == 2)
        let recipient = first.address
        #expect(try orders.search(OrderFilter(query: String(recipient.phone.suffix(4))), page: page).total == 2)
        #expect(try orders.search(OrderFilter(query: String(recipient.recipient.prefix(1))), page: page).total == 2)
        #expect(try orders.search(OrderFilter(query: "%"), page: page).total == 0)
        #expect(try orders.search(OrderFilter(status: .paid), page: page).items.map(\.number) == [second.number])
        let today = CalendarDay(g.s.test.clock.now, in: TimeZone(identifier: "Asia/Shanghai")!)
        #expect(try orders.search(OrderFilter(from: today, to: today), page: page).total == 2)
        #expect(try orders.search(OrderFilter(from: today.adding(days: 1)), page: page).total == 0)
        #expect(try orders.search(OrderFilter(from: today, to: today.adding(days: -1)), page: page).total == 0)
    }

    @Test func notesAreCheckedKeptInOrderWithTheirAuthorAndAudited() throws {
        let g = try GatewayScenario()
        let order = try g.s.placeOrder()
        _ = try g.s.shop.orders.addNote(number: order.number, text: "  买家要求下午送\n别按门铃 ", by: Self.florist)
        g.s.test.clock.advance(by: 5)
        _ = try g.s.shop.orders.addNote(number: order.number, text: "已电话确认", by: .commandLine(user: "service"))
        #expect(throws: ValidationError("text", .empty)) {
            try g.s.shop.orders.addNote(number: order.number, text: " \n", by: Self.florist)
        }
        #expect(throws: ValidationError("text", .controlCharacters)) {
            try g.s.shop.orders.addNote(number: order.number, text: "a\u{7}b", by: Self.florist)
        }
        #expect(throws: ValidationError.self) {
            try g.s.shop.orders.addNote(number: order.number, text: String(repeating: "花", count: 501), by: Self.florist)
        }
        let notes = try g.s.shop.orders.detail(number: order.number).notes
        #expect(notes.map(\.text) == ["买家要求下午送\n别按门铃", "已电话确认"])
        #expect(notes.map(\.author) == ["cli:florist", "cli:service"])
        #expect(try g.audit(order.number).map(\.action) == ["order.note", "order.note"])
    }
}
