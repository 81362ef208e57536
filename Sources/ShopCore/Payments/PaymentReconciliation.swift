import Foundation
import SQL

/// What asking a provider about one unpaid order found.
public struct ReconcileOutcome: Sendable, Equatable {
    public enum Result: Sendable, Equatable {
        /// The provider holds a payment: the order is paid now (or the payment recorded).
        case paid
        case notPaid
        /// The provider could not be asked, or its answer could not be used: the reason.
        case failed(String)
    }

    public let orderID: OrderID
    public let orderNumber: String
    public let provider: PaymentProvider
    public let result: Result
}

extension PaymentService {
    /// How long after its deadline an order whose provider cannot be reached is kept from
    /// cancellation, waiting for the query to answer.
    static let unreachableGraceSeconds: Int64 = 86_400

    /// Asks the providers about unpaid orders with a started WeChat Pay or Alipay payment,
    /// created at or after `since` (or past their pay deadline, when `expiredOnly`), and applies
    /// each payment found exactly as its notification would be (amount check, de-duplication).
    public func reconcile(since: Int64? = nil, expiredOnly: Bool = false, limit: Int = 500) throws -> [ReconcileOutcome] {
        let now = clock.unixNow
        let candidates = try pool.read { db in
            try payments.unpaidWithProviderAttempt(createdSince: since, deadlineBy: expiredOnly ? now : nil, limit: limit, db)
        }
        return candidates.map { candidate in
            ReconcileOutcome(orderID: candidate.orderID, orderNumber: candidate.orderNumber, provider: candidate.provider,
                             result: settle(candidate.orderNumber, provider: candidate.provider))
        }
    }

    /// Before the sweeper cancels unpaid orders past their deadline: asks the providers about those
    /// with a started payment, marks the paid ones paid, and answers the orders not to cancel yet
    /// because their provider could not be asked (for at most `unreachableGraceSeconds`).
    public func settleExpiredOrders() throws -> Set<OrderID> {
        let now = clock.unixNow
        let candidates = try pool.read { db in
            try payments.unpaidWithProviderAttempt(createdSince: nil, deadlineBy: now, limit: 500, db)
        }
        var held = Set<OrderID>()
        for candidate in candidates {
            let result = settle(candidate.orderNumber, provider: candidate.provider)
            if case .failed = result, now - candidate.payDeadline < Self.unreachableGraceSeconds { held.insert(candidate.orderID) }
        }
        return held
    }

    private func settle(_ orderNumber: String, provider: PaymentProvider) -> ReconcileOutcome.Result {
        let now = clock.unixNow
        do {
            let answer: ProviderQueryResult
            switch provider {
            case .wechatpay:
                guard let wechat else { throw PaymentError.providerNotConfigured(provider) }
                answer = try wechat.query(orderNumber: orderNumber)
            case .alipay:
                guard let alipay else { throw PaymentError.providerNotConfigured(provider) }
                answer = try alipay.query(orderNumber: orderNumber, at: now)
            case .mockpay:
                return .notPaid
            }
            guard case .paid(let eventID, let tradeNo, let amount, let currency, let raw) = answer else { return .notPaid }
            let event = PaymentEvent(provider: provider, eventID: eventID, orderNumber: orderNumber, paymentID: nil,
                                     amountCents: amount, currency: currency, result: .succeeded, providerTradeNo: tradeNo)
            switch try pool.write({ db in try apply(event, rawBody: raw, at: now, db) }) {
            case .accepted:
                // accepted also covers an event seen before (say, refused for its amount): only a paid order counts
                let status = try pool.read { db in try orders.find(number: orderNumber, db)?.status }
                guard status?.isPaidAndKept == true else {
                    return .failed("the provider's payment did not pay the order (\(status?.rawValue ?? "no order"))")
                }
                logger.info("payment found by query", ["provider": provider.rawValue, "order": orderNumber])
                return .paid
            case .amountMismatch:
                logger.warning("queried payment amount mismatch", ["provider": provider.rawValue, "order": orderNumber])
                return .failed("amount or currency differ from the order's")
            case .unknownOrder:
                return .failed("no such order")
            }
        } catch {
            logger.warning("payment query failed", ["provider": provider.rawValue, "order": orderNumber,
                                                    "error": String(describing: error)])
            return .failed(Self.describe(error))
        }
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case PaymentError.providerError(_, let message): return message
        case PaymentError.providerTimeout: return "no answer in time"
        case PaymentError.providerNotConfigured(let provider): return "\(provider.rawValue) is not configured"
        default: return String(describing: error)
        }
    }
}

extension PaymentStore {
    struct Candidate {
        let orderID: OrderID
        let orderNumber: String
        let payDeadline: Int64
        let provider: PaymentProvider
    }

    /// Unpaid orders with a pending WeChat Pay or Alipay attempt, one row per order and provider.
    func unpaidWithProviderAttempt(createdSince: Int64?, deadlineBy: Int64?, limit: Int, _ db: any SQLConnection) throws -> [Candidate] {
        var conditions: [SQL] = [
            "o.status = \(OrderStatus.pendingPayment)",
            "p.status = \(PaymentStatus.pending)",
            "p.provider IN (\(PaymentProvider.wechatpay), \(PaymentProvider.alipay))",
        ]
        if let createdSince { conditions.append("o.created_at >= \(createdSince)") }
        if let deadlineBy { conditions.append("o.pay_deadline <= \(deadlineBy)") }
        return try db.query("""
            SELECT DISTINCT o.id, o.number, o.pay_deadline, p.provider FROM orders o JOIN payments p ON p.order_id = o.id
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY o.pay_deadline, o.id LIMIT \(limit)
            """).map { row in
            Candidate(orderID: try row.decode("id"), orderNumber: try row.decode("number"), payDeadline: try row.decode("pay_deadline"),
                      provider: try row.decode("provider"))
        }
    }
}
