import CurlClient
import Foundation
import ShopTestSupport
import Testing
@testable import ShopCore

/// WeChat Pay's refund API behind mutual TLS (a Python TLS server in front of the fake gateway).
@Suite("Payments: WeChat refunds with the merchant's client certificate")
struct WechatClientCertificateTests {
    enum Certificate { case merchants, strangers, none }

    /// A paid WeChat order, cancelled and its refund tried, in a shop whose WeChat Pay is behind a
    /// mutual-TLS front and whose refund presents `certificate`.
    func cancelPaidOrder(presenting certificate: Certificate) throws -> (g: GatewayScenario, order: Order, refund: Refund) {
        let g = try GatewayScenario()
        let front = try FakeMutualTLSFront(upstream: g.wechat.baseURL)
        var settings = g.s.test.config.payments
        settings.wechatpayGatewayURL = front.baseURL
        let identity: CurlClient.Identity?
        switch certificate {
        case .merchants: identity = CurlClient.Identity(certificatePEM: front.clientCertificatePEM, privateKeyPEM: front.clientKeyPEM)
        case .strangers: identity = CurlClient.Identity(certificatePEM: front.strangerCertificatePEM, privateKeyPEM: front.strangerKeyPEM)
        case .none: identity = nil
        }
        // every call trusts the test CA; only the refund presents a certificate
        let payments = try PaymentService(pool: g.s.test.pool, settings: settings, mockpayEnabled: true, notifyURL: TestShop.notifyURL, clock: g.s.test.clock.clock,
                                          logger: .silent, transport: CurlTransport(identity: nil, trustedCAPEM: front.caPEM),
                                          refundTransport: CurlTransport(identity: identity, trustedCAPEM: front.caPEM))
        let order = try g.s.placeOrder()
        let intent = try payments.start(order.id, provider: .wechatpay, for: g.s.buyer)
        #expect(intent.payParams["prepayid"]?.isEmpty == false, "the unified order went through the TLS front")
        try g.s.deliverWechat(try g.wechat.pay(order.number))
        _ = try g.s.shop.orders.cancel(order.id, for: g.s.buyer)
        try payments.processRefunds()
        withExtendedLifetime(front) {}
        return (g, order, try #require(try payments.refunds(status: nil).first))
    }

    @Test func theRefundPresentsTheMerchantsClientCertificateAndWechatTakesIt() throws {
        let (g, order, refund) = try cancelPaidOrder(presenting: .merchants)
        #expect(refund.status == .requested)
        #expect(refund.lastError == nil)
        #expect(g.wechat.refunds == [refund.number: order.number])
    }

    @Test func withoutAClientCertificateWechatRefusesTheRefundAndItWaitsForARetry() throws {
        let (g, _, refund) = try cancelPaidOrder(presenting: .none)
        #expect(refund.status == .pending)
        #expect(refund.lastError == "HTTP 403")
        #expect(g.wechat.refunds.isEmpty)
    }

    @Test func aCertificateWechatDidNotIssueFailsTheHandshakeAndRefundsNothing() throws {
        let (g, _, refund) = try cancelPaidOrder(presenting: .strangers)
        #expect(refund.status == .pending)
        #expect(refund.lastError?.hasPrefix("TLS with the client certificate failed") == true)
        #expect(g.wechat.refunds.isEmpty)
    }

    @Test func aClientCertificateThatIsNotOneOrAKeyThatIsNotItsStopsStartUp() throws {
        let test = try TestShop(PaymentKeys.configure)
        let front = try FakeMutualTLSFront(upstream: "http://127.0.0.1:9")
        func start(_ certificate: String, _ key: String) throws {
            var settings = test.config.payments
            settings.wechatpayClientCertPEM = certificate
            settings.wechatpayClientKeyPEM = key
            _ = try PaymentService(pool: test.pool, settings: settings, mockpayEnabled: true, notifyURL: TestShop.notifyURL, clock: test.clock.clock, logger: .silent)
        }
        try start(front.clientCertificatePEM, front.clientKeyPEM)
        #expect(throws: ConfigError.self) { try start(front.clientCertificatePEM, front.strangerKeyPEM) }
        #expect(throws: ConfigError.self) { try start("-----BEGIN CERTIFICATE-----\nnot one\n-----END CERTIFICATE-----", front.clientKeyPEM) }
        #expect(throws: ConfigError.self) { try start(front.clientCertificatePEM, "not a key") }
    }
}
