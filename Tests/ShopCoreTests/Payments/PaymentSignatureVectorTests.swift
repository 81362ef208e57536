import Crypto
import Foundation
import ShopTestSupport
import Testing
@testable import ShopCore

/// Each provider's signature, checked against values computed outside the code under test
/// (WeChat's published example, the openssl command line) and against a wrong key and a tampered field.
@Suite("Payment signature vectors")
struct PaymentSignatureVectorTests {
    // MARK: mockpay

    static let mockpayTime: Int64 = 1_796_025_600
    static let mockpayBody = #"{"event_id":"evt_vector_1","payment_id":1,"order_number":"20261130000123","amount_cents":12900,"currency":"CNY","status":"succeeded","occurred_at":"2026-11-30T08:00:00Z"}"#
    /// `printf '%s' "1796025600.<body>" | openssl dgst -sha256 -hmac whsec_floral_test_secret`
    static let mockpayMAC = "1e1b2f625d01297d0a1a401b4d2d7db95c3c7db7f3c4cafe913f41230b52adec"
    /// The same with `-hmac whsec_some_other_secret`.
    static let mockpayOtherMAC = "b1375c9bd53464fa5dc2730f076e550b9ccb3c375e4b21e723f381e3a2c4506b"

    let mockpay = MockpayVerifier(secret: PaymentKeys.mockpaySecret)

    @Test func mockpaySignatureHeaderMatchesTheOpenSSLVector() {
        #expect(MockpayVerifier.signatureHeader(secret: PaymentKeys.mockpaySecret, timestamp: Self.mockpayTime,
                                                body: Array(Self.mockpayBody.utf8))
                == "t=1796025600,v1=\(Self.mockpayMAC)")
        #expect(PaymentSigner.mockpay(Array(Self.mockpayBody.utf8), timestamp: Self.mockpayTime) == "t=1796025600,v1=\(Self.mockpayMAC)")
    }

    @Test func mockpayVectorVerifiesIntoTheEventItDescribes() throws {
        let event = try mockpay.verify(headers: ["mockpay-signature": "t=1796025600,v1=\(Self.mockpayMAC)"],
                                       body: Array(Self.mockpayBody.utf8), now: Self.mockpayTime + 10)
        #expect(event == PaymentEvent(provider: .mockpay, eventID: "evt_vector_1", orderNumber: "20261130000123",
                                      paymentID: PaymentID(1), amountCents: 12_900, currency: "CNY", result: .succeeded,
                                      providerTradeNo: nil))
    }

    @Test func mockpayAcceptsAnyOfSeveralV1ValuesWhileTheSecretRotates() throws {
        let header = "t=1796025600,v1=\(Self.mockpayOtherMAC),v1=\(Self.mockpayMAC)"
        let event = try mockpay.verify(headers: ["mockpay-signature": header], body: Array(Self.mockpayBody.utf8),
                                       now: Self.mockpayTime)
        #expect(event.eventID == "evt_vector_1")
    }

    @Test func mockpaySignatureMadeWithAnotherSecretIsRefused() {
        let error = paymentError {
            try mockpay.verify(headers: ["mockpay-signature": "t=1796025600,v1=\(Self.mockpayOtherMAC)"],
                               body: Array(Self.mockpayBody.utf8), now: Self.mockpayTime)
        }
        #expect(error?.isInvalidSignature == true)
    }

    @Test func mockpayTamperedAmountIsRefused() {
        let tampered = Self.mockpayBody.replacingOccurrences(of: "12900", with: "12800")
        let error = paymentError {
            try mockpay.verify(headers: ["mockpay-signature": "t=1796025600,v1=\(Self.mockpayMAC)"],
                               body: Array(tampered.utf8), now: Self.mockpayTime)
        }
        #expect(error?.isInvalidSignature == true)
    }

    @Test func mockpayTimestampIsCoveredByTheSignature() {
        let error = paymentError {
            try mockpay.verify(headers: ["mockpay-signature": "t=1796025601,v1=\(Self.mockpayMAC)"],
                               body: Array(Self.mockpayBody.utf8), now: Self.mockpayTime)
        }
        #expect(error?.isInvalidSignature == true)
    }

    @Test func mockpayAcceptsFiveMinutesOfAgeAndRefusesOneSecondMore() throws {
        let header = ["mockpay-signature": "t=1796025600,v1=\(Self.mockpayMAC)"]
        let body = Array(Self.mockpayBody.utf8)
        _ = try mockpay.verify(headers: header, body: body, now: Self.mockpayTime + 300)
        #expect(paymentError { try mockpay.verify(headers: header, body: body, now: Self.mockpayTime + 301) }?
            .isInvalidSignature == true)
    }

    @Test func mockpayWithoutASignatureHeaderIsRefused() {
        let error = paymentError { try mockpay.verify(headers: [:], body: Array(Self.mockpayBody.utf8), now: Self.mockpayTime) }
        #expect(error?.isInvalidSignature == true)
    }

    // MARK: WeChat Pay v2

    /// The example of WeChat Pay's v2 signature guide ("安全规范 / 签名算法").
    static let wechatGuideFields = ["appid": "wxd930ea5d5a258f4f", "mch_id": "10000100", "device_info": "1000",
                                    "body": "test", "nonce_str": "ibuaiVcKdpRxkhJA"]
    static let wechatGuideKey = "192006250b4c09247ec02edce69f6a2d"

    @Test func wechatMD5SignReproducesWeChatsPublishedExample() {
        #expect(WechatPayVerifier.md5Sign(Self.wechatGuideFields, apiKey: Self.wechatGuideKey) == "9A0A8659F005D6984697E2CA0A9CF3B7")
    }

    @Test func wechatHMACSHA256SignReproducesWeChatsPublishedExample() {
        // Also `printf '%s' 'appid=...&key=...' | openssl dgst -sha256 -hmac 192006250b4c09247ec02edce69f6a2d`, uppercased.
        #expect(WechatPayVerifier.hmacSign(Self.wechatGuideFields, apiKey: Self.wechatGuideKey)
                == "6A9AE1657590FD6257D693A078E1C3E4BB6BA4DC30B23E0EE2496E54170DACD6")
    }

    @Test func wechatSignLeavesOutEmptyParametersAndTheSignItself() {
        var fields = Self.wechatGuideFields
        fields["attach"] = ""
        fields["sign"] = "ANYTHING"
        #expect(WechatPayVerifier.md5Sign(fields, apiKey: Self.wechatGuideKey) == "9A0A8659F005D6984697E2CA0A9CF3B7")
    }

    /// A payment notify as WeChat posts it; `sign` by `openssl dgst -md5` over the sorted fields and the key.
    static let wechatNotify = """
        <xml><appid><![CDATA[wx2421b1c4370ec43b]]></appid><bank_type><![CDATA[CFT]]></bank_type><cash_fee>12900</cash_fee>\
        <device_info><![CDATA[]]></device_info><fee_type><![CDATA[CNY]]></fee_type><is_subscribe><![CDATA[N]]></is_subscribe>\
        <mch_id><![CDATA[10000100]]></mch_id><nonce_str><![CDATA[5d2b6c2a8db53831f7eda20af46e531c]]></nonce_str>\
        <openid><![CDATA[oUpF8uMEb4qRXf22hE3X68TekukE]]></openid><out_trade_no><![CDATA[20261130000123]]></out_trade_no>\
        <result_code><![CDATA[SUCCESS]]></result_code><return_code><![CDATA[SUCCESS]]></return_code>\
        <sign><![CDATA[7CB7B8D98D5BECC86FB25B6198678B2B]]></sign><time_end><![CDATA[20261130160005]]></time_end>\
        <total_fee>12900</total_fee><trade_type><![CDATA[APP]]></trade_type>\
        <transaction_id><![CDATA[4200000123202611301234567890]]></transaction_id></xml>
        """

    let wechat = WechatPayVerifier(apiKey: PaymentKeys.wechatAPIKey, appID: PaymentKeys.wechatAppID, mchID: PaymentKeys.wechatMchID)

    @Test func wechatNotifySignedWithMD5VerifiesIntoItsEvent() throws {
        let event = try wechat.verify(headers: [:], body: Array(Self.wechatNotify.utf8), now: 0)
        #expect(event == PaymentEvent(provider: .wechatpay, eventID: "4200000123202611301234567890", orderNumber: "20261130000123",
                                      paymentID: nil, amountCents: 12_900, currency: "CNY", result: .succeeded,
                                      providerTradeNo: "4200000123202611301234567890"))
    }

    @Test func wechatNotifySignedWithHMACSHA256IsAccepted() throws {
        // openssl dgst -sha256 -hmac <key> over the same fields plus sign_type=HMAC-SHA256.
        let body = Self.wechatNotify
            .replacingOccurrences(of: "7CB7B8D98D5BECC86FB25B6198678B2B",
                                  with: "B6689F823B14861E8A8BB3FFD02B85EB97F53727AD230106F523878F04B06CC7")
            .replacingOccurrences(of: "</xml>", with: "<sign_type><![CDATA[HMAC-SHA256]]></sign_type></xml>")
        let event = try wechat.verify(headers: [:], body: Array(body.utf8), now: 0)
        #expect(event.amountCents == 12_900)
        #expect(event.result == .succeeded)
    }

    @Test func wechatSignatureMadeWithAnotherKeyIsRefused() {
        // openssl dgst -md5 over the same fields with key=00000000000000000000000000000000.
        let body = Self.wechatNotify.replacingOccurrences(of: "7CB7B8D98D5BECC86FB25B6198678B2B", with: "6640AACC060BADB0F4AA87BE433A15F3")
        #expect(paymentError { try wechat.verify(headers: [:], body: Array(body.utf8), now: 0) }?.isInvalidSignature == true)
    }

    @Test func wechatTamperedTotalFeeIsRefused() {
        let body = Self.wechatNotify.replacingOccurrences(of: "<total_fee>12900</total_fee>", with: "<total_fee>1</total_fee>")
        #expect(paymentError { try wechat.verify(headers: [:], body: Array(body.utf8), now: 0) }?.isInvalidSignature == true)
    }

    @Test func wechatSignTypeSwitchedWithoutResigningIsRefused() {
        let body = Self.wechatNotify.replacingOccurrences(of: "</xml>", with: "<sign_type><![CDATA[HMAC-SHA256]]></sign_type></xml>")
        #expect(paymentError { try wechat.verify(headers: [:], body: Array(body.utf8), now: 0) }?.isInvalidSignature == true)
    }

    @Test func wechatNotifyOfAnotherMerchantIsRefused() {
        let other = WechatPayVerifier(apiKey: PaymentKeys.wechatAPIKey, appID: PaymentKeys.wechatAppID, mchID: "10000999")
        #expect(paymentError { try other.verify(headers: [:], body: Array(Self.wechatNotify.utf8), now: 0) }?.isMalformed == true)
    }

    @Test func wechatXMLWithADocumentTypeIsRefusedEvenWhenSigned() {
        // The entity expands to the order number, so the notify would verify if the declaration were honoured.
        var fields = [String: String]()
        for name in ["appid", "mch_id", "out_trade_no", "result_code", "return_code", "total_fee", "transaction_id"] {
            fields[name] = ["appid": PaymentKeys.wechatAppID, "mch_id": PaymentKeys.wechatMchID, "out_trade_no": "20261130000123",
                            "result_code": "SUCCESS", "return_code": "SUCCESS", "total_fee": "12900",
                            "transaction_id": "4200000123202611301234567890"][name]
        }
        let sign = PaymentSigner.wechat(fields)
        for prolog in [#"<!DOCTYPE xml [<!ENTITY num "20261130000123">]>"#, #"<!doctype xml [<!entity num "20261130000123">]>"#,
                       #"<!DOCTYPE xml [<!ENTITY num SYSTEM "file:///etc/hostname">]>"#] {
            let body = prolog + "<xml><appid>\(PaymentKeys.wechatAppID)</appid><mch_id>\(PaymentKeys.wechatMchID)</mch_id>"
                + "<out_trade_no>&num;</out_trade_no><result_code>SUCCESS</result_code><return_code>SUCCESS</return_code>"
                + "<total_fee>12900</total_fee><transaction_id>4200000123202611301234567890</transaction_id>"
                + "<sign>\(sign)</sign></xml>"
            #expect(WechatXML.parse(Array(body.utf8)) == nil, "\(prolog)")
            #expect(paymentError { try wechat.verify(headers: [:], body: Array(body.utf8), now: 0) } != nil, "\(prolog)")
        }
    }

    // MARK: Alipay RSA2

    /// An async notify as Alipay posts it (form-encoded, fields in no particular order, one empty);
    /// `sign` by `openssl dgst -sha256 -sign` with the Alipay test key over `alipayContent`.
    static let alipayNotify = "gmt_create=2026-11-30+16%3A00%3A00&charset=utf-8&seller_id=2088102146225135&subject=%E9%B2%9C%E8%8A%B1%E8%AE%A2%E5%8D%95+20261130000123&sign=HaufYSZ6M5YEkTOXE%2BlMlI4AqZrU4YnmgoF9Ww20sp5pSZUfX%2B0xoWsg6iIEzzp9UuL2xcvTaqZA1ABYAl8V2NDTZ6XnS%2BbpITPJConGc%2BM4dtfTlk2U9nUXtrr1NBkkAuqPxY1JQfl5NIu0j%2BZmpRL6pUPXgHgIHmfV79kHrOPm9r3JWtlEUtJYb65HQp3zeOUgoPLN7MO7FemRLloiV7AhoDNvb8h85K%2Fzjdu06IlCkKpwYVoLbMcIWzCE0K7gGqhOb%2FaMlsrVsaLrblUvzelLs8rFCCUoiyL%2BdV70Xb8TfhuUJK7exTid4tji3%2Beok2epnXpffRz%2B0ejBD4cgjQ%3D%3D&buyer_id=2088102177846880&notify_id=2026113000222160005090081234567890&fund_bill_list=&notify_type=trade_status_sync&trade_status=TRADE_SUCCESS&total_amount=129.00&app_id=2021000148600001&sign_type=RSA2&gmt_payment=2026-11-30+16%3A00%3A05&notify_time=2026-11-30+16%3A00%3A06&version=1.0&out_trade_no=20261130000123&trade_no=2026113022001446880500012345&auth_app_id=2021000148600001"
    /// What Alipay signs for that notify: decoded, sorted, without `sign`, `sign_type` and empty fields.
    static let alipayContent = "app_id=2021000148600001&auth_app_id=2021000148600001&buyer_id=2088102177846880&charset=utf-8&gmt_create=2026-11-30 16:00:00&gmt_payment=2026-11-30 16:00:05&notify_id=2026113000222160005090081234567890&notify_time=2026-11-30 16:00:06&notify_type=trade_status_sync&out_trade_no=20261130000123&seller_id=2088102146225135&subject=鲜花订单 20261130000123&total_amount=129.00&trade_no=2026113022001446880500012345&trade_status=TRADE_SUCCESS&version=1.0"
    /// The same content signed with the other (not Alipay's) key.
    static let alipayOtherKeySign = "LkEmZRdBo9LP6aAWivDdaT8ds60VOs2sgdt7t1izgUwqMucZDHf6mF/O92ikWj/bESceWwfZ43HvoBI5e2TjXOAz1uTqT70Nk4rQULagyRyJic2X3yJETSQFMes3y08n1D8Yah6paCBX+LWRxISmOt2lG1DdLMeOPRBJT+YxPMBA5l7K37KY8Tt12PFNNGasgxGpxfqe02W1VW9fJ2vm0mJavcrvMDEb1qxBEoqQv2Z+fd5t5MHfj0u+dwH3ps/6A5CApyunIvWwVufD9VXDb/ODvMxmbp+Q6aZ56+RNnulCtIdOp2iOZSnJ1ZTzxMAS1aKPAB4X6KfPtFZo2jFBLg=="

    func alipay(appID: String = PaymentKeys.alipayAppID, sellerID: String = PaymentKeys.alipaySellerID,
                key: String = PaymentKeys.alipayPublicPEM) throws -> AlipayVerifier {
        AlipayVerifier(publicKey: try RSAPublicKey(pem: key), appID: appID, sellerID: sellerID)
    }

    @Test func alipaySigningStringFollowsAlipaysRules() throws {
        let fields = try #require(FormEncoding.decode(Array(Self.alipayNotify.utf8)))
        #expect(fields["subject"] == "鲜花订单 20261130000123")
        #expect(AlipayVerifier.signingString(fields) == Self.alipayContent)
    }

    @Test func alipayNotifyVerifiesAgainstTheConfiguredPublicKey() throws {
        let event = try alipay().verify(headers: [:], body: Array(Self.alipayNotify.utf8), now: 0)
        #expect(event == PaymentEvent(provider: .alipay, eventID: "2026113000222160005090081234567890",
                                      orderNumber: "20261130000123", paymentID: nil, amountCents: 12_900, currency: "CNY",
                                      result: .succeeded, providerTradeNo: "2026113022001446880500012345"))
    }

    @Test func alipayFixtureSignedAtRunTimeByOpenSSLMatchesThePrecomputedVector() throws {
        // RSASSA-PKCS1-v1_5 is deterministic: the test signer and the embedded vector agree.
        let signed = try PaymentSigner.rsaSHA256(Self.alipayContent, privateKeyPEM: PaymentKeys.alipayPrivatePEM)
        let fields = try #require(FormEncoding.decode(Array(Self.alipayNotify.utf8)))
        #expect(signed == fields["sign"])
    }

    @Test func alipaySignatureByAnotherKeyIsRefused() throws {
        let fields = try #require(FormEncoding.decode(Array(Self.alipayNotify.utf8)))
        var forged = fields
        forged["sign"] = Self.alipayOtherKeySign
        let body = PaymentSigner.form(forged.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        #expect(paymentError { try alipay().verify(headers: [:], body: body, now: 0) }?.isInvalidSignature == true)
        // ...while the other key's own verifier accepts it, so the signature itself is sound.
        _ = try alipay(key: PaymentKeys.otherPublicPEM).verify(headers: [:], body: body, now: 0)
    }

    @Test func alipayTamperedTotalAmountIsRefused() throws {
        let body = Self.alipayNotify.replacingOccurrences(of: "total_amount=129.00", with: "total_amount=1.29")
        #expect(paymentError { try alipay().verify(headers: [:], body: Array(body.utf8), now: 0) }?.isInvalidSignature == true)
    }

    @Test func alipayAddedFieldIsRefused() throws {
        let body = Self.alipayNotify + "&passback_params=extra"
        #expect(paymentError { try alipay().verify(headers: [:], body: Array(body.utf8), now: 0) }?.isInvalidSignature == true)
    }

    @Test func alipaySignTypeOtherThanRSA2IsRefused() throws {
        let body = Self.alipayNotify.replacingOccurrences(of: "sign_type=RSA2", with: "sign_type=RSA")
        #expect(paymentError { try alipay().verify(headers: [:], body: Array(body.utf8), now: 0) }?.isInvalidSignature == true)
    }

    @Test func alipayNotifyForAnotherAppOrSellerIsRefused() throws {
        let body = Array(Self.alipayNotify.utf8)
        #expect(paymentError { try alipay(appID: "2021000000000009").verify(headers: [:], body: body, now: 0) }?.isMalformed == true)
        #expect(paymentError { try alipay(sellerID: "2088000000000009").verify(headers: [:], body: body, now: 0) }?.isMalformed == true)
    }
}
