import Crypto
import Foundation
import SQL

/// Payment attempts and the providers' signed notifications. A notification is verified over its
/// raw bytes first; then, in one transaction, it is recorded once (its provider event id is the
/// key) and applied: the order becomes paid through the order life cycle at most once.
public struct PaymentService: Sendable {
    let pool: any Database
    let settings: Config.Payments
    let clock: Clock
    let logger: Logger
    let verifiers: [PaymentProvider: any PaymentVerifier]
    private let payments = PaymentStore()
    private let orders = OrderStore()
    private let lifecycle = OrderLifecycle()

    public init(pool: any Database, settings: Config.Payments, mockpayEnabled: Bool, clock: Clock, logger: Logger) throws {
        self.pool = pool
        self.settings = settings
        self.clock = clock
        self.logger = logger
        var verifiers: [PaymentProvider: any PaymentVerifier] = [:]
        if mockpayEnabled { verifiers[.mockpay] = MockpayVerifier(secret: settings.mockpaySecret) }
        if !settings.wechatpayAPIKey.isEmpty {
            verifiers[.wechatpay] = WechatPayVerifier(apiKey: settings.wechatpayAPIKey, appID: settings.wechatpayAppID,
                                                      mchID: settings.wechatpayMchID)
        }
        if !settings.alipayPublicKeyPEM.isEmpty {
            do {
                verifiers[.alipay] = AlipayVerifier(publicKey: try RSAPublicKey(pem: settings.alipayPublicKeyPEM),
                                                    appID: settings.alipayAppID, sellerID: settings.alipaySellerID)
            } catch {
                throw ConfigError(key: "payments.alipay_public_key_pem", reason: "is not an RSA public key (PEM)")
            }
        }
        self.verifiers = verifiers
    }

    /// Starts paying an order of one's own that waits for payment: what the client's SDK needs.
    public func start(_ orderID: OrderID, provider: PaymentProvider, for user: UserID) throws -> PaymentIntent {
        guard verifiers[provider] != nil else { throw PaymentError.providerNotConfigured(provider) }
        let now = clock.unixNow
        return try pool.write { db in
            guard let order = try orders.find(orderID, of: user, db) else { throw OrderError.notFound }
            guard order.status.canMove(to: .paid) else { throw PaymentError.orderNotPayable(order.status) }
            let id = try payments.insert(order: order.id, provider: provider, amountCents: order.totalCents, at: now, db)
            return PaymentIntent(paymentID: id, provider: provider, amountCents: order.totalCents,
                                 payParams: payParams(provider, order: order, payment: id))
        }
    }

    /// Verifies and applies one notification; answers what to acknowledge, or throws
    /// (`invalidSignature`, `amountMismatch`, ...) after recording what should be recorded.
    public func receive(provider name: String, headers: [String: String], body: [UInt8]) throws -> WebhookAcknowledgement {
        guard let provider = PaymentProvider(rawValue: name) else { throw PaymentError.unknownProvider }
        guard let verifier = verifiers[provider] else { throw PaymentError.providerNotConfigured(provider) }
        let now = clock.unixNow
        let event = try verifier.verify(headers: headers, body: body, now: now)
        let raw = String(decoding: body, as: UTF8.self)
        let outcome = try pool.write { db in try apply(event, rawBody: raw, at: now, db) }
        switch outcome {
        case .accepted: break
        case .amountMismatch:
            logger.warning("payment amount mismatch", ["provider": name, "order": event.orderNumber, "event": event.eventID])
            throw PaymentError.amountMismatch
        case .unknownOrder:
            logger.warning("payment for unknown order", ["provider": name, "order": event.orderNumber, "event": event.eventID])
            throw PaymentError.unknownOrder
        }
        switch provider {
        case .mockpay: return .mockpay
        case .wechatpay: return .wechatpay
        case .alipay: return .alipay
        }
    }

    /// Operators: the newest mockpay attempt of an order, started if there is none.
    public func mockpayAttempt(orderNumber: String) throws -> (payment: PaymentID, order: Order) {
        guard verifiers[.mockpay] != nil else { throw PaymentError.providerNotConfigured(.mockpay) }
        let now = clock.unixNow
        return try pool.write { db in
            guard let order = try orders.find(number: orderNumber, db) else { throw OrderError.notFound }
            if let existing = try payments.latest(order: order.id, provider: .mockpay, db) { return (existing.id, order) }
            guard order.status.canMove(to: .paid) else { throw PaymentError.orderNotPayable(order.status) }
            return (try payments.insert(order: order.id, provider: .mockpay, amountCents: order.totalCents, at: now, db), order)
        }
    }

    /// Development only: signs a mockpay notification for one's own order and feeds it through
    /// `receive`, exactly as the provider's call would arrive. Answers the order's status after.
    public func simulateMockpay(_ orderID: OrderID, succeeded: Bool, for user: UserID) throws -> OrderStatus {
        let number: String = try pool.read { db in
            guard let order = try orders.find(orderID, of: user, db) else { throw OrderError.notFound }
            return order.number
        }
        let attempt = try mockpayAttempt(orderNumber: number)
        let event: [String: JSONValue] = [
            "event_id": .string("sim_" + Hex.encode(SecureRandom().bytes(12))),
            "payment_id": .number(Double(attempt.payment.rawValue)), "order_number": .string(number),
            "amount_cents": .number(Double(attempt.order.totalCents)), "currency": .string("CNY"),
            "status": .string(succeeded ? "succeeded" : "failed"), "occurred_at": .string(clock.now.formatted(.iso8601)),
        ]
        let body = Array(JSONValue.canonicalText(event).utf8)
        _ = try receive(provider: PaymentProvider.mockpay.rawValue,
                        headers: ["mockpay-signature": mockpaySignature(body: body, timestamp: clock.unixNow)], body: body)
        return try pool.read { db in try orders.find(orderID, db)?.status ?? .cancelled }
    }

    /// The `Mockpay-Signature` header for a body, signed with the configured secret.
    public func mockpaySignature(body: [UInt8], timestamp: Int64) -> String {
        MockpayVerifier.signatureHeader(secret: settings.mockpaySecret, timestamp: timestamp, body: body)
    }

    /// The answer WeChat Pay expects to a notification it need not send again.
    public static let wechatSuccessReply = WechatXML.successReply

    /// The status of a payment attempt.
    public func status(of payment: PaymentID) throws -> PaymentStatus? {
        try pool.read { db in try payments.find(payment, db)?.status }
    }

    enum Outcome {
        case accepted, amountMismatch, unknownOrder
    }

    private func apply(_ event: PaymentEvent, rawBody: String, at now: Int64, _ db: any SQLConnection) throws -> Outcome {
        // replays and rival notifications of one order are applied one after another
        try db.serialize(on: "payments:order:\(event.orderNumber)")
        if try payments.eventExists(event, db) { return .accepted }
        func record(_ outcome: String, _ payment: PaymentID?) throws {
            _ = try payments.recordEvent(event, payment: payment, outcome: outcome, rawBody: rawBody, at: now, db)
        }
        guard let order = try orders.find(number: event.orderNumber, db) else {
            try record("unknown_order", nil)
            return .unknownOrder
        }
        guard event.amountCents == order.totalCents, event.currency == "CNY" else {
            try record("amount_mismatch", nil)
            return .amountMismatch
        }
        let payment = try attempt(for: event, order: order, at: now, db)
        switch event.result {
        case .ignored:
            try record("recorded", payment.id)
        case .failed:
            if payment.status == .pending {
                try payments.setStatus(payment.id, .failed, tradeNo: event.providerTradeNo, at: now, db)
                try record("failed", payment.id)
            } else {
                try record("recorded", payment.id)
            }
        case .succeeded:
            if payment.status == .succeeded || payment.status == .needsRefund {
                try record("recorded", payment.id)
            } else if try lifecycle.markPaid(order.id, at: now, db) {
                try payments.setStatus(payment.id, .succeeded, tradeNo: event.providerTradeNo, at: now, db)
                try record("paid", payment.id)
            } else if try order.status == .cancelled || payments.otherSucceeded(order: order.id, except: payment.id, db) {
                try payments.setStatus(payment.id, .needsRefund, tradeNo: event.providerTradeNo, at: now, db)
                try record("needs_refund", payment.id)
                logger.warning("payment needs refund", ["order": order.number, "payment": payment.id.description])
            } else {
                try payments.setStatus(payment.id, .succeeded, tradeNo: event.providerTradeNo, at: now, db)
                try record("recorded", payment.id)
            }
        }
        return .accepted
    }

    /// The attempt an event is about: the one it names, else the newest of that provider, else a new one.
    private func attempt(for event: PaymentEvent, order: Order, at now: Int64, _ db: any SQLConnection) throws -> PaymentStore.Payment {
        if let id = event.paymentID, let named = try payments.find(id, db), named.orderID == order.id { return named }
        if let latest = try payments.latest(order: order.id, provider: event.provider, db) { return latest }
        let id = try payments.insert(order: order.id, provider: event.provider, amountCents: order.totalCents, at: now, db)
        guard let created = try payments.find(id, db) else { throw PaymentError.unknownOrder }
        return created
    }

    private func payParams(_ provider: PaymentProvider, order: Order, payment: PaymentID) -> [String: String] {
        switch provider {
        case .mockpay:
            return ["payment_id": payment.description, "order_number": order.number,
                    "amount_cents": String(order.totalCents), "currency": "CNY"]
        case .wechatpay:
            return ["appid": settings.wechatpayAppID, "mch_id": settings.wechatpayMchID, "out_trade_no": order.number,
                    "total_fee": String(order.totalCents), "fee_type": "CNY", "trade_type": "APP"]
        case .alipay:
            return ["app_id": settings.alipayAppID, "out_trade_no": order.number,
                    "total_amount": Money.yuan(fromCents: order.totalCents), "product_code": "QUICK_MSECURITY_PAY",
                    "subject": "Floral order \(order.number)"]
        }
    }
}
