import Bulkheads
import Crypto
import CurlClient
import Foundation
import SQL

/// The address a provider posts its notifications about a payment to, from the shop's public base URL.
public typealias PaymentNotifyURL = @Sendable (_ publicBaseURL: String, _ provider: PaymentProvider) -> String

/// Payment attempts and the providers' signed notifications. A notification is verified over its
/// raw bytes first; then, in one transaction, it is recorded once (its provider event id is the
/// key) and applied: the order becomes paid through the order life cycle at most once.
public struct PaymentService: Sendable {
    let pool: any Database
    let settings: Config.Payments
    let clock: Clock
    let logger: Logger
    let verifiers: [PaymentProvider: any PaymentVerifier]
    /// The providers' APIs, when all of their keys are set.
    let wechat: WechatPayGateway?
    let alipay: AlipayGateway?
    /// The limits and circuit breakers every provider call of this node passes.
    public let guardian: ProviderGuard
    let payments = PaymentStore()
    let orders = OrderStore()
    let refundStore = RefundStore()
    let lifecycle = OrderLifecycle()
    /// The outbox the paid and refunded notices go into; nil: none are written.
    let notices: Notices?

    /// `notifyURL` builds the address a provider posts its notifications to from
    /// `payments.public_base_url` (the HTTP side knows the route).
    public init(pool: any Database, settings: Config.Payments, mockpayEnabled: Bool, notifyURL: @escaping PaymentNotifyURL,
                clock: Clock, logger: Logger,
                random: SecureRandom = SecureRandom(), transport: any ProviderTransport = CurlTransport(),
                refundTransport: (any ProviderTransport)? = nil, guardian: ProviderGuard? = nil, notices: Notices? = nil) throws {
        self.notices = notices
        let guardian = guardian ?? ProviderGuard(settings)
        self.guardian = guardian
        let transport = GuardedTransport(inner: transport, guardian: guardian)
        let refundTransport = refundTransport.map { GuardedTransport(inner: $0, guardian: guardian) as any ProviderTransport }
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
        let timeout = TimeInterval(settings.providerTimeoutSeconds)
        if !settings.wechatpayAPIKey.isEmpty, !settings.wechatpayAppID.isEmpty, !settings.wechatpayMchID.isEmpty {
            // the refund API is mutual TLS: with the merchant's client certificate through libcurl
            var identity: CurlClient.Identity?
            if !settings.wechatpayClientCertPEM.isEmpty, !settings.wechatpayClientKeyPEM.isEmpty {
                if let problem = ClientIdentityCheck.problem(certificatePEM: settings.wechatpayClientCertPEM,
                                                             keyPEM: settings.wechatpayClientKeyPEM) {
                    throw ConfigError(key: "payments.wechatpay_client_cert_pem", reason: problem)
                }
                identity = CurlClient.Identity(certificatePEM: settings.wechatpayClientCertPEM,
                                               privateKeyPEM: settings.wechatpayClientKeyPEM)
            }
            wechat = WechatPayGateway(apiKey: settings.wechatpayAPIKey, appID: settings.wechatpayAppID, mchID: settings.wechatpayMchID,
                                      gatewayURL: settings.wechatpayGatewayURL, notifyURL: notifyURL(settings.publicBaseURL, .wechatpay), timeout: timeout,
                                      transport: transport,
                                      refundTransport: refundTransport
                                          ?? (identity.map { GuardedTransport(inner: CurlTransport(identity: $0), guardian: guardian) } ?? transport),
                                      random: random)
        } else {
            wechat = nil
        }
        if let verifier = verifiers[.alipay] as? AlipayVerifier, !settings.alipayPrivateKeyPEM.isEmpty, !settings.alipayAppID.isEmpty {
            let privateKey: RSAPrivateKey
            do {
                privateKey = try RSAPrivateKey(pem: settings.alipayPrivateKeyPEM)
            } catch {
                throw ConfigError(key: "payments.alipay_private_key_pem", reason: "is not an RSA private key (PKCS#8 or PKCS#1 PEM)")
            }
            guard let gateway = URL(string: settings.alipayGatewayURL), gateway.scheme == "https" || gateway.scheme == "http" else {
                throw ConfigError(key: "payments.alipay_gateway_url", reason: "must be an http(s) URL")
            }
            alipay = AlipayGateway(appID: settings.alipayAppID, privateKey: privateKey, publicKey: verifier.publicKey,
                                   gatewayURL: gateway, notifyURL: notifyURL(settings.publicBaseURL, .alipay), timeout: timeout, transport: transport)
        } else {
            alipay = nil
        }
    }

    /// Starts paying an order of one's own that waits for payment: what the client needs for the
    /// channel — the app SDK's parameters (`app`), a signed Alipay cashier URL (`wap`, `page`:
    /// `pay_url`), WeChat's QR code content (`native`: `code_url`) or payment page (`h5`: `mweb_url`).
    /// `pages` are where a payment page sends the buyer back to; nothing arriving there is trusted.
    /// Starting again for the same order, provider and channel while the provider's answer is valid
    /// returns that answer without another call (WeChat's prepay id and code URL live two hours, its
    /// H5 page five minutes, an Alipay order string or URL until the order's deadline); at most
    /// `payments.max_attempts_per_order` fresh starts.
    /// A provider that is called (WeChat Pay's unified order) is called after the attempt is
    /// recorded, outside the transaction, so a slow provider never holds the database; on a request
    /// thread the request first moves to the `payments` bulkhead, so it never holds that thread either.
    public func start(_ orderID: OrderID, provider: PaymentProvider, channel: PaymentChannel = .app, for user: UserID,
                      clientIP: String = "127.0.0.1", pages: PaymentPages? = nil) throws -> PaymentIntent {
        guard provider.channels.contains(channel) else { throw PaymentError.channelNotOffered(provider, channel) }
        guard verifiers[provider] != nil else { throw PaymentError.providerNotConfigured(provider) }
        if provider == .wechatpay, wechat == nil { throw PaymentError.providerNotConfigured(provider) }
        if provider == .alipay, alipay == nil { throw PaymentError.providerNotConfigured(provider) }
        let callsProvider = provider == .wechatpay
        if callsProvider { try guardian.checkAvailable(provider) }
        let now = clock.unixNow
        func existing(_ db: any SQLConnection) throws -> (Order, PaymentIntent?) {
            guard let order = try orders.find(orderID, of: user, db) else { throw OrderError.notFound }
            guard order.status.canMove(to: .paid) else { throw PaymentError.orderNotPayable(order.status) }
            if let kept = try payments.keptAnswer(order: order.id, provider: provider, channel: channel, at: now, db) {
                return (order, Self.intent(kept.id, provider, order, payParamsText: kept.payParams))
            }
            guard try payments.attempts(order: order.id, db) < settings.maxAttemptsPerOrder else {
                throw PaymentError.tooManyAttempts(max: settings.maxAttemptsPerOrder)
            }
            return (order, nil)
        }
        if let kept = try pool.read({ db in try existing(db).1 }) { return kept }
        if callsProvider { try RequestThread.offload(to: .payments) }
        let (order, id, kept) = try pool.write { db -> (Order, PaymentID?, PaymentIntent?) in
            // rival starts of one order are counted one after another
            try db.serialize(on: "payments:order:\(orderID.rawValue)")
            let (order, kept) = try existing(db)
            if let kept { return (order, nil, kept) }
            return (order, try payments.insert(order: order.id, provider: provider, channel: channel, amountCents: order.totalCents,
                                               at: now, db), nil)
        }
        if let kept { return kept }
        guard let id else { preconditionFailure("a start without a kept answer records an attempt") }
        let params = try payParams(provider, channel, order: order, payment: id, clientIP: clientIP, pages: pages, at: now)
        let deadline = Int64(order.payDeadline.timeIntervalSince1970)
        let validUntil = switch (provider, channel) {
        case (.wechatpay, .h5): min(deadline, now + Self.mwebLifetimeSeconds)
        case (.wechatpay, _): min(deadline, now + Self.prepayLifetimeSeconds)
        default: deadline
        }
        try pool.write(durability: .processCrash) { db in
            try payments.keep(id, payParams: JSONValue.canonicalText(params.mapValues { .string($0) }), validUntil: validUntil, db)
        }
        return PaymentIntent(paymentID: id, provider: provider, amountCents: order.totalCents, payParams: params)
    }

    /// How long WeChat Pay keeps a `prepay_id` usable (two hours), less a margin for the buyer's taps.
    static let prepayLifetimeSeconds: Int64 = 2 * 3_600 - 300

    /// How long WeChat keeps an H5 `mweb_url` usable (five minutes), less a margin for the redirect.
    static let mwebLifetimeSeconds: Int64 = 5 * 60 - 60

    private static func intent(_ id: PaymentID, _ provider: PaymentProvider, _ order: Order, payParamsText: String) -> PaymentIntent? {
        guard let object = JSONValue.object(parsing: payParamsText) else { return nil }
        var params: [String: String] = [:]
        for (key, value) in object {
            guard case .string(let text) = value else { return nil }
            params[key] = text
        }
        return PaymentIntent(paymentID: id, provider: provider, amountCents: order.totalCents, payParams: params)
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

    func apply(_ event: PaymentEvent, rawBody: String, at now: Int64, _ db: any SQLConnection) throws -> Outcome {
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
        if event.result == .refunded || event.result == .refundFailed {
            return try applyRefundEvent(event, order: order, at: now, record: record, db)
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
        case .refunded, .refundFailed:
            preconditionFailure("refund events are applied by applyRefundEvent")
        case .succeeded:
            if payment.status == .succeeded || payment.status == .needsRefund {
                try record("recorded", payment.id)
            } else if try lifecycle.markPaid(order.id, at: now, db) {
                try payments.setStatus(payment.id, .succeeded, tradeNo: event.providerTradeNo, at: now, db)
                try notices?.enqueue(event: .paid, order: order.id, in: db)
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

    /// A provider's word about one of our refunds (mockpay's event, WeChat's refund notification,
    /// Alipay's notification of a refunded trade): checked against the refund it names (same order,
    /// same provider, the refund's amount), then confirmed through the path the refund answer and
    /// query take. A refund we never asked for is recorded for an operator, nothing else.
    private func applyRefundEvent(_ event: PaymentEvent, order: Order, at now: Int64,
                                  record: (String, PaymentID?) throws -> Void, _ db: any SQLConnection) throws -> Outcome {
        guard let number = event.refundNumber, let refund = try refundStore.find(number, db), refund.orderID == order.id,
              refund.provider == event.provider else {
            logger.warning("notification of a refund the shop did not ask for",
                           ["provider": event.provider.rawValue, "order": order.number, "refund": event.refundNumber ?? ""])
            try record("recorded", nil)
            return .accepted
        }
        guard event.amountCents == refund.amountCents, event.currency == "CNY" else {
            try record("amount_mismatch", refund.paymentID)
            return .amountMismatch
        }
        if event.result == .refundFailed {
            guard refund.status != .refunded else {
                try record("recorded", refund.paymentID)
                return .accepted
            }
            let reason = event.refundFailure ?? "refund closed by the provider"
            logger.error("refund refused", ["refund": number, "provider": refund.provider.rawValue, "reason": reason])
            try refundStore.record(number, status: .failed, error: reason, nextAttempt: now, at: now, db)
            try record("refund_failed", refund.paymentID)
        } else if try confirmRefund(number, at: now, db) {
            try record("refunded", refund.paymentID)
        } else {
            try record("recorded", refund.paymentID)
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

    private func payParams(_ provider: PaymentProvider, _ channel: PaymentChannel, order: Order, payment: PaymentID, clientIP: String,
                           pages: PaymentPages?, at now: Int64) throws -> [String: String] {
        let deadline = Int64(order.payDeadline.timeIntervalSince1970)
        switch provider {
        case .mockpay:
            return ["payment_id": payment.description, "order_number": order.number,
                    "amount_cents": String(order.totalCents), "currency": "CNY"]
        case .wechatpay:
            guard let wechat else { throw PaymentError.providerNotConfigured(provider) }
            let subject = Self.subject(order)
            switch channel {
            case .native:
                return ["code_url": try wechat.nativePay(orderNumber: order.number, amountCents: order.totalCents, description: subject,
                                                         clientIP: clientIP, deadline: deadline)]
            case .h5:
                return ["mweb_url": try wechat.h5Pay(orderNumber: order.number, amountCents: order.totalCents, description: subject,
                                                     clientIP: clientIP, deadline: deadline, pages: pages)]
            case .app, .wap, .page:
                return try wechat.appPay(orderNumber: order.number, amountCents: order.totalCents, description: subject,
                                         clientIP: clientIP, deadline: deadline, at: now)
            }
        case .alipay:
            guard let alipay else { throw PaymentError.providerNotConfigured(provider) }
            let minutesLeft = (deadline - now) / 60
            if channel == .wap || channel == .page {
                return ["pay_url": try alipay.webPayURL(channel, orderNumber: order.number, amountCents: order.totalCents,
                                                        subject: Self.subject(order), timeoutMinutes: minutesLeft, pages: pages, at: now)]
            }
            return ["order_string": try alipay.orderString(orderNumber: order.number, amountCents: order.totalCents,
                                                           subject: Self.subject(order), timeoutMinutes: minutesLeft, at: now)]
        }
    }

    /// What the buyer's wallet shows: the first item, and how many lines more; at most 40
    /// characters (WeChat's `body` takes 128 bytes), without the characters Alipay refuses in a subject.
    static func subject(_ order: Order) -> String {
        guard let first = order.items.first else { return "Floral \(order.number)" }
        let text = order.items.count == 1 ? "\(first.title) \(first.skuName)" : "\(first.title) 等\(order.items.count)件"
        let cleaned = String(text.map { "/=&\"'<>".contains($0) ? " " : $0 })
        return cleaned.count <= 40 ? cleaned : String(cleaned.prefix(39)) + "…"
    }
}
