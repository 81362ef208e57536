import Foundation
import ShopCore
import ShopTestSupport
import Testing

@Suite("Register, login, logout, reset")
struct SessionTests {
    let phone = "13800138000"

    @Test func registeringSignsTheNewUserIn() throws {
        let fixture = try TestShop()
        let session = try fixture.register("+86" + phone, nickname: "小花")
        #expect(session.user.phone == phone)
        #expect(session.user.maskedPhone == "138****8000")
        #expect(session.user.nickname == "小花")
        #expect(session.user.gender == .unknown)
        #expect(!session.user.isAuthor)
        #expect(session.user.createdAt == fixture.clock.now)
        #expect(try fixture.accounts.authenticate(token: session.token) == session.user.id)
    }

    @Test func aTokenCarriesAtLeast128RandomBits() throws {
        let fixture = try TestShop()
        let first = try fixture.register(phone)
        let second = try fixture.login(phone)
        #expect(first.token != second.token)
        // base64url: 6 bits a character.
        #expect(first.token.count * 6 >= 128)
    }

    @Test func registeringATakenPhoneIsAConflict() throws {
        let fixture = try TestShop()
        try fixture.register(phone)
        #expect(throws: AccountError.phoneTaken) {
            try fixture.accounts.register(phone: phone, code: "123456",
                                          credential: Credential(passwordMD5: nil, password: "other-password"), nickname: nil, clientIP: "10.0.0.1")
        }
        _ = try fixture.login(phone)
    }

    @Test func logoutRevokesTheTokenAtOnce() throws {
        let fixture = try TestShop()
        let session = try fixture.register(phone)
        let other = try fixture.login(phone)
        try fixture.accounts.logout(token: session.token)
        #expect(throws: AccountError.unauthorized) { try fixture.accounts.authenticate(token: session.token) }
        #expect(try fixture.accounts.authenticate(token: other.token) == session.user.id)
    }

    @Test func aResetRevokesEveryTokenOfThatUserAndChangesThePassword() throws {
        let fixture = try TestShop()
        let first = try fixture.register(phone)
        let second = try fixture.login(phone)
        let bystander = try fixture.register("13900139000")

        let code = try fixture.sendCode(to: phone, for: .resetPassword)
        try fixture.accounts.resetPassword(phone: phone, code: code, credential: Credential(passwordMD5: nil, password: "rose-garden-9"), clientIP: "10.0.0.1")

        for token in [first.token, second.token] {
            #expect(throws: AccountError.unauthorized) { try fixture.accounts.authenticate(token: token) }
        }
        #expect(try fixture.accounts.authenticate(token: bystander.token) == bystander.user.id)
        #expect(throws: AccountError.invalidCredentials) { try fixture.login(phone) }
        let fresh = try fixture.login(phone, password: "rose-garden-9")
        #expect(fresh.user.id == first.user.id)
    }

    @Test func aResetWithAWrongCodeChangesNothing() throws {
        let fixture = try TestShop()
        let session = try fixture.register(phone)
        let code = try fixture.sendCode(to: phone, for: .resetPassword)
        #expect(throws: AccountError.invalidCode) {
            try fixture.accounts.resetPassword(phone: phone, code: wrongCode(for: code),
                                               credential: Credential(passwordMD5: nil, password: "rose-garden-9"), clientIP: "10.0.0.1")
        }
        #expect(try fixture.accounts.authenticate(token: session.token) == session.user.id)
        _ = try fixture.login(phone)
    }

    @Test func anUnknownPhoneAndAWrongPasswordFailAlike() throws {
        let fixture = try TestShop()
        try fixture.register(phone)
        #expect(throws: AccountError.invalidCredentials) { try fixture.login(phone, password: "not-the-password") }
        #expect(throws: AccountError.invalidCredentials) { try fixture.login("13900139000") }
        #expect(throws: ValidationError.self) { try fixture.login("not-a-phone") }
    }

    @Test func repeatedFailuresForAPhoneAreRefusedUntilTheWindowPasses() throws {
        let fixture = try TestShop {
            $0.auth.maxFailuresPerPhone = 3
            $0.auth.failureWindowSeconds = 900
        }
        try fixture.register(phone)
        for _ in 1...3 {
            #expect(throws: AccountError.invalidCredentials) { try fixture.login(phone, password: "not-the-password") }
            fixture.clock.advance(by: 10)
        }
        // Even the right password is refused now; the oldest failure leaves the window in 900 - 30 s.
        #expect(throws: AccountError.tooManyAttempts(retryAfter: 870)) { try fixture.login(phone) }
        #expect(throws: AccountError.tooManyAttempts(retryAfter: 870)) { try fixture.login(phone, from: "10.9.9.9") }

        fixture.clock.advance(by: 869)
        #expect(throws: AccountError.tooManyAttempts(retryAfter: 1)) { try fixture.login(phone) }
        fixture.clock.advance(by: 1)
        _ = try fixture.login(phone)
    }

    @Test func repeatedFailuresFromOneAddressAreRefusedForEveryPhone() throws {
        let fixture = try TestShop {
            $0.auth.maxFailuresPerPhone = 100
            $0.auth.maxFailuresPerIP = 3
        }
        try fixture.register(phone)
        for index in 1...3 {
            #expect(throws: AccountError.invalidCredentials) { try fixture.login("1390013900\(index)", from: "10.6.6.6") }
        }
        #expect(throws: AccountError.tooManyAttempts(retryAfter: 900)) { try fixture.login(phone, from: "10.6.6.6") }
        _ = try fixture.login(phone, from: "10.7.7.7")
    }

    @Test func aSuccessfulLoginForgetsThePhonesEarlierFailures() throws {
        let fixture = try TestShop { $0.auth.maxFailuresPerPhone = 3 }
        try fixture.register(phone)
        for _ in 1...2 {
            #expect(throws: AccountError.invalidCredentials) { try fixture.login(phone, password: "not-the-password") }
        }
        _ = try fixture.login(phone)
        for _ in 1...2 {
            #expect(throws: AccountError.invalidCredentials) { try fixture.login(phone, password: "not-the-password") }
        }
        _ = try fixture.login(phone)
    }

    @Test func aTokenExpiresAfterTheConfiguredLifetime() throws {
        let fixture = try TestShop { $0.auth.tokenLifetimeDays = 30 }
        let session = try fixture.register(phone)
        #expect(session.expiresAt == fixture.clock.now.addingTimeInterval(30 * 86_400))

        fixture.clock.advance(by: 30 * 86_400 - 1)
        #expect(try fixture.accounts.authenticate(token: session.token) == session.user.id)
        fixture.clock.advance(by: 1)
        #expect(throws: AccountError.unauthorized) { try fixture.accounts.authenticate(token: session.token) }
    }

    @Test func unknownEmptyAndOversizedTokensAreUnauthorized() throws {
        let fixture = try TestShop()
        let session = try fixture.register(phone)
        for token in ["", "garbage", session.token + "x", String(repeating: "a", count: 10_000)] {
            #expect(throws: AccountError.unauthorized) { try fixture.accounts.authenticate(token: token) }
        }
    }
}
