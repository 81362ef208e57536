import Foundation
import SQL
import SQLite
import ShopTestSupport
import Testing
@testable import ShopCore

/// Notifications through `PaymentService.receive`: verified first, recorded once, applied once.
@Suite("Payment webhooks")
struct PaymentWebhookTests {
    @Test func mockpaySuccessPaysTheOrderOnceAndCountsItsSales() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder(quantity: 2)
        let intent = try s.payments.start(order.id, provider: .mockpay, for: s.buyer)
        #expect(try s.sales() == 0)

        let ack = try s.deliverMockpay(s.mockpayBody(order, event: "evt_1", payment: intent.paymentID))

        #expect(ack == .mockpay)
        let paid = try s.order(order.id)
        #expect(paid.status == .paid)
        #expect(paid.paidAt == s.test.clock.now)
        #expect(try s.payments.status(of: intent.paymentID) == .succeeded)
        #expect(try s.events() == ["evt_1 succeeded paid"])
        #expect(try s.sales() == 2)
    }

    @Test func tamperedBodyIsRefusedAndChangesNothing() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        let intent = try s.payments.start(order.id, provider: .mockpay, for: s.buyer)
        let body = s.mockpayBody(order, event: "evt_1", payment: intent.paymentID)
        let header = PaymentSigner.mockpay(body, timestamp: s.now)
        let tampered = Array(String(decoding: body, as: UTF8.self).replacingOccurrences(of: "evt_1", with: "evt_2").utf8)
        let before = try s.snapshot()

        let error = paymentError { try s.payments.receive(provider: "mockpay", headers: ["mockpay-signature": header], body: tampered) }

        #expect(error?.isInvalidSignature == true)
        #expect(try s.snapshot() == before)
        #expect(try s.order(order.id).status == .pendingPayment)
    }

    @Test func signatureWithAnotherSecretIsRefusedAndChangesNothing() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        let before = try s.snapshot()
        let error = paymentError { try s.deliverMockpay(s.mockpayBody(order, event: "evt_1"), secret: "whsec_some_other_secret") }
        #expect(error?.isInvalidSignature == true)
        #expect(try s.snapshot() == before)
    }

    @Test func staleTimestampIsRefusedAndChangesNothing() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        let body = s.mockpayBody(order, event: "evt_1")
        let signedAt = s.now
        s.test.clock.advance(by: 301)
        let before = try s.snapshot()

        #expect(paymentError { try s.deliverMockpay(body, timestamp: signedAt) }?.isInvalidSignature == true)
        #expect(try s.snapshot() == before)

        // Exactly five minutes old is still on time.
        s.test.clock.advance(by: -1)
        try s.deliverMockpay(body, timestamp: signedAt)
        #expect(try s.order(order.id).status == .paid)
    }

    @Test func wrongAmountIsRecordedAsAMismatchAndLeavesTheOrderUnchanged() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        let intent = try s.payments.start(order.id, provider: .mockpay, for: s.buyer)

        let error = paymentError {
            try s.deliverMockpay(s.mockpayBody(order, event: "evt_short", payment: intent.paymentID, amount: order.totalCents - 1))
        }

        #expect(error == .amountMismatch)
        #expect(try s.events() == ["evt_short succeeded amount_mismatch"])
        #expect(try s.order(order.id).status == .pendingPayment)
        #expect(try s.payments.status(of: intent.paymentID) == .pending)
        #expect(try s.sales() == 0)
    }

    @Test func wrongCurrencyIsAnAmountMismatch() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        let error = paymentError { try s.deliverMockpay(s.mockpayBody(order, event: "evt_usd", currency: "USD")) }
        #expect(error == .amountMismatch)
        #expect(try s.events() == ["evt_usd succeeded amount_mismatch"])
        #expect(try s.order(order.id).status == .pendingPayment)
    }

    @Test func duplicateEventIsAcknowledgedWithoutASecondEffect() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder(quantity: 3)
        let body = s.mockpayBody(order, event: "evt_1")
        try s.deliverMockpay(body)
        let paidAt = try s.order(order.id).paidAt
        s.test.clock.advance(by: 60)

        #expect(try s.deliverMockpay(body) == .mockpay)

        #expect(try s.events() == ["evt_1 succeeded paid"])
        #expect(try s.sales() == 3)
        #expect(try s.order(order.id).paidAt == paidAt)
        #expect(try s.paymentRows(order.id) == ["mockpay succeeded"])
    }

    @Test func tenConcurrentReplaysOfOneEventHaveExactlyOneEffect() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder(quantity: 2)
        let body = s.mockpayBody(order, event: "evt_race")
        let header = PaymentSigner.mockpay(body, timestamp: s.now)
        let outcomes = PaymentOutcomes()
        let payments = s.payments

        race(10) { _ in
            do {
                outcomes.record("\(try payments.receive(provider: "mockpay", headers: ["mockpay-signature": header], body: body))")
            } catch {
                outcomes.record("error \(error)")
            }
        }

        #expect(outcomes.all == Array(repeating: "mockpay", count: 10))
        #expect(try s.events() == ["evt_race succeeded paid"])
        #expect(try s.sales() == 2)
        #expect(try s.order(order.id).status == .paid)
        #expect(try s.paymentRows(order.id) == ["mockpay succeeded"])
    }

    @Test func tenConcurrentDifferentSuccessEventsPayTheOrderOnce() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder(quantity: 1)
        let intent = try s.payments.start(order.id, provider: .mockpay, for: s.buyer)
        let bodies = (0..<10).map { s.mockpayBody(order, event: "evt_\($0)", payment: intent.paymentID) }
        let now = s.now
        let payments = s.payments
        let outcomes = PaymentOutcomes()

        race(10) { index in
            let header = PaymentSigner.mockpay(bodies[index], timestamp: now)
            do {
                _ = try payments.receive(provider: "mockpay", headers: ["mockpay-signature": header], body: bodies[index])
                outcomes.record("ok")
            } catch {
                outcomes.record("error \(error)")
            }
        }

        #expect(outcomes.all == Array(repeating: "ok", count: 10))
        let events = try s.events()
        #expect(events.count == 10)
        #expect(events.filter { $0.hasSuffix(" paid") }.count == 1)
        #expect(try s.sales() == 1)
        #expect(try s.payments.status(of: intent.paymentID) == .succeeded)
    }

    @Test func failedAfterSucceededLeavesTheOrderPaid() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        let intent = try s.payments.start(order.id, provider: .mockpay, for: s.buyer)
        try s.deliverMockpay(s.mockpayBody(order, event: "evt_ok", payment: intent.paymentID))

        #expect(try s.deliverMockpay(s.mockpayBody(order, event: "evt_fail", status: "failed", payment: intent.paymentID)) == .mockpay)

        #expect(try s.order(order.id).status == .paid)
        #expect(try s.payments.status(of: intent.paymentID) == .succeeded)
        #expect(try s.events() == ["evt_ok succeeded paid", "evt_fail failed recorded"])
        #expect(try s.sales() == 2)
    }

    @Test func succeededAfterFailedPays() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        let intent = try s.payments.start(order.id, provider: .mockpay, for: s.buyer)

        try s.deliverMockpay(s.mockpayBody(order, event: "evt_fail", status: "failed", payment: intent.paymentID))
        #expect(try s.payments.status(of: intent.paymentID) == .failed)
        #expect(try s.order(order.id).status == .pendingPayment)

        try s.deliverMockpay(s.mockpayBody(order, event: "evt_ok", payment: intent.paymentID))
        #expect(try s.order(order.id).status == .paid)
        #expect(try s.payments.status(of: intent.paymentID) == .succeeded)
        #expect(try s.events() == ["evt_fail failed failed", "evt_ok succeeded paid"])
        #expect(try s.sales() == 2)
    }

    @Test func successForACancelledOrderFlagsTheRefundAndLeavesItCancelled() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder(quantity: 2)
        let intent = try s.payments.start(order.id, provider: .mockpay, for: s.buyer)
        _ = try s.shop.orders.cancel(order.id, for: s.buyer)
        let stock = try s.test.pool.read { db in try db.scalarInt("SELECT stock FROM skus WHERE id = \(s.sku)") }

        #expect(try s.deliverMockpay(s.mockpayBody(order, event: "evt_late", payment: intent.paymentID)) == .mockpay)

        #expect(try s.order(order.id).status == .cancelled)
        #expect(try s.payments.status(of: intent.paymentID) == .needsRefund)
        #expect(try s.events() == ["evt_late succeeded needs_refund"])
        #expect(try s.sales() == 0)
        #expect(try s.test.pool.read { db in try db.scalarInt("SELECT stock FROM skus WHERE id = \(s.sku)") } == stock)
    }

    @Test func secondSuccessfulPaymentOfAPaidOrderNeedsARefund() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        let first = try s.payments.start(order.id, provider: .mockpay, for: s.buyer)
        try s.expireKeptAnswers()
        let second = try s.payments.start(order.id, provider: .mockpay, for: s.buyer)
        #expect(second.paymentID != first.paymentID)
        try s.deliverMockpay(s.mockpayBody(order, event: "evt_a", payment: first.paymentID))

        try s.deliverMockpay(s.mockpayBody(order, event: "evt_b", payment: second.paymentID))

        #expect(try s.payments.status(of: first.paymentID) == .succeeded)
        #expect(try s.payments.status(of: second.paymentID) == .needsRefund)
        #expect(try s.order(order.id).status == .paid)
        #expect(try s.sales() == 2)
    }

    @Test func notificationForAnUnknownOrderIsRecordedAndRefused() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        var body = String(decoding: s.mockpayBody(order, event: "evt_ghost"), as: UTF8.self)
        body = body.replacingOccurrences(of: order.number, with: "20991231999999")
        #expect(paymentError { try s.deliverMockpay(Array(body.utf8)) } == .unknownOrder)
        #expect(try s.events() == ["evt_ghost succeeded unknown_order"])
        #expect(try s.order(order.id).status == .pendingPayment)
    }

    @Test func unknownProviderIsRefused() throws {
        let s = try PaymentScenario()
        #expect(paymentError { try s.payments.receive(provider: "paypal", headers: [:], body: []) } == .unknownProvider)
        #expect(paymentError { try s.payments.receive(provider: "MOCKPAY", headers: [:], body: []) } == .unknownProvider)
    }

    @Test func providerWithoutConfiguredKeysIsUnavailable() throws {
        let s = try PaymentScenario { $0.payments.mockpaySecret = PaymentKeys.mockpaySecret }
        let order = try s.placeOrder()
        let before = try s.snapshot()
        for provider in [PaymentProvider.wechatpay, .alipay] {
            #expect(paymentError { try s.payments.receive(provider: provider.rawValue, headers: [:], body: Array("x".utf8)) }
                    == .providerNotConfigured(provider))
            #expect(paymentError { try s.payments.start(order.id, provider: provider, for: s.buyer) } == .providerNotConfigured(provider))
        }
        #expect(try s.snapshot() == before)
    }

    @Test func mockpayIsUnavailableInProductionUnlessSwitchedOn() throws {
        let s = try PaymentScenario {
            PaymentKeys.configure(&$0)
            $0.app.env = .production
        }
        let order = try s.placeOrder()
        let before = try s.snapshot()
        #expect(paymentError { try s.deliverMockpay(s.mockpayBody(order, event: "evt_prod")) } == .providerNotConfigured(.mockpay))
        #expect(paymentError { try s.payments.mockpayAttempt(orderNumber: order.number) } == .providerNotConfigured(.mockpay))
        #expect(paymentError { try s.payments.start(order.id, provider: .mockpay, for: s.buyer) } == .providerNotConfigured(.mockpay))
        #expect(try s.snapshot() == before)

        let onPurpose = try PaymentScenario {
            PaymentKeys.configure(&$0)
            $0.app.env = .production
            $0.payments.mockpayEnabled = .on
        }
        let paid = try onPurpose.placeOrder()
        try onPurpose.deliverMockpay(onPurpose.mockpayBody(paid, event: "evt_on"))
        #expect(try onPurpose.order(paid.id).status == .paid)
    }

    @Test func invalidAlipayPublicKeyIsAConfigurationError() throws {
        #expect(throws: ConfigError.self) {
            _ = try PaymentScenario {
                PaymentKeys.configure(&$0)
                $0.payments.alipayPublicKeyPEM = "-----BEGIN PUBLIC KEY-----\nnot a key\n-----END PUBLIC KEY-----"
            }
        }
    }

    // MARK: WeChat Pay

    @Test func wechatSuccessPaysTheOrderOnce() throws {
        let gateway = try FakeWechatPayGateway()
        let s = try PaymentScenario { PaymentKeys.configure(&$0, wechatGateway: gateway, alipayGateway: nil) }
        let order = try s.placeOrder(quantity: 2)
        let intent = try s.payments.start(order.id, provider: .wechatpay, for: s.buyer)
        let body = s.wechatBody(s.wechatFields(order, transaction: "4200000001"))

        #expect(try s.deliverWechat(body) == .wechatpay)
        #expect(try s.deliverWechat(body) == .wechatpay)

        #expect(try s.order(order.id).status == .paid)
        #expect(try s.payments.status(of: intent.paymentID) == .succeeded)
        #expect(try s.events() == ["4200000001 succeeded paid"])
        #expect(try s.sales() == 2)
        #expect(PaymentService.wechatSuccessReply
                == "<xml><return_code><![CDATA[SUCCESS]]></return_code><return_msg><![CDATA[OK]]></return_msg></xml>")
    }

    @Test func wechatHMACSignedSuccessPays() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        var fields = s.wechatFields(order, transaction: "4200000002")
        fields["sign_type"] = "HMAC-SHA256"
        fields["sign"] = PaymentSigner.wechat(fields, hmac: true)
        try s.deliverWechat(PaymentSigner.wechatXML(fields))
        #expect(try s.order(order.id).status == .paid)
    }

    @Test func wechatFailedResultDoesNotPay() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        try s.deliverWechat(s.wechatBody(s.wechatFields(order, transaction: "4200000003", resultCode: "FAIL")))
        #expect(try s.order(order.id).status == .pendingPayment)
        #expect(try s.paymentRows(order.id) == ["wechatpay failed"])
        #expect(try s.sales() == 0)
    }

    @Test func wechatTamperedOrWronglyKeyedNotifyIsRefusedAndChangesNothing() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        let before = try s.snapshot()
        let signed = String(decoding: s.wechatBody(s.wechatFields(order, transaction: "4200000004")), as: UTF8.self)
        let tampered = signed.replacingOccurrences(of: "<total_fee><![CDATA[\(order.totalCents)]]>", with: "<total_fee><![CDATA[1]]>")
        #expect(tampered != signed)
        #expect(paymentError { try s.deliverWechat(Array(tampered.utf8)) }?.isInvalidSignature == true)
        let wrongKey = s.wechatBody(s.wechatFields(order, transaction: "4200000004"), key: "00000000000000000000000000000000")
        #expect(paymentError { try s.deliverWechat(wrongKey) }?.isInvalidSignature == true)
        #expect(try s.snapshot() == before)
    }

    @Test func wechatWrongAmountIsRecordedAsAMismatch() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        let body = s.wechatBody(s.wechatFields(order, transaction: "4200000005", totalFee: 1))
        #expect(paymentError { try s.deliverWechat(body) } == .amountMismatch)
        #expect(try s.events() == ["4200000005 succeeded amount_mismatch"])
        #expect(try s.order(order.id).status == .pendingPayment)
    }

    @Test func wechatNotifyForAnotherAppOrMerchantIsRefused() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        let before = try s.snapshot()
        var app = s.wechatFields(order, transaction: "4200000006")
        app["appid"] = "wx0000000000000000"
        var merchant = s.wechatFields(order, transaction: "4200000006")
        merchant["mch_id"] = "19999999"
        #expect(paymentError { try s.deliverWechat(s.wechatBody(app)) }?.isMalformed == true)
        #expect(paymentError { try s.deliverWechat(s.wechatBody(merchant)) }?.isMalformed == true)
        #expect(try s.snapshot() == before)
    }

    @Test func wechatXMLWithAnEntityDeclarationIsRefusedAndChangesNothing() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        let before = try s.snapshot()
        let fields = s.wechatFields(order, transaction: "4200000007")
        let signed = String(decoding: s.wechatBody(fields), as: UTF8.self)
        let xxe = #"<?xml version="1.0"?><!DOCTYPE xml [<!ENTITY n ""# + order.number + #"">]>"#
            + signed.replacingOccurrences(of: "<![CDATA[\(order.number)]]>", with: "&n;")
        #expect(paymentError { try s.deliverWechat(Array(xxe.utf8)) } != nil)
        #expect(try s.snapshot() == before)
    }

    @Test func wechatNotifySentAsUTF16WithABOMIsRefusedBeforeParsing() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        let before = try s.snapshot()
        let signed = String(decoding: s.wechatBody(s.wechatFields(order, transaction: "4200000008")), as: UTF8.self)
        let xxe = #"<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE xml [<!ENTITY n ""# + order.number + #"">]>"#
            + signed.replacingOccurrences(of: "<![CDATA[\(order.number)]]>", with: "&n;")
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in xxe.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(paymentError { try s.deliverWechat(utf16) }?.isMalformed == true)
        #expect(try s.snapshot() == before)
    }

    @Test func wechatNotifySentAsUTF16WithoutABOMIsRefusedBeforeParsing() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        let before = try s.snapshot()
        let signed = String(decoding: s.wechatBody(s.wechatFields(order, transaction: "4200000010")), as: UTF8.self)
        let declared = #"<?xml version="1.0" encoding="UTF-16"?>"# + signed
        var littleEndian: [UInt8] = []
        var bigEndian: [UInt8] = []
        for unit in declared.utf16 {
            littleEndian += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            bigEndian += [UInt8(unit >> 8), UInt8(unit & 0xFF)]
        }
        #expect(paymentError { try s.deliverWechat(littleEndian) }?.isMalformed == true)
        #expect(paymentError { try s.deliverWechat(bigEndian) }?.isMalformed == true)
        #expect(try s.snapshot() == before)
    }

    @Test func wechatNotifyDeclaringAnotherEncodingIsRefusedAndUTF8IsRead() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        let signed = String(decoding: s.wechatBody(s.wechatFields(order, transaction: "4200000009")), as: UTF8.self)
        let latin1 = #"<?xml version="1.0" encoding="ISO-8859-1"?>"# + signed
        #expect(paymentError { try s.deliverWechat(Array(latin1.utf8)) }?.isMalformed == true)
        #expect(try s.order(order.id).status == .pendingPayment)
        let invalidBytes = Array(signed.utf8) + [0xC3, 0x28]
        #expect(paymentError { try s.deliverWechat(invalidBytes) }?.isMalformed == true)
        let utf8 = #"<?xml version="1.0" encoding='utf-8'?>"# + signed
        #expect(try s.deliverWechat(Array(utf8.utf8)) == .wechatpay)
        #expect(try s.order(order.id).status == .paid)
    }

    // MARK: Alipay

    @Test func alipayTradeSuccessPaysTheOrderOnce() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder(quantity: 2)
        let intent = try s.payments.start(order.id, provider: .alipay, for: s.buyer)
        let body = try s.alipayBody(s.alipayFields(order, notify: "notify-000001"))

        #expect(try s.deliverAlipay(body) == .alipay)
        #expect(try s.deliverAlipay(body) == .alipay)

        #expect(try s.order(order.id).status == .paid)
        #expect(try s.payments.status(of: intent.paymentID) == .succeeded)
        #expect(try s.events() == ["notify-000001 succeeded paid"])
        #expect(try s.sales() == 2)
    }

    @Test func alipayTradeFinishedPaysToo() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        try s.deliverAlipay(try s.alipayBody(s.alipayFields(order, notify: "notify-000002", status: "TRADE_FINISHED")))
        #expect(try s.order(order.id).status == .paid)
    }

    @Test func alipayWaitBuyerPayIsRecordedButDoesNotPay() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        let intent = try s.payments.start(order.id, provider: .alipay, for: s.buyer)

        #expect(try s.deliverAlipay(try s.alipayBody(s.alipayFields(order, notify: "notify-000003", status: "WAIT_BUYER_PAY")))
                == .alipay)

        #expect(try s.events() == ["notify-000003 ignored recorded"])
        #expect(try s.order(order.id).status == .pendingPayment)
        #expect(try s.payments.status(of: intent.paymentID) == .pending)
        #expect(try s.sales() == 0)

        try s.deliverAlipay(try s.alipayBody(s.alipayFields(order, notify: "notify-000004")))
        #expect(try s.order(order.id).status == .paid)
    }

    @Test func alipayNotifySignedByAnotherKeyOrTamperedIsRefusedAndChangesNothing() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        let before = try s.snapshot()
        let forged = try s.alipayBody(s.alipayFields(order, notify: "notify-000005"), privateKeyPEM: PaymentKeys.otherPrivatePEM)
        #expect(paymentError { try s.deliverAlipay(forged) }?.isInvalidSignature == true)
        let signed = String(decoding: try s.alipayBody(s.alipayFields(order, notify: "notify-000005")), as: UTF8.self)
        let tampered = signed.replacingOccurrences(of: "trade_status=TRADE_SUCCESS", with: "trade_status=TRADE_FINISHED")
        #expect(tampered != signed)
        #expect(paymentError { try s.deliverAlipay(Array(tampered.utf8)) }?.isInvalidSignature == true)
        #expect(try s.snapshot() == before)
    }

    @Test func alipayNotifyForAnotherAppOrSellerIsRefusedAndChangesNothing() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        let before = try s.snapshot()
        let fields = s.alipayFields(order, notify: "notify-000006")
        let otherApp = fields.map { $0.0 == "app_id" ? ($0.0, "2021000000000009") : $0 }
        let otherSeller = fields.map { $0.0 == "seller_id" ? ($0.0, "2088000000000009") : $0 }
        #expect(paymentError { try s.deliverAlipay(try s.alipayBody(otherApp)) }?.isMalformed == true)
        #expect(paymentError { try s.deliverAlipay(try s.alipayBody(otherSeller)) }?.isMalformed == true)
        #expect(try s.snapshot() == before)
    }

    @Test func alipayWrongAmountIsRecordedAsAMismatch() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        #expect(paymentError { try s.deliverAlipay(try s.alipayBody(s.alipayFields(order, notify: "notify-000007", totalAmount: "0.01"))) }
                == .amountMismatch)
        #expect(try s.events() == ["notify-000007 succeeded amount_mismatch"])
        #expect(try s.order(order.id).status == .pendingPayment)
    }
}

/// Starting a payment attempt: only for one's own order that waits for payment.
@Suite("Payment attempts")
struct PaymentAttemptTests {
    @Test func startingAnswersTheOrderAmountAndWhatEachProvidersClientNeeds() throws {
        let gateway = try FakeWechatPayGateway()
        let s = try PaymentScenario { PaymentKeys.configure(&$0, wechatGateway: gateway, alipayGateway: nil) }
        let order = try s.placeOrder(quantity: 2)

        let mockpay = try s.payments.start(order.id, provider: .mockpay, for: s.buyer)
        #expect(mockpay.provider == .mockpay)
        #expect(mockpay.amountCents == 12_900)
        #expect(mockpay.payParams == ["payment_id": String(mockpay.paymentID.rawValue), "order_number": order.number,
                                      "amount_cents": "12900", "currency": "CNY"])

        let wechat = try s.payments.start(order.id, provider: .wechatpay, for: s.buyer)
        #expect(Set(wechat.payParams.keys) == ["appid", "partnerid", "prepayid", "package", "noncestr", "timestamp", "sign"])
        #expect(wechat.payParams["prepayid"] == gateway.trade(order.number)?.prepayID)
        #expect(gateway.trade(order.number)?.totalFee == 12_900)

        let alipay = try s.payments.start(order.id, provider: .alipay, for: s.buyer)
        #expect(Set(alipay.payParams.keys) == ["order_string"])

        #expect(Set([mockpay.paymentID, wechat.paymentID, alipay.paymentID]).count == 3)
        #expect(try s.paymentRows(order.id) == ["mockpay pending", "wechatpay pending", "alipay pending"])
        // No secret ever goes to the client.
        for params in [mockpay.payParams, wechat.payParams, alipay.payParams] {
            #expect(!params.values.contains { $0.contains(PaymentKeys.wechatAPIKey) })
            #expect(!params.values.contains { $0.contains(PaymentKeys.mockpaySecret) })
        }
    }

    @Test func startingForAnotherUsersOrderIsNotFound() throws {
        let s = try PaymentScenario()
        let order = try s.placeOrder()
        let (stranger, _) = try PaymentScenario.person(s.test, phone: "13900000002")
        #expect(throws: OrderError.notFound) { try s.payments.start(order.id, provider: .mockpay, for: stranger) }
        #expect(throws: OrderError.notFound) { try s.payments.start(OrderID(999_999), provider: .mockpay, for: s.buyer) }
        #expect(try s.paymentRows(order.id).isEmpty)
    }

    @Test func startingForAnOrderThatIsNotWaitingForPaymentIsRefused() throws {
        let s = try PaymentScenario()
        let paid = try s.placeOrder()
        try s.deliverMockpay(s.mockpayBody(paid, event: "evt_paid"))
        let cancelled = try s.placeOrder()
        _ = try s.shop.orders.cancel(cancelled.id, for: s.buyer)

        #expect(throws: PaymentError.orderNotPayable(.paid)) { try s.payments.start(paid.id, provider: .mockpay, for: s.buyer) }
        #expect(throws: PaymentError.orderNotPayable(.cancelled)) {
            try s.payments.start(cancelled.id, provider: .alipay, for: s.buyer)
        }
        #expect(try s.paymentRows(cancelled.id).isEmpty)
    }
}
