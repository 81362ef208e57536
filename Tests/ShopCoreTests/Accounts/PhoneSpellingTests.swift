import ShopCore
import ShopTestSupport
import Testing

/// One number, one spelling: a digit carrying an invisible or combining mark must not make a
/// second account, nor a second cooldown and daily SMS cap, for the same phone.
@Suite("Accounts: phones are ASCII digits only")
struct PhoneSpellingTests {
    static let marked = ["13\u{200D}800000001", "13\u{0301}800000004", "1380000000\u{20E3}4"]

    @Test(arguments: marked)
    func askingForACodeForAMarkedPhoneIsRefused(_ phone: String) throws {
        let fixture = try TestShop()
        for purpose in [CodePurpose.register, .resetPassword] {
            let error = #expect(throws: ValidationError.self) {
                try fixture.verification.requestCode(phone: phone, purpose: purpose, clientIP: "10.0.0.1")
            }
            #expect(error?.field == "phone")
        }
        #expect(fixture.sender.messages.isEmpty)
    }

    @Test(arguments: marked)
    func registeringAMarkedPhoneIsRefused(_ phone: String) throws {
        let fixture = try TestShop()
        let error = #expect(throws: ValidationError.self) {
            try fixture.accounts.register(phone: phone, code: "123456",
                                          credential: Credential(passwordMD5: nil, password: TestShop.password), nickname: nil, clientIP: "10.0.0.1")
        }
        #expect(error?.field == "phone")
    }

    @Test(arguments: marked)
    func loggingInWithAMarkedPhoneIsRefusedBeforeAnyCheck(_ phone: String) throws {
        let fixture = try TestShop()
        try fixture.register("13800000004")
        let error = #expect(throws: ValidationError.self) { try fixture.login(phone) }
        #expect(error?.field == "phone")
    }

    @Test func aCodeWithAMarkIsAMalformedCode() throws {
        let fixture = try TestShop()
        let code = try fixture.sendCode(to: "13800000004", for: .register)
        let marked = String(code.prefix(3)) + "\u{0301}" + String(code.dropFirst(3))
        let error = #expect(throws: ValidationError.self) {
            try fixture.accounts.register(phone: "13800000004", code: marked,
                                          credential: Credential(passwordMD5: nil, password: TestShop.password), nickname: nil, clientIP: "10.0.0.1")
        }
        #expect(error?.field == "code")
    }
}
