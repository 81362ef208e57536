import ShopCore
import Testing

@Suite("Order status")
struct OrderStatusTests {
    @Test func theStateMachineIsPaymentThenShippingThenCompletionOrCancellationWithARefundAfterPayment() {
        var moves: Set<[OrderStatus]> = []
        for from in OrderStatus.allCases {
            for to in OrderStatus.allCases where from.canMove(to: to) { moves.insert([from, to]) }
        }
        #expect(moves == [[.pendingPayment, .paid], [.pendingPayment, .cancelled], [.paid, .shipped], [.shipped, .completed],
                          [.paid, .refunding], [.refunding, .refunded]])
    }

    @Test func eachStatusIsReachedFromOneStatusOnly() {
        #expect(OrderStatus.pendingPayment.previous == nil)
        #expect(OrderStatus.paid.previous == .pendingPayment)
        #expect(OrderStatus.cancelled.previous == .pendingPayment)
        #expect(OrderStatus.shipped.previous == .paid)
        #expect(OrderStatus.completed.previous == .shipped)
        #expect(OrderStatus.refunding.previous == .paid)
        #expect(OrderStatus.refunded.previous == .refunding)
        for to in OrderStatus.allCases {
            #expect(OrderStatus.allCases.filter { $0.canMove(to: to) }.count <= 1, "\(to)")
        }
    }

    @Test func finishedOrdersGoNowhere() {
        #expect(OrderStatus.completed.next.isEmpty)
        #expect(OrderStatus.cancelled.next.isEmpty)
        #expect(OrderStatus.refunded.next.isEmpty)
    }
}
