import Foundation
import ShopCore
import ShopTestSupport
import Testing

@Suite("Verification codes")
struct VerificationCodeTests {
    let phone = "13800138000"

    @Test func aSecondRequestInsideTheCooldownIsRefusedWithTheSecondsLeft() throws {
        let fixture = try TestShop()
        let receipt = try fixture.verification.requestCode(phone: phone, purpose: .register, clientIP: "10.0.0.1")
        #expect(receipt.retryAfter == 60 && receipt.expiresIn == 300)
        #expect(fixture.sender.messages.count == 1)

        fixture.clock.advance(by: 20)
        #expect(throws: AccountError.codeCooldown(retryAfter: 40)) {
            try fixture.verification.requestCode(phone: phone, purpose: .register, clientIP: "10.0.0.1")
        }
        fixture.clock.advance(by: 39)
        #expect(throws: AccountError.codeCooldown(retryAfter: 1)) {
            try fixture.verification.requestCode(phone: phone, purpose: .register, clientIP: "10.0.0.1")
        }
        #expect(fixture.sender.messages.count == 1, "a refused request sends nothing")
    }

    @Test func afterTheCooldownANewCodeReplacesTheOldOne() throws {
        let fixture = try TestShop()
        let old = try fixture.sendCode(to: phone, for: .register)
        fixture.clock.advance(by: 60)
        let new = try fixture.sendCode(to: phone, for: .register)
        #expect(fixture.sender.messages.count == 2)

        // (One run in a million draws the same digits twice; the old code is then the new one.)
        if old != new {
            #expect(throws: AccountError.invalidCode) {
                try fixture.accounts.register(phone: phone, code: old,
                                              credential: Credential(passwordMD5: nil, password: TestShop.password), nickname: nil, clientIP: "10.0.0.1")
            }
        }
        let session = try fixture.accounts.register(phone: phone, code: new,
                                                    credential: Credential(passwordMD5: nil, password: TestShop.password), nickname: nil, clientIP: "10.0.0.1")
        #expect(session.user.phone == phone)
    }

    @Test func theCooldownIsPerPhoneAndPurpose() throws {
        let fixture = try TestShop()
        try fixture.register(phone)
        fixture.clock.advance(by: 3_600)
        _ = try fixture.sendCode(to: phone, for: .resetPassword)
        _ = try fixture.sendCode(to: "13900139000", for: .register)
        _ = try fixture.verification.requestCode(phone: "13900139000", purpose: .resetPassword, clientIP: "10.0.0.1")
        #expect(throws: AccountError.codeCooldown(retryAfter: 60)) {
            try fixture.verification.requestCode(phone: phone, purpose: .resetPassword, clientIP: "10.0.0.1")
        }
    }

    @Test func aCodeExpiresAfterItsLifetime() throws {
        let fixture = try TestShop()
        let early = "13800138001", late = "13800138002"
        let earlyCode = try fixture.sendCode(to: early, for: .register)
        let lateCode = try fixture.sendCode(to: late, for: .register)
        let credential = try Credential(passwordMD5: nil, password: TestShop.password)

        fixture.clock.advance(by: 299)
        _ = try fixture.accounts.register(phone: early, code: earlyCode, credential: credential, nickname: nil, clientIP: "10.0.0.1")
        fixture.clock.advance(by: 2)
        #expect(throws: AccountError.invalidCode) {
            try fixture.accounts.register(phone: late, code: lateCode, credential: credential, nickname: nil, clientIP: "10.0.0.1")
        }
    }

    @Test func theFifthWrongTryKillsTheCode() throws {
        let fixture = try TestShop()
        let code = try fixture.sendCode(to: phone, for: .register)
        let credential = try Credential(passwordMD5: nil, password: TestShop.password)
        for _ in 1...5 {
            #expect(throws: AccountError.invalidCode) {
                try fixture.accounts.register(phone: phone, code: wrongCode(for: code), credential: credential, nickname: nil, clientIP: "10.0.0.1")
            }
        }
        #expect(throws: AccountError.invalidCode) {
            try fixture.accounts.register(phone: phone, code: code, credential: credential, nickname: nil, clientIP: "10.0.0.1")
        }
    }

    @Test func fourWrongTriesLeaveTheCodeUsable() throws {
        let fixture = try TestShop()
        let code = try fixture.sendCode(to: phone, for: .register)
        let credential = try Credential(passwordMD5: nil, password: TestShop.password)
        for _ in 1...4 {
            #expect(throws: AccountError.invalidCode) {
                try fixture.accounts.register(phone: phone, code: wrongCode(for: code), credential: credential, nickname: nil, clientIP: "10.0.0.1")
            }
        }
        let session = try fixture.accounts.register(phone: phone, code: code, credential: credential, nickname: nil, clientIP: "10.0.0.1")
        #expect(session.user.phone == phone)
    }

    @Test func aUsedCodeCannotBeUsedAgain() throws {
        let fixture = try TestShop()
        try fixture.register(phone)
        let code = try fixture.sendCode(to: phone, for: .resetPassword)
        try fixture.accounts.resetPassword(phone: phone, code: code, credential: Credential(passwordMD5: nil, password: "new-password-1"), clientIP: "10.0.0.1")
        #expect(throws: AccountError.invalidCode) {
            try fixture.accounts.resetPassword(phone: phone, code: code,
                                               credential: Credential(passwordMD5: nil, password: "new-password-2"), clientIP: "10.0.0.1")
        }
        _ = try fixture.login(phone, password: "new-password-1")
    }

    @Test func aCodeForOnePurposeDoesNotServeTheOther() throws {
        let fixture = try TestShop()
        let registerCode = try fixture.sendCode(to: phone, for: .register)
        _ = try fixture.accounts.register(phone: phone, code: registerCode,
                                          credential: Credential(passwordMD5: nil, password: TestShop.password), nickname: nil, clientIP: "10.0.0.1")
        #expect(throws: AccountError.invalidCode) {
            try fixture.accounts.resetPassword(phone: phone, code: registerCode,
                                               credential: Credential(passwordMD5: nil, password: "new-password-1"), clientIP: "10.0.0.1")
        }
    }

    @Test func theDailyCapPerPhoneStopsCodeRequests() throws {
        let fixture = try TestShop { $0.verification.dailyLimitPerPhone = 3 }
        for index in 0..<3 {
            _ = try fixture.verification.requestCode(phone: phone, purpose: .register, clientIP: "10.0.0.\(index)")
            fixture.clock.advance(by: 60)
        }
        // The oldest of the three was sent 180 s ago: the cap lifts a day after it.
        #expect(throws: AccountError.codeLimitReached(retryAfter: 86_400 - 180)) {
            try fixture.verification.requestCode(phone: phone, purpose: .register, clientIP: "10.0.0.9")
        }
        #expect(throws: AccountError.codeLimitReached(retryAfter: 86_400 - 180)) {
            try fixture.verification.requestCode(phone: phone, purpose: .resetPassword, clientIP: "10.0.0.9")
        }
        #expect(fixture.sender.messages.count == 3)
        _ = try fixture.verification.requestCode(phone: "13900139000", purpose: .register, clientIP: "10.0.0.9")

        fixture.clock.advance(by: 86_400 - 180)
        _ = try fixture.verification.requestCode(phone: phone, purpose: .register, clientIP: "10.0.0.9")
    }

    @Test func theDailyCapPerClientAddressStopsCodeRequests() throws {
        let fixture = try TestShop { $0.verification.dailyLimitPerIP = 3 }
        for index in 1...3 {
            _ = try fixture.verification.requestCode(phone: "1380013800\(index)", purpose: .register, clientIP: "10.0.0.1")
        }
        #expect(throws: AccountError.codeLimitReached(retryAfter: 86_400)) {
            try fixture.verification.requestCode(phone: "13800138004", purpose: .register, clientIP: "10.0.0.1")
        }
        #expect(fixture.sender.messages.count == 3)
        _ = try fixture.verification.requestCode(phone: "13800138004", purpose: .register, clientIP: "10.0.0.2")
        #expect(fixture.sender.messages.count == 4)
    }

    @Test func aRegisterCodeForATakenPhoneIsRefused() throws {
        let fixture = try TestShop()
        try fixture.register(phone)
        fixture.clock.advance(by: 60)
        #expect(throws: AccountError.phoneTaken) {
            try fixture.verification.requestCode(phone: phone, purpose: .register, clientIP: "10.0.0.1")
        }
        #expect(fixture.sender.messages.count == 1)
    }

    @Test func aResetForAnUnknownPhoneAnswersAlikeAndSendsNothing() throws {
        let fixture = try TestShop()
        try fixture.register(phone)
        let sentBefore = fixture.sender.messages.count

        let known = try fixture.verification.requestCode(phone: phone, purpose: .resetPassword, clientIP: "10.0.0.1")
        let unknown = try fixture.verification.requestCode(phone: "13900139000", purpose: .resetPassword, clientIP: "10.0.0.1")
        #expect(known == unknown)
        #expect(fixture.sender.messages.count == sentBefore + 1)
        #expect(fixture.sender.messages.allSatisfy { $0.phone == phone })

        // Even the cooldown looks the same for both.
        fixture.clock.advance(by: 10)
        #expect(throws: AccountError.codeCooldown(retryAfter: 50)) {
            try fixture.verification.requestCode(phone: phone, purpose: .resetPassword, clientIP: "10.0.0.1")
        }
        #expect(throws: AccountError.codeCooldown(retryAfter: 50)) {
            try fixture.verification.requestCode(phone: "13900139000", purpose: .resetPassword, clientIP: "10.0.0.1")
        }
    }

    @Test func codesAreSixDigitsAndSentToTheNormalisedPhone() throws {
        let fixture = try TestShop()
        _ = try fixture.verification.requestCode(phone: "+86" + phone, purpose: .register, clientIP: "10.0.0.1")
        let message = try #require(fixture.sender.messages.first)
        #expect(message.phone == phone)
        #expect(message.purpose == "register")
        #expect(message.code.count == 6 && message.code.allSatisfy { $0.isASCII && $0.isNumber })
        #expect(message.sentAt == fixture.clock.now)
    }
}
