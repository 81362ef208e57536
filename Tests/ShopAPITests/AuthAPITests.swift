import Crypto
import Foundation
import HTTP
@testable import ShopAPI
import ShopTestSupport
import Testing

@Suite("API: /auth")
struct AuthAPITests {
    let phone = "13800138000"

    @Test func askingForACodeAnswers202WithTheCountdownAndLifetime() throws {
        let app = try TestAPI()
        let response = try app.send("POST", "/api/v1/auth/verification-codes", json: ["phone": phone, "purpose": "register"])
        #expect(response.status == 202)
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(response.keys == ["retry_after", "expires_in"])
        let countdown = try response.decode(AuthController.CodeResponse.self)
        #expect(countdown.retryAfter == 60)
        #expect(countdown.expiresIn == 300)
        #expect(app.sender.messages.count == 1)
    }

    @Test func askingAgainInsideTheCooldownIs429WithTheSecondsLeft() throws {
        let app = try TestAPI()
        let body = ["phone": phone, "purpose": "register"]
        _ = try app.send("POST", "/api/v1/auth/verification-codes", json: body)
        app.clock.advance(by: 15)
        let response = try app.send("POST", "/api/v1/auth/verification-codes", json: body)
        expectError(response, 429, "code_cooldown")
        #expect(response.headers["Retry-After"] == "45")
        #expect(response.error?.retryAfter == 45)
        #expect(app.sender.messages.count == 1)
    }

    @Test func theDailyCapIs429RateLimited() throws {
        let app = try TestAPI { $0.verification.dailyLimitPerIP = 1 }
        _ = try app.send("POST", "/api/v1/auth/verification-codes", json: ["phone": phone, "purpose": "register"])
        let response = try app.send("POST", "/api/v1/auth/verification-codes", json: ["phone": "13900139000", "purpose": "register"])
        expectError(response, 429, "rate_limited")
        #expect(response.headers["Retry-After"] == "86400")
    }

    @Test func aBadPhoneOrPurposeIs400NamingTheField() throws {
        let app = try TestAPI()
        let badPhone = try app.send("POST", "/api/v1/auth/verification-codes", json: ["phone": "12345", "purpose": "register"])
        expectError(badPhone, 400, "validation_failed")
        #expect(badPhone.error?.field == "phone")
        let badPurpose = try app.send("POST", "/api/v1/auth/verification-codes", json: ["phone": phone, "purpose": "login"])
        expectError(badPurpose, 400, "validation_failed")
        #expect(badPurpose.error?.field == "purpose")
        let missing = try app.send("POST", "/api/v1/auth/verification-codes", json: ["phone": phone])
        expectError(missing, 400, "validation_failed")
        #expect(missing.error?.field == "purpose")
    }

    @Test func registeringAnswers201WithATokenAndTheMaskedUser() throws {
        let app = try TestAPI()
        let registered = try app.register(phone, nickname: "小花")
        #expect(registered.keys == ["token", "expires_at", "user"])
        let session = try registered.decode(SessionResponse.self)
        #expect(session.token.count >= 22)
        // 30 days after the manual clock's start, in RFC 3339 UTC (the text, since a decoded date has no zone).
        #expect(session.expiresAt == rfc3339("2026-12-30T08:00:00Z"))
        #expect(registered.text.contains("\"expires_at\":\"2026-12-30T08:00:00Z\""), "\(registered.text)")
        #expect(session.user.phone == "138****8000")
        #expect(session.user.nickname == "小花")
        #expect(session.user.createdAt == rfc3339("2026-11-30T08:00:00Z"))
        #expect(registered.text.contains("\"created_at\":\"2026-11-30T08:00:00Z\""), "\(registered.text)")
    }

    @Test func registeringATakenPhoneIs409AndAWrongCodeIs422() throws {
        let app = try TestAPI()
        _ = try app.register(phone)
        let taken = try app.send("POST", "/api/v1/auth/verification-codes", json: ["phone": phone, "purpose": "register"])
        expectError(taken, 409, "phone_taken")

        _ = try app.send("POST", "/api/v1/auth/verification-codes", json: ["phone": "13900139000", "purpose": "register"])
        let code = try #require(app.sender.lastCode(to: "13900139000", for: "register"))
        let wrong = String(format: "%06d", (Int(code)! + 1) % 1_000_000)
        let response = try app.send("POST", "/api/v1/auth/register",
                                    json: ["phone": "13900139000", "code": wrong, "password": TestAPI.password])
        expectError(response, 422, "invalid_code")
    }

    @Test func loggingInAnswers200WithTheSameShapeAsRegister() throws {
        let app = try TestAPI()
        let registered = try app.register(phone).decode(SessionResponse.self)
        let response = try app.send("POST", "/api/v1/auth/login",
                                    json: ["phone": phone, "password_md5": Digest.md5Hex(TestAPI.password)])
        #expect(response.status == 200)
        #expect(response.keys == ["token", "expires_at", "user"])
        let session = try response.decode(SessionResponse.self)
        #expect(session.token != registered.token)
        #expect(session.user.id == registered.user.id)
    }

    @Test func anUnknownPhoneAndAWrongPasswordGetTheSameAnswer() throws {
        let app = try TestAPI()
        _ = try app.register(phone)
        let wrongPassword = try app.send("POST", "/api/v1/auth/login", json: ["phone": phone, "password": "not-the-password"])
        let unknownPhone = try app.send("POST", "/api/v1/auth/login", json: ["phone": "13900139000", "password": "not-the-password"])
        let badPhone = try app.send("POST", "/api/v1/auth/login", json: ["phone": "12345", "password": "not-the-password"])
        expectError(wrongPassword, 401, "invalid_credentials")
        #expect(unknownPhone.status == wrongPassword.status)
        #expect(unknownPhone.body == wrongPassword.body)
        // a malformed phone is refused before any password hashing, as a plain validation error
        expectError(badPhone, 400, "validation_failed")
    }

    @Test func repeatedFailedLoginsAre429TooManyAttempts() throws {
        let app = try TestAPI { $0.auth.maxFailuresPerPhone = 2 }
        _ = try app.register(phone)
        for _ in 1...2 {
            let failed = try app.send("POST", "/api/v1/auth/login", json: ["phone": phone, "password": "not-the-password"])
            #expect(failed.status == 401)
        }
        let refused = try app.send("POST", "/api/v1/auth/login", json: ["phone": phone, "password": TestAPI.password])
        expectError(refused, 429, "too_many_attempts")
        #expect(refused.headers["Retry-After"] == "900")
    }

    @Test func repeatedWrongRegisterAndResetCodesFromOneAddressAre429() throws {
        let app = try TestAPI { $0.auth.maxFailuresPerIP = 2 }
        for (path, extra) in [("/api/v1/auth/register", ["nickname": "小花"]), ("/api/v1/auth/password-reset", [:])] {
            // Untyped on purpose: a request body (tests also send ill-typed, null and extra fields).
            var body: [String: Any] = ["code": "123456", "password": TestAPI.password]
            for (key, value) in extra { body[key] = value }
            for index in 1...2 {
                body["phone"] = "1380000000\(index)"
                expectError(try app.send("POST", path, json: body, from: "10.0.10.1"), 422, "invalid_code")
            }
            body["phone"] = "13800000009"
            let refused = try app.send("POST", path, json: body, from: "10.0.10.1")
            expectError(refused, 429, "too_many_attempts")
            #expect(refused.headers["Retry-After"] == "900")
            #expect(refused.error?.retryAfter == 900)
            expectError(try app.send("POST", path, json: body, from: "10.0.10.2"), 422, "invalid_code")
        }
    }

    @Test func aPhoneWithACombiningMarkIs400Everywhere() throws {
        let app = try TestAPI()
        let marked = "13\u{0301}800000004"
        for (path, body) in [
            ("/api/v1/auth/verification-codes", ["phone": marked, "purpose": "register"]),
            ("/api/v1/auth/register", ["phone": marked, "code": "123456", "password": TestAPI.password]),
            ("/api/v1/auth/login", ["phone": marked, "password": TestAPI.password]),
            ("/api/v1/auth/password-reset", ["phone": marked, "code": "123456", "password": TestAPI.password]),
        ] {
            let response = try app.send("POST", path, json: body)
            expectError(response, 400, "validation_failed")
            #expect(response.error?.field == "phone", "\(path)")
        }
        #expect(app.sender.messages.isEmpty)
    }

    @Test func loggingOutAnswers204AndTheTokenStopsWorking() throws {
        let app = try TestAPI()
        let token = try app.token(for: phone)
        #expect(try app.send("GET", "/api/v1/me", token: token).status == 200)
        let response = try app.send("POST", "/api/v1/auth/logout", token: token)
        #expect(response.status == 204)
        #expect(response.body.isEmpty)
        expectError(try app.send("GET", "/api/v1/me", token: token), 401, "unauthorized")
        expectError(try app.send("POST", "/api/v1/auth/logout", token: token), 401, "unauthorized")
    }

    @Test func aPasswordResetAnswers204AndRevokesEveryToken() throws {
        let app = try TestAPI()
        let token = try app.token(for: phone)
        _ = try app.send("POST", "/api/v1/auth/verification-codes", json: ["phone": phone, "purpose": "reset_password"])
        let code = try #require(app.sender.lastCode(to: phone, for: "reset_password"))
        let response = try app.send("POST", "/api/v1/auth/password-reset",
                                    json: ["phone": phone, "code": code, "password_md5": Digest.md5Hex("new-flower-9")])
        #expect(response.status == 204)
        expectError(try app.send("GET", "/api/v1/me", token: token), 401, "unauthorized")
        #expect(try app.send("POST", "/api/v1/auth/login", json: ["phone": phone, "password": "new-flower-9"]).status == 200)
        expectError(try app.send("POST", "/api/v1/auth/login", json: ["phone": phone, "password": TestAPI.password]),
                    401, "invalid_credentials")
    }

    @Test func aResetCodeRequestForAnUnknownPhoneLooksTheSame() throws {
        let app = try TestAPI()
        _ = try app.register(phone)
        let sent = app.sender.messages.count
        let known = try app.send("POST", "/api/v1/auth/verification-codes", json: ["phone": phone, "purpose": "reset_password"])
        let unknown = try app.send("POST", "/api/v1/auth/verification-codes", json: ["phone": "13900139000", "purpose": "reset_password"])
        #expect(known.status == 202)
        #expect(unknown.status == known.status)
        #expect(unknown.body == known.body)
        #expect(app.sender.messages.count == sent + 1)
    }

    @Test func credentialsOfTheWrongShapeAre400() throws {
        let app = try TestAPI()
        let short = try app.send("POST", "/api/v1/auth/login", json: ["phone": phone, "password_md5": "abc"])
        expectError(short, 400, "validation_failed")
        #expect(short.error?.field == "password_md5")
        let both = try app.send("POST", "/api/v1/auth/login",
                                json: ["phone": phone, "password": TestAPI.password, "password_md5": Digest.md5Hex(TestAPI.password)])
        expectError(both, 400, "validation_failed")
        let none = try app.send("POST", "/api/v1/auth/login", json: ["phone": phone])
        expectError(none, 400, "validation_failed")
    }
}
