import ShopCore
import Testing

@Suite("Order status")
struct OrderStatusTests {
    @Test func theStateMachineIsPaymentThenShippingThenDeliveryOrCompletionOrCancellationWithARefundAfterPayment() {
        var moves: Set<[OrderStatus]> = []
        for from in OrderStatus.allCases {
            for to in OrderStatus.allCases where from.canMove(to: to) { moves.insert([from, to]) }
        }
        #expect(moves == [[.pendingPayment, .paid], [.pendingPayment, .cancelled], [.paid, .shipped], [.shipped, .delivered],
                          [.shipped, .completed], [.delivered, .completed], [.paid, .refunding], [.refunding, .refunded]])
    }

    @Test func eachStatusButCompletedIsReachedFromOneStatusOnly() {
        #expect(OrderStatus.pendingPayment.previous == [])
        #expect(OrderStatus.paid.previous == [.pendingPayment])
        #expect(OrderStatus.cancelled.previous == [.pendingPayment])
        #expect(OrderStatus.shipped.previous == [.paid])
        #expect(OrderStatus.delivered.previous == [.shipped])
        // the buyer confirms (or auto-complete completes) whether or not the shop recorded the delivery
        #expect(OrderStatus.completed.previous == [.shipped, .delivered])
        #expect(OrderStatus.refunding.previous == [.paid])
        #expect(OrderStatus.refunded.previous == [.refunding])
    }

    @Test func finishedOrdersGoNowhere() {
        #expect(OrderStatus.completed.next.isEmpty)
        #expect(OrderStatus.cancelled.next.isEmpty)
        #expect(OrderStatus.refunded.next.isEmpty)
    }
}
