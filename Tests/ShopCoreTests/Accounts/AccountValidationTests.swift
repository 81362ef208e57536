import Crypto
import Foundation
import ShopCore
import ShopTestSupport
import Testing

@Suite("Accounts input validation")
struct AccountValidationTests {
    @Test(arguments: [
        String(repeating: "a", count: 31),
        String(repeating: "a", count: 33),
        String(repeating: "g", count: 32),
        "5f4dcc3b5aa765d61d8327deb882cf9 ",
        "",
    ])
    func aPasswordMD5MustBe32HexCharacters(_ md5: String) {
        let error = #expect(throws: ValidationError.self) { try Credential(passwordMD5: md5, password: nil) }
        #expect(error?.field == "password_md5")
    }

    @Test func aPasswordMD5OfAnyCaseIsAccepted() throws {
        _ = try Credential(passwordMD5: Digest.md5Hex("flower123"), password: nil)
        _ = try Credential(passwordMD5: Digest.md5Hex("flower123").uppercased(), password: nil)
    }

    @Test(arguments: [7, 65, 0])
    func aPlainPasswordMustBe8To64Characters(_ length: Int) {
        let error = #expect(throws: ValidationError.self) {
            try Credential(passwordMD5: nil, password: String(repeating: "p", count: length))
        }
        #expect(error?.field == "password")
    }

    @Test(arguments: [8, 64])
    func plainPasswordsAtTheLimitsAreAccepted(_ length: Int) throws {
        _ = try Credential(passwordMD5: nil, password: String(repeating: "p", count: length))
        // Counted in characters, as a person counts them.
        _ = try Credential(passwordMD5: nil, password: String(repeating: "花", count: length))
    }

    @Test func sendingBothCredentialsIsRefused() {
        #expect(throws: ValidationError.self) {
            try Credential(passwordMD5: Digest.md5Hex("flower123"), password: "flower123")
        }
    }

    @Test func sendingNoCredentialIsRefused() {
        let error = #expect(throws: ValidationError.self) { try Credential(passwordMD5: nil, password: nil) }
        #expect(error?.field == "password_md5")
    }

    @Test func aPlus86PrefixIsNormalisedAway() throws {
        #expect(try PhoneNumber.normalize("+8613800138000") == "13800138000")
        #expect(try PhoneNumber.normalize("13800138000") == "13800138000")
        // exactly the documented pattern ^(\+86)?1[0-9]{10}$: no surrounding blanks
        #expect(throws: ValidationError.self) { try PhoneNumber.normalize(" 13800138000 ") }
    }

    @Test(arguments: ["1380013800", "138001380001", "23800138000", "1380013800a", "phonenumber", "", "+86", "+8623800138000",
                      "１３８００１３８０００",
                      // a digit with an invisible or combining mark is one Character that sorts among the digits
                      "13\u{200D}800000001", "13\u{0301}800000004", "1380000000\u{20E3}4", "+86\u{0301}13800000004",
                      "\u{FEFF}13800000004", "13800000004\u{200B}"])
    func anythingButAMainlandMobileNumberIsRefused(_ raw: String) {
        let error = #expect(throws: ValidationError.self) { try PhoneNumber.normalize(raw) }
        #expect(error?.field == "phone")
    }

    @Test func profileChangesAreValidatedAndABadOneChangesNothing() throws {
        let fixture = try TestShop()
        let user = try fixture.register("13800138000", nickname: "小花").user

        let cases: [(ProfileChanges, String)] = [
            (ProfileChanges(nickname: ""), "nickname"),
            (ProfileChanges(nickname: "   "), "nickname"),
            (ProfileChanges(nickname: String(repeating: "花", count: 21)), "nickname"),
            (ProfileChanges(nickname: "bad\u{0}name"), "nickname"),
            (ProfileChanges(signature: String(repeating: "s", count: 141)), "signature"),
            (ProfileChanges(avatarURL: "not a url"), "avatar_url"),
            (ProfileChanges(avatarURL: "javascript:alert(1)"), "avatar_url"),
            (ProfileChanges(avatarURL: "ftp://cdn.example.com/a.png"), "avatar_url"),
            (ProfileChanges(nickname: "新名字", avatarURL: "https://cdn.example.com/has space.png"), "avatar_url"),
        ]
        for (changes, field) in cases {
            let error = #expect(throws: ValidationError.self) { try fixture.accounts.updateProfile(user.id, changes) }
            #expect(error?.field == field)
        }
        #expect(try fixture.accounts.user(user.id) == user)
    }

    @Test func profileChangesAtTheLimitsAreSaved() throws {
        let fixture = try TestShop()
        let user = try fixture.register("13800138000").user
        let nickname = String(repeating: "花", count: 20)
        let signature = String(repeating: "签", count: 140)
        let updated = try fixture.accounts.updateProfile(user.id, ProfileChanges(
            nickname: nickname, avatarURL: "https://cdn.example.com/a.png", signature: signature, gender: .female))
        #expect(updated.nickname == nickname)
        #expect(updated.signature == signature)
        #expect(updated.avatarURL == "https://cdn.example.com/a.png")
        #expect(updated.gender == .female)
        #expect(try fixture.accounts.user(user.id) == updated)

        let cleared = try fixture.accounts.updateProfile(user.id, ProfileChanges(avatarURL: "", signature: ""))
        #expect(cleared.avatarURL == "" && cleared.signature == "")
        #expect(cleared.nickname == nickname && cleared.gender == .female)
    }

    @Test func aDefaultNicknameIsGivenWhenNoneIsChosen() throws {
        let fixture = try TestShop()
        let user = try fixture.register("13800138000").user
        #expect(user.nickname == "花友8000")
    }
}
