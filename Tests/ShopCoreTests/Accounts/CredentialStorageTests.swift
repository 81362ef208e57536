import Crypto
import Foundation
import ShopCore
import ShopTestSupport
import Testing

@Suite("Credential storage")
struct CredentialStorageTests {
    let phone = "13800138000"

    @Test func passwordMD5AndPlainPasswordSignIntoTheSameAccount() throws {
        let fixture = try TestShop()
        let md5 = Digest.md5Hex("flower123")
        let code = try fixture.sendCode(to: phone, for: .register)
        let registered = try fixture.accounts.register(phone: phone, code: code,
                                                       credential: Credential(passwordMD5: md5, password: nil), nickname: nil, clientIP: "10.0.0.1")

        let plain = try fixture.accounts.login(phone: phone, credential: Credential(passwordMD5: nil, password: "flower123"), clientIP: "10.0.0.1")
        let hashed = try fixture.accounts.login(phone: phone, credential: Credential(passwordMD5: md5, password: nil), clientIP: "10.0.0.1")
        let upper = try fixture.accounts.login(phone: phone, credential: Credential(passwordMD5: md5.uppercased(), password: nil), clientIP: "10.0.0.1")
        #expect(plain.user.id == registered.user.id)
        #expect(hashed.user.id == registered.user.id)
        #expect(upper.user.id == registered.user.id)
        #expect(throws: AccountError.invalidCredentials) {
            try fixture.accounts.login(phone: phone, credential: Credential(passwordMD5: Digest.md5Hex("flower124"), password: nil),
                                       clientIP: "10.0.0.1")
        }
    }

    @Test func theDatabaseHoldsNoMD5NoPasswordNoTokenAndNoCode() throws {
        let fixture = try TestShop()
        let md5 = Digest.md5Hex(TestShop.password)
        let registerCode = try fixture.sendCode(to: phone, for: .register)
        let registered = try fixture.accounts.register(phone: phone, code: registerCode,
                                                       credential: Credential(passwordMD5: md5, password: nil), nickname: nil, clientIP: "10.0.0.1")
        let loggedIn = try fixture.login(phone)
        let resetCode = try fixture.sendCode(to: phone, for: .resetPassword)
        let pendingCode = try fixture.sendCode(to: "13900139000", for: .register)

        let stored = try fixture.allStoredText()
        #expect(stored.contains { $0.table == "users" && $0.column == "password_hash" && $0.value.hasPrefix("$argon2id$") })
        #expect(stored.contains { $0.table == "auth_tokens" })
        #expect(stored.contains { $0.table == "verification_codes" })

        let secrets = [md5, TestShop.password, registered.token, loggedIn.token,
                       Digest.sha256Hex(md5)]
        for (table, column, value) in stored {
            for secret in secrets {
                #expect(!value.lowercased().contains(secret.lowercased()), "\(table).\(column) holds a secret")
            }
            // A code's digits may by chance sit inside the phone number itself; only then are they excused.
            for code in [registerCode, resetCode, pendingCode] where value.contains(code) {
                #expect(["13800138000", "13900139000"].contains { $0.contains(code) }, "\(table).\(column) holds a code")
            }
        }
    }

    @Test func eachUserGetsTheirOwnSalt() throws {
        let fixture = try TestShop()
        try fixture.register(phone)
        try fixture.register("13900139000")
        let first = try #require(try fixture.storedPasswordHash(phone))
        let second = try #require(try fixture.storedPasswordHash("13900139000"))
        #expect(first != second)
    }

    @Test func thePepperIsPartOfTheCredential() throws {
        let fixture = try TestShop()
        try fixture.register(phone)
        let otherPepper = try fixture.reopened { $0.auth.pepper = "another-pepper-entirely" }
        #expect(throws: AccountError.invalidCredentials) {
            try otherPepper.accounts.login(phone: phone, credential: Credential(passwordMD5: nil, password: TestShop.password),
                                           clientIP: "10.0.0.1")
        }
    }

    @Test func raisedArgon2CostsUpgradeTheStoredHashAtTheNextLogin() throws {
        let fixture = try TestShop()
        try fixture.register(phone)
        let before = try #require(try fixture.storedPasswordHash(phone))
        #expect(before.contains("m=1024,t=1,p=1"))

        _ = try fixture.login(phone)
        #expect(try fixture.storedPasswordHash(phone) == before, "a login at the same costs keeps the hash")

        let raised = try fixture.reopened {
            $0.auth.argon2MemoryKiB = 2_048
            $0.auth.argon2Iterations = 2
        }
        #expect(throws: AccountError.invalidCredentials) {
            try raised.accounts.login(phone: phone, credential: Credential(passwordMD5: nil, password: "wrong-password"), clientIP: "10.0.0.1")
        }
        #expect(try fixture.storedPasswordHash(phone) == before, "a failed login never rewrites the hash")

        _ = try raised.accounts.login(phone: phone, credential: Credential(passwordMD5: nil, password: TestShop.password), clientIP: "10.0.0.1")
        let after = try #require(try fixture.storedPasswordHash(phone))
        #expect(after.hasPrefix("$argon2id$v=19$m=2048,t=2,p=1$"))
        // The upgraded hash still answers to the same password, from either configuration.
        _ = try raised.accounts.login(phone: phone, credential: Credential(passwordMD5: nil, password: TestShop.password), clientIP: "10.0.0.1")
        _ = try fixture.login(phone)
        #expect(try fixture.storedPasswordHash(phone) == after, "lower configured costs never downgrade a hash")
    }
}
