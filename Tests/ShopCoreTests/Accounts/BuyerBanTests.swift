import Foundation
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("Accounts: staff find, ban and unban buyers")
struct BuyerBanTests {
    static let operatorActor = StaffActor.commandLine(user: "ops")

    func auditActions(_ shop: TestShop, target: String) throws -> [String] {
        try shop.shop.audit.entries(AuditFilter(target: target), page: try PageRequest(perPage: 100)).items.map(\.action)
    }

    @Test func aBanRevokesEveryTokenAtOnceAndTheRightPasswordThenAnswersBanned() throws {
        let shop = try TestShop()
        let phone = "13900000001"
        let first = try shop.register(phone)
        let second = try shop.login(phone)
        #expect(try shop.accounts.authenticate(token: second.token) == first.user.id)

        let banned = try shop.shop.buyers.ban(first.user.id, reason: "spam", by: Self.operatorActor)
        #expect(banned.isBanned && banned.banReason == "spam")
        for token in [first.token, second.token] {
            #expect(throws: AccountError.unauthorized) { try shop.accounts.authenticate(token: token) }
        }
        #expect(throws: AccountError.accountBanned) { try shop.login(phone) }
        // a wrong password says nothing about the ban
        #expect(throws: AccountError.invalidCredentials) { try shop.login(phone, password: "wrong-password") }

        let entry = try #require(try shop.shop.audit.entries(AuditFilter(target: "user:\(first.user.id)"), page: PageRequest()).items.first)
        #expect(entry.action == "user.ban" && entry.actor == "cli:ops")
        #expect(entry.before?.contains("\"banned_at\"") == false || entry.before?.contains("\"banned_at\":null") == true)
        #expect(entry.after?.contains("\"ban_reason\":\"spam\"") == true)
    }

    @Test func banningTwiceIsHarmlessAndUnbanningRestoresLogin() throws {
        let shop = try TestShop()
        let user = try shop.register("13900000001").user.id
        let first = try shop.shop.buyers.ban(user, reason: "广告", by: Self.operatorActor)
        shop.clock.advance(by: 60)
        let again = try shop.shop.buyers.ban(user, reason: "广告刷屏", by: Self.operatorActor)
        #expect(again.bannedAt == first.bannedAt, "the first ban's time is kept")
        #expect(again.banReason == "广告刷屏")
        #expect(throws: AccountError.accountBanned) { try shop.login("13900000001") }

        let lifted = try shop.shop.buyers.unban(phone: "13900000001", by: Self.operatorActor)
        #expect(!lifted.isBanned && lifted.banReason == nil)
        let session = try shop.login("13900000001")
        #expect(try shop.accounts.authenticate(token: session.token) == user)
        #expect(try auditActions(shop, target: "user:\(user)") == ["user.unban", "user.ban", "user.ban"])
    }

    @Test func aBanOfNobodyWritesNothingAndAnOverlongReasonIsRefused() throws {
        let shop = try TestShop()
        let user = try shop.register("13900000001").user.id
        #expect(throws: SocialError.userNotFound) { try shop.shop.buyers.ban(UserID(999), reason: "x", by: Self.operatorActor) }
        #expect(throws: SocialError.userNotFound) { try shop.shop.buyers.ban(phone: "13900000009", reason: "x", by: Self.operatorActor) }
        #expect(throws: ValidationError.self) {
            try shop.shop.buyers.ban(user, reason: String(repeating: "长", count: 201), by: Self.operatorActor)
        }
        #expect(try !shop.shop.buyers.buyer(user).isBanned)
        #expect(try shop.shop.audit.entries(AuditFilter(), page: PageRequest()).total == 0)
    }

    @Test func staffFindBuyersByAPartOfThePhoneOrTheNicknameWithWholePhones() throws {
        let shop = try TestShop()
        try shop.register("13900000001", nickname: "玫瑰花开")
        shop.clock.advance(by: 1)
        try shop.register("13800000002", nickname: "Tulip_fan")
        shop.clock.advance(by: 1)
        try shop.register("13700000003", nickname: "百合")
        let buyers = shop.shop.buyers
        #expect(try buyers.buyers(matching: nil, page: PageRequest()).items.map(\.phone) == ["13700000003", "13800000002", "13900000001"])
        #expect(try buyers.buyers(matching: "0000000", page: PageRequest()).total == 3)
        #expect(try buyers.buyers(matching: "1380", page: PageRequest()).items.map(\.phone) == ["13800000002"])
        #expect(try buyers.buyers(matching: "玫瑰", page: PageRequest()).items.map(\.nickname) == ["玫瑰花开"])
        #expect(try buyers.buyers(matching: "tulip", page: PageRequest()).items.map(\.phone) == ["13800000002"])
        #expect(try buyers.buyers(matching: "_", page: PageRequest()).items.map(\.nickname) == ["Tulip_fan"], "a literal, not a pattern")
        let paged = try buyers.buyers(matching: " ", page: PageRequest(page: 2, perPage: 2))
        #expect(paged.total == 3 && paged.items.map(\.phone) == ["13900000001"])
        #expect(throws: ValidationError.self) { try buyers.buyers(matching: String(repeating: "1", count: 41), page: PageRequest()) }
    }
}
