import Foundation
import SQL
import SQLite
import ShopTestSupport
import Testing
@testable import ShopCore

/// A shop with every provider configured, one SKU at 64.50 and a buyer with an address.
final class PaymentScenario: @unchecked Sendable {
    static let price: Int64 = 6_450

    let test: TestShop
    let sku: SKUID
    let buyer: UserID
    let address: AddressID
    var shop: Shop { test.shop }
    var payments: PaymentService { test.shop.payments }
    var now: Int64 { test.clock.clock.unixNow }

    init(_ configure: (inout Config) -> Void = PaymentKeys.configure) throws {
        test = try TestShop(configure)
        sku = try test.paymentSeedRose()
        (buyer, address) = try Self.person(test, phone: "13900000001")
    }

    /// Registers `phone` and gives the user one address.
    static func person(_ test: TestShop, phone: String) throws -> (UserID, AddressID) {
        let user = try test.register(phone).user.id
        return (user, try test.paymentAddress(for: user))
    }

    /// A "buy now" order of `quantity` roses (64.50 each) by the buyer, waiting for payment.
    func placeOrder(quantity: Int = 2) throws -> Order {
        try shop.orders.checkout(CheckoutRequest(addressID: address, items: [.init(skuID: sku, quantity: quantity)]),
                                 idempotencyKey: try IdempotencyKey(UUID().uuidString), for: buyer, clientIP: "127.0.0.1").order
    }

    func order(_ id: OrderID) throws -> Order { try shop.orders.order(id, for: buyer) }

    /// Makes every kept provider answer stale, so the next start records a new attempt.
    func expireKeptAnswers() throws {
        try test.pool.write { db in try db.run("UPDATE payments SET valid_until = 0") }
    }

    /// The rose product's `sales`.
    func sales() throws -> Int64 { try test.orderSales(of: sku) }

    /// `event_id status outcome` of every recorded event, oldest first.
    func events() throws -> [String] { try test.paymentEvents() }

    /// `provider status` of every payment of an order, oldest first.
    func paymentRows(_ order: OrderID) throws -> [String] {
        try test.pool.read { db in
            try db.query("SELECT provider, status FROM payments WHERE order_id = \(order) ORDER BY id").map {
                "\(try $0.decode("provider", as: String.self)) \(try $0.decode("status", as: String.self))"
            }
        }
    }

    /// Every row of the tables a notification may touch, to prove a refused one wrote nothing.
    func snapshot() throws -> [String] {
        try test.pool.read { db in
            var rows: [String] = []
            for table in ["orders", "payments", "payment_events", "products", "skus"] {
                let (columns, values) = try TestDatabase.rows(of: table, db)
                for row in values {
                    rows.append(table + ": " + zip(columns, row).map { "\($0)=\($1)" }.joined(separator: ","))
                }
            }
            return rows
        }
    }

    // MARK: notifications

    /// A mockpay notification body for `order` (the amount and currency are the order's unless given).
    func mockpayBody(_ order: Order, event: String, status: String = "succeeded", payment: PaymentID? = nil,
                     amount: Int64? = nil, currency: String = "CNY") -> [UInt8] {
        var object: [String: Any] = ["event_id": event, "order_number": order.number, "amount_cents": amount ?? order.totalCents,
                                     "currency": currency, "status": status, "occurred_at": "2026-11-30T08:00:00Z"]
        if let payment { object["payment_id"] = payment.rawValue }
        return Array((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data())
    }

    /// Delivers a mockpay body signed at `timestamp` (now unless given) with `secret`.
    @discardableResult
    func deliverMockpay(_ body: [UInt8], timestamp: Int64? = nil, secret: String = PaymentKeys.mockpaySecret) throws
        -> WebhookAcknowledgement {
        try payments.receive(provider: "mockpay",
                             headers: ["mockpay-signature": PaymentSigner.mockpay(body, timestamp: timestamp ?? now, secret: secret)],
                             body: body)
    }

    /// The fields of a WeChat Pay v2 payment notification for `order`, unsigned.
    func wechatFields(_ order: Order, transaction: String, resultCode: String = "SUCCESS", totalFee: Int64? = nil)
        -> [String: String] {
        ["appid": PaymentKeys.wechatAppID, "mch_id": PaymentKeys.wechatMchID, "bank_type": "CFT", "fee_type": "CNY",
         "is_subscribe": "N", "nonce_str": "5d2b6c2a8db53831f7eda20af46e531c", "openid": "oUpF8uMEb4qRXf22hE3X68TekukE",
         "out_trade_no": order.number, "result_code": resultCode, "return_code": "SUCCESS", "time_end": "20261130160005",
         "total_fee": String(totalFee ?? order.totalCents), "cash_fee": String(totalFee ?? order.totalCents),
         "trade_type": "APP", "transaction_id": transaction]
    }

    /// `fields` signed (MD5) and wrapped as the XML WeChat posts.
    func wechatBody(_ fields: [String: String], key: String = PaymentKeys.wechatAPIKey) -> [UInt8] {
        var signed = fields
        signed["sign"] = PaymentSigner.wechat(fields, key: key)
        return PaymentSigner.wechatXML(signed)
    }

    @discardableResult
    func deliverWechat(_ body: [UInt8]) throws -> WebhookAcknowledgement {
        try payments.receive(provider: "wechatpay", headers: ["content-type": "text/xml"], body: body)
    }

    /// The fields of an Alipay async notify for `order`, unsigned.
    func alipayFields(_ order: Order, notify: String, status: String = "TRADE_SUCCESS", totalAmount: String? = nil)
        -> [(String, String)] {
        [("gmt_create", "2026-11-30 16:00:00"), ("charset", "utf-8"), ("seller_id", PaymentKeys.alipaySellerID),
         ("subject", "鲜花订单 \(order.number)"), ("buyer_id", "2088102177846880"), ("notify_id", notify),
         ("notify_type", "trade_status_sync"), ("trade_status", status),
         ("total_amount", totalAmount ?? Money.yuan(fromCents: order.totalCents)), ("app_id", PaymentKeys.alipayAppID),
         ("gmt_payment", "2026-11-30 16:00:05"), ("notify_time", "2026-11-30 16:00:06"), ("version", "1.0"),
         ("out_trade_no", order.number), ("trade_no", "2026113022001446880500\(notify.suffix(6))"),
         ("auth_app_id", PaymentKeys.alipayAppID)]
    }

    /// `fields` signed RSA2 with `privateKeyPEM` and form-encoded, `sign` and `sign_type` last.
    func alipayBody(_ fields: [(String, String)], privateKeyPEM: String = PaymentKeys.alipayPrivatePEM) throws -> [UInt8] {
        let content = PaymentSigner.alipayContent(Dictionary(fields, uniquingKeysWith: { first, _ in first }))
        let sign = try PaymentSigner.rsaSHA256(content, privateKeyPEM: privateKeyPEM)
        return PaymentSigner.form(fields + [("sign_type", "RSA2"), ("sign", sign)])
    }

    @discardableResult
    func deliverAlipay(_ body: [UInt8]) throws -> WebhookAcknowledgement {
        try payments.receive(provider: "alipay", headers: ["content-type": "application/x-www-form-urlencoded"], body: body)
    }
}

/// What racing threads saw, from any thread.
typealias PaymentOutcomes = Outcomes<String>

/// The `PaymentError` that `body` throws; nil when it returns or throws anything else.
func paymentError<T>(_ body: () throws -> T) -> PaymentError? {
    do {
        _ = try body()
        return nil
    } catch let error as PaymentError {
        return error
    } catch {
        return nil
    }
}

extension PaymentError {
    var isInvalidSignature: Bool {
        if case .invalidSignature = self { true } else { false }
    }

    var isMalformed: Bool {
        if case .malformed = self { true } else { false }
    }
}
