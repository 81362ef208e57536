import Foundation
import SQL

extension PaymentService {
    /// The longest wait between two tries of one refund.
    static let maxRefundBackoffSeconds: Int64 = 3_600

    /// Sends the refunds that are due to their providers (all of them, or those of one order), and
    /// confirms those the providers answer for: requested with the idempotent refund number,
    /// confirmed by the answer (Alipay), a refund query (WeChat Pay) or a signed event (mockpay).
    /// A refund the provider could not take is tried again later, waiting longer each time.
    /// Payments flagged `needs_refund` get their refund opened here first. Answers the refunds confirmed.
    @discardableResult
    public func processRefunds(order: OrderID? = nil, limit: Int = 100) throws -> Int {
        let now = clock.unixNow
        let due = try pool.write { db in
            try refundStore.openForFlaggedPayments(at: now, db)
            return try refundStore.due(at: now, order: order, limit: limit, db)
        }
        var confirmed = 0
        for refund in due where try process(refund, at: now) { confirmed += 1 }
        return confirmed
    }

    /// Operators: `shop refunds retry NUMBER`, now, even one that failed. Answers it afterwards.
    public func retryRefund(number: String) throws -> Refund? {
        let now = clock.unixNow
        guard let refund = try pool.write({ db -> Refund? in
            guard try refundStore.retryNow(number, at: now, db) else { return try refundStore.find(number, db) }
            return try refundStore.find(number, db)
        }) else { return nil }
        if refund.status == .pending || refund.status == .requested { _ = try process(refund, at: now) }
        return try pool.read { db in try refundStore.find(number, db) }
    }

    /// Operators: every refund of one order, oldest first.
    public func refunds(order: OrderID) throws -> [Refund] {
        try pool.read { db in try refundStore.all(of: order, db) }
    }

    /// Operators: refunds newest first.
    public func refunds(status: RefundStatus?, limit: Int = 100) throws -> [Refund] {
        try pool.read { db in try refundStore.list(status: status, limit: limit, db) }
    }

    /// One try of one refund; true when it is confirmed now.
    private func process(_ refund: Refund, at now: Int64) throws -> Bool {
        let result: ProviderRefundResult
        do {
            switch refund.provider {
            case .mockpay:
                // mockpay confirms with its signed `refunded` event; asking it is all there is to do
                result = .requested
            case .alipay:
                guard let alipay else { throw PaymentError.providerNotConfigured(.alipay) }
                result = try alipay.refund(orderNumber: refund.orderNumber, amountCents: refund.amountCents,
                                           refundNumber: refund.number, at: now)
            case .wechatpay:
                guard let wechat else { throw PaymentError.providerNotConfigured(.wechatpay) }
                result = refund.status == .requested
                    ? try wechat.refundQuery(refundNumber: refund.number)
                    : try wechat.refund(orderNumber: refund.orderNumber, amountCents: refund.amountCents,
                                        paymentAmountCents: refund.paymentAmountCents, refundNumber: refund.number)
            }
        } catch {
            let backoff = min(Self.maxRefundBackoffSeconds, 60 << Int64(min(refund.attempts, 10)))
            logger.warning("refund try failed", ["refund": refund.number, "provider": refund.provider.rawValue,
                                                 "error": Self.describe(error)])
            try pool.write { db in
                try refundStore.record(refund.number, status: refund.status, error: Self.describe(error), nextAttempt: now + backoff, at: now, db)
            }
            return false
        }
        switch result {
        case .refunded:
            return try pool.write { db in
                // this try counts, as a try the provider only took does
                try refundStore.record(refund.number, status: refund.status, error: nil, nextAttempt: now, at: now, db)
                return try confirmRefund(refund.number, at: now, db)
            }
        case .requested:
            // WeChat Pay is queried a minute from now, until it confirms; mockpay has nothing to ask,
            // so its event is awaited without a try every sweep
            let next = refund.provider == .mockpay ? now + Self.maxRefundBackoffSeconds : now + 60
            try pool.write { db in
                try refundStore.record(refund.number, status: .requested, error: nil, nextAttempt: next, at: now, db)
            }
            return false
        case .refused(let reason):
            logger.error("refund refused", ["refund": refund.number, "provider": refund.provider.rawValue, "reason": reason])
            try pool.write { db in
                try refundStore.record(refund.number, status: .failed, error: reason, nextAttempt: now, at: now, db)
            }
            return false
        }
    }

    /// Marks a refund confirmed and, when it is the refund of a refunding order, the order refunded.
    func confirmRefund(_ number: String, at now: Int64, _ db: any SQLConnection) throws -> Bool {
        guard let refund = try refundStore.find(number, db), try refundStore.markRefunded(number, at: now, db) else { return false }
        try notices?.enqueue(event: .refunded, order: refund.orderID, subject: number, in: db)
        if try refundStore.orderRefundConfirmed(refund.orderID, db) {
            _ = try lifecycle.finishRefund(refund.orderID, at: now, db)
        }
        // an approved after-sale request whose refund this is: refunded now
        try AfterSaleStore().markRefunded(refundNumber: number, db)
        logger.info("refund confirmed", ["refund": number, "order": refund.orderNumber])
        return true
    }
}
