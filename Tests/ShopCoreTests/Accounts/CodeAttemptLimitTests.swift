@testable import ShopCore
import ShopTestSupport
import Testing

/// Register and reset check the code before any Argon2 work, and count wrong codes per phone and
/// per client address like failed logins, so they cannot be used to burn CPU or guess codes.
@Suite("Accounts: failed register and reset attempts")
struct CodeAttemptLimitTests {
    let phone = "13800138000"
    let credential: Credential

    init() throws {
        credential = try Credential(passwordMD5: nil, password: "rose-garden-9")
    }

    @Test func aWrongRegisterCodeComputesNoHash() throws {
        let fixture = try TestShop()
        let code = try fixture.sendCode(to: phone, for: .register)
        let limit = fixture.accounts.credentials.limit
        let before = limit.started
        #expect(throws: AccountError.invalidCode) {
            try fixture.accounts.register(phone: phone, code: wrongCode(for: code), credential: credential, nickname: nil,
                                          clientIP: "10.0.0.1")
        }
        #expect(limit.started == before)
        _ = try fixture.accounts.register(phone: phone, code: code, credential: credential, nickname: nil, clientIP: "10.0.0.1")
        #expect(limit.started == before + 1)
    }

    @Test func aWrongResetCodeOrAnUnknownPhoneComputesNoHash() throws {
        let fixture = try TestShop()
        try fixture.register(phone)
        let code = try fixture.sendCode(to: phone, for: .resetPassword)
        let limit = fixture.accounts.credentials.limit
        let before = limit.started
        for (target, attempt) in [(phone, wrongCode(for: code)), ("13900139000", code)] {
            #expect(throws: AccountError.invalidCode) {
                try fixture.accounts.resetPassword(phone: target, code: attempt, credential: credential, clientIP: "10.0.0.1")
            }
        }
        #expect(limit.started == before)
    }

    @Test func wrongRegisterCodesForOnePhoneLockItsRegistrationForTheWindow() throws {
        let fixture = try TestShop { $0.auth.maxFailuresPerPhone = 3 }
        let code = try fixture.sendCode(to: phone, for: .register)
        for index in 1...3 {
            #expect(throws: AccountError.invalidCode) {
                try fixture.accounts.register(phone: phone, code: wrongCode(for: code), credential: credential, nickname: nil,
                                              clientIP: "10.0.3.\(index)")
            }
            fixture.clock.advance(by: 10)
        }
        // Even the right code is refused while the phone is locked; the code is not spent by it.
        #expect(throws: AccountError.tooManyAttempts(retryAfter: 900 - 30)) {
            try fixture.accounts.register(phone: phone, code: code, credential: credential, nickname: nil, clientIP: "10.0.3.9")
        }
        // Once the oldest failure leaves the window the phone may try again (with a fresh code:
        // the first one has expired by now).
        fixture.clock.advance(by: 900 - 30)
        let fresh = try fixture.sendCode(to: phone, for: .register, from: "10.0.3.9")
        let session = try fixture.accounts.register(phone: phone, code: fresh, credential: credential, nickname: nil,
                                                    clientIP: "10.0.3.9")
        #expect(session.user.phone == phone)
    }

    @Test func wrongRegisterCodesFromOneAddressLockItForEveryPhone() throws {
        let fixture = try TestShop { $0.auth.maxFailuresPerIP = 3 }
        for index in 1...3 {
            #expect(throws: AccountError.invalidCode) {
                try fixture.accounts.register(phone: "1380000000\(index)", code: "123456", credential: credential, nickname: nil,
                                              clientIP: "10.0.4.1")
            }
        }
        #expect(throws: AccountError.tooManyAttempts(retryAfter: 900)) {
            try fixture.accounts.register(phone: "13800000009", code: "123456", credential: credential, nickname: nil,
                                          clientIP: "10.0.4.1")
        }
        // Another address is not locked.
        _ = try fixture.register(phone, from: "10.0.4.2")
    }

    @Test func wrongResetCodesAreLimitedPerPhoneAndPerAddress() throws {
        let fixture = try TestShop {
            $0.auth.maxFailuresPerPhone = 3
            $0.auth.maxFailuresPerIP = 5
        }
        try fixture.register(phone)
        let code = try fixture.sendCode(to: phone, for: .resetPassword)
        for index in 1...3 {
            #expect(throws: AccountError.invalidCode) {
                try fixture.accounts.resetPassword(phone: phone, code: wrongCode(for: code), credential: credential,
                                                   clientIP: "10.0.5.\(index)")
            }
        }
        #expect(throws: AccountError.tooManyAttempts(retryAfter: 900)) {
            try fixture.accounts.resetPassword(phone: phone, code: code, credential: credential, clientIP: "10.0.5.9")
        }
        // Unknown phones count against the address like wrong codes do.
        for index in 1...5 {
            #expect(throws: AccountError.invalidCode) {
                try fixture.accounts.resetPassword(phone: "1390000000\(index)", code: "123456", credential: credential,
                                                   clientIP: "10.0.6.1")
            }
        }
        #expect(throws: AccountError.tooManyAttempts(retryAfter: 900)) {
            try fixture.accounts.resetPassword(phone: "13900000009", code: "123456", credential: credential, clientIP: "10.0.6.1")
        }
        _ = try fixture.login(phone)
    }

    @Test func theOwnerOfAPhoneLockedByOthersFailedLoginsGetsBackInThroughAReset() throws {
        let fixture = try TestShop { $0.auth.maxFailuresPerPhone = 3 }
        try fixture.register(phone)
        for index in 1...3 {
            #expect(throws: AccountError.invalidCredentials) {
                try fixture.login(phone, password: "guess-\(index)-password", from: "10.0.7.\(index)")
            }
        }
        #expect(throws: AccountError.tooManyAttempts(retryAfter: 900)) { try fixture.login(phone, from: "10.0.8.1") }

        let code = try fixture.sendCode(to: phone, for: .resetPassword, from: "10.0.8.1")
        try fixture.accounts.resetPassword(phone: phone, code: code, credential: credential, clientIP: "10.0.8.1")

        let session = try fixture.login(phone, password: "rose-garden-9", from: "10.0.8.1")
        #expect(session.user.phone == phone)
    }

    @Test func failedRegistrationsDoNotLockLogin() throws {
        let fixture = try TestShop { $0.auth.maxFailuresPerIP = 2 }
        try fixture.register(phone, from: "10.0.9.1")
        for index in 1...2 {
            #expect(throws: AccountError.invalidCode) {
                try fixture.accounts.register(phone: "1380000000\(index)", code: "123456", credential: credential, nickname: nil,
                                              clientIP: "10.0.9.1")
            }
        }
        _ = try fixture.login(phone, from: "10.0.9.1")
    }
}
