@_exported import FakePaymentGateways
import Crypto
import Foundation
import SQL
import SQLite
import ShopCore

/// Fixed secrets and keys of the payment tests: the fake gateways' own (`FakeGatewayKeys`), and mockpay's.
public enum PaymentKeys {
    public static let mockpaySecret = "whsec_floral_test_secret"
    public static var wechatAPIKey: String { FakeGatewayKeys.wechatAPIKey }
    public static var wechatAppID: String { FakeGatewayKeys.wechatAppID }
    public static var wechatMchID: String { FakeGatewayKeys.wechatMchID }
    public static var alipayAppID: String { FakeGatewayKeys.alipayAppID }
    public static var alipaySellerID: String { FakeGatewayKeys.alipaySellerID }
    public static var alipayPublicPEM: String { FakeGatewayKeys.alipayPublicPEM }
    public static var alipayPrivatePEM: String { FakeGatewayKeys.alipayPrivatePEM }
    public static var otherPublicPEM: String { FakeGatewayKeys.otherPublicPEM }
    public static var otherPrivatePEM: String { FakeGatewayKeys.otherPrivatePEM }
    public static var merchantPublicPEM: String { FakeGatewayKeys.merchantPublicPEM }
    public static var merchantPrivatePEM: String { FakeGatewayKeys.merchantPrivatePEM }

    /// A gateway address where nothing listens: the providers' APIs of a test that starts no fake
    /// gateway answer "unreachable" at once, and no test ever reaches the internet.
    public static let closedGatewayURL = "http://127.0.0.1:9"

    /// Every provider configured with the test values; the providers' APIs at `wechatGateway` and
    /// `alipayGateway` (fakes on loopback), or nowhere.
    public static func configure(_ config: inout Config) {
        configure(&config, wechatGateway: nil, alipayGateway: nil)
    }

    public static func configure(_ config: inout Config, wechatGateway: FakeWechatPayGateway?, alipayGateway: FakeAlipayGateway?) {
        config.payments.mockpaySecret = mockpaySecret
        config.payments.wechatpayAPIKey = wechatAPIKey
        config.payments.wechatpayAppID = wechatAppID
        config.payments.wechatpayMchID = wechatMchID
        config.payments.alipayPublicKeyPEM = alipayPublicPEM
        config.payments.alipayPrivateKeyPEM = merchantPrivatePEM
        config.payments.alipayAppID = alipayAppID
        config.payments.alipaySellerID = alipaySellerID
        config.payments.publicBaseURL = "https://shop.floral.example"
        config.payments.wechatpayGatewayURL = wechatGateway?.baseURL ?? closedGatewayURL
        config.payments.alipayGatewayURL = alipayGateway?.gatewayURL ?? closedGatewayURL + "/gateway.do"
        config.payments.providerTimeoutSeconds = 2
    }
}

/// What every payment scenario starts from: one rose SKU and a buyer's address.
extension TestShop {
    /// Imports one SKU, `PAY-ROSE-11` at 64.50 with 20 in stock (a temp `.csv`), and answers its id.
    public func paymentSeedRose() throws -> SKUID {
        let csv = """
            product_code,sku_code,sku_name,title,subtitle,category,price,original_price,stock,description,cover_url,image_urls,attributes,status
            PAY-ROSE,PAY-ROSE-11,11枝,红玫瑰花束,,花束/玫瑰,64.50,,20,,https://img.floral.example/rose.jpg,,,on_sale

            """
        let path = directory.appendingPathComponent("payment-catalog-\(UUID().uuidString).csv").path
        try csv.write(toFile: path, atomically: true, encoding: .utf8)
        let outcome = try shop.catalogImporter.importFile(at: path, options: .init())
        guard outcome.issues.isEmpty else { throw FixtureError("seed rejected: \(outcome.issues)") }
        return try pool.read { db in
            guard let id = try db.scalar("SELECT id FROM skus WHERE code = 'PAY-ROSE-11'", as: SKUID.self) else {
                throw FixtureError("no SKU")
            }
            return id
        }
    }

    /// `event_id status outcome` of every recorded payment event, oldest first.
    public func paymentEvents() throws -> [String] {
        try pool.read { db in
            try db.query("SELECT event_id, status, outcome FROM payment_events ORDER BY id").map {
                "\(try $0.decode("event_id", as: String.self)) \(try $0.decode("status", as: String.self)) "
                    + "\(try $0.decode("outcome", as: String.self))"
            }
        }
    }

    /// Gives `user` one address and answers its id.
    public func paymentAddress(for user: UserID) throws -> AddressID {
        try shop.addresses.create(
            AddressFields(recipient: "王小花", phone: "13800138000", province: "浙江省", city: "杭州市", district: "西湖区",
                          detail: "人民路1号", postalCode: "310000"), for: user).id
    }
}
