import ShopCore
import ShopTestSupport
import Testing

@Suite("Login throttling under parallel guesses")
struct LoginThrottleRaceTests {
    @Test func parallelWrongPasswordsCannotSlipPastTheLimit() throws {
        let fixture = try TestShop { $0.auth.maxFailuresPerPhone = 5 }
        _ = try fixture.register("13800138000")
        let outcomes = Outcomes<String>()
        race(20) { index in
            do {
                _ = try fixture.login("13800138000", password: "wrong-password-\(index)", from: "10.0.1.\(index)")
                outcomes.record("signed in")
            } catch AccountError.invalidCredentials {
                outcomes.record("invalid")
            } catch AccountError.tooManyAttempts {
                outcomes.record("throttled")
            } catch {
                outcomes.record("other: \(error)")
            }
        }
        #expect(outcomes.count("invalid") == 5)
        #expect(outcomes.count("throttled") == 15)
        #expect(throws: AccountError.self) { try fixture.login("13800138000") }
    }
}
