import Foundation
import HTTP
@testable import ShopAPI
import ShopCore
import ShopTestSupport
import Testing

/// Buyers at the operators' desk: `GET /admin/users`, `POST /admin/users/{id}/ban|unban`.
@Suite("Admin: buyers, ban and unban")
struct AdminUserAPITests {
    func login(_ app: TestAPI, _ phone: String, language: String = "zh-CN") throws -> TestResponse {
        try app.send("POST", "/api/v1/auth/login", json: ["phone": phone, "password": TestAPI.password],
                     headers: [("Accept-Language", language)])
    }

    @Test func aBanSignsTheBuyerOutAtOnceAndTheirLoginAnswers403UntilUnbanned() throws {
        let app = try TestAPI()
        let registered = try app.register("13800138000", nickname: "刷屏王")
        let buyerToken = try registered.decode(SessionResponse.self).token
        let id = try registered.decode(SessionResponse.self).user.id.rawValue
        let staff = try app.staffToken(.service)
        #expect(try app.send("GET", "/api/v1/me", token: buyerToken).status == 200)

        let banned = try app.send("POST", "/api/v1/admin/users/\(id)/ban", json: ["reason": "广告刷屏"], token: staff,
                                  headers: [("X-Request-Id", "req-ban-1")])
        #expect(banned.status == 200, "\(banned.text)")
        let bannedUser = try banned.decode(AdminUserResponse.self)
        #expect(bannedUser.banned == true && bannedUser.banReason == "广告刷屏")
        #expect(bannedUser.phone == "13800138000")
        #expect(try app.send("GET", "/api/v1/me", token: buyerToken).status == 401)
        let refused = try login(app, "13800138000")
        #expect(refused.status == 403 && refused.errorCode == "account_banned")
        #expect(refused.error?.message == "这个账号已被封禁，无法登录；如有疑问请联系客服。")
        #expect(try login(app, "13800138000", language: "en").error?.message
                == "This account has been banned and cannot sign in; contact customer service if you think this is wrong.")

        let again = try app.send("POST", "/api/v1/admin/users/\(id)/ban", json: ["reason": "再次"], token: staff)
        #expect(again.status == 200, "\(again.text)")
        #expect(try again.decode(AdminUserResponse.self).bannedAt == bannedUser.bannedAt)

        let unbanned = try app.send("POST", "/api/v1/admin/users/\(id)/unban", token: staff)
        #expect(unbanned.status == 200, "\(unbanned.text)")
        let unbannedUser = try unbanned.decode(AdminUserResponse.self)
        #expect(unbannedUser.banned == false)
        // `banned_at` is an `ExplicitNull`: it decodes only when the key is there, so nil means an explicit null.
        #expect(unbannedUser.bannedAt == nil)
        #expect(try login(app, "13800138000").status == 200)

        let audit = try app.shop.audit.entries(AuditFilter(target: "user:\(id)"), page: PageRequest()).items
        #expect(audit.map(\.action) == ["user.unban", "user.ban", "user.ban"])
        #expect(audit.last?.actor == "service" && audit.last?.requestID == "req-ban-1")
    }

    @Test func staffFindBuyersWithWholePhonesWhileBuyersSeeTheirsMasked() throws {
        let app = try TestAPI()
        let token = try app.token(for: "13800138000")
        _ = try app.register("13900139000", nickname: "Tulip")
        let staff = try app.staffToken(.service)
        let found = try app.send("GET", "/api/v1/admin/users", query: ["q": "tulip"], token: staff)
        #expect(found.status == 200)
        let foundPage = try found.decode(PageResponse<AdminUserResponse>.self)
        #expect(foundPage.items.map(\.phone) == ["13900139000"])
        #expect(foundPage.total == 1 && foundPage.perPage == 20)
        let all = try app.send("GET", "/api/v1/admin/users", query: ["q": "138", "per_page": "1"], token: staff)
        #expect(try all.decode(PageResponse<AdminUserResponse>.self).items.first?.phone == "13800138000")
        #expect(try app.send("GET", "/api/v1/me", token: token).decode(UserResponse.self).phone == "138****8000")
    }

    @Test func aBadBanIsRefusedInTheErrorShapeAndChangesNothing() throws {
        let app = try TestAPI()
        let id = try app.register("13800138000").decode(SessionResponse.self).user.id.rawValue
        let staff = try app.staffToken(.manager)
        let long = try app.send("POST", "/api/v1/admin/users/\(id)/ban", json: ["reason": String(repeating: "长", count: 201)], token: staff)
        #expect(long.status == 400 && long.errorCode == "validation_failed" && long.error?.field == "reason")
        // Untyped on purpose: an empty request body.
        let missing = try app.send("POST", "/api/v1/admin/users/\(id)/ban", json: [String: Any](), token: staff)
        #expect(missing.status == 400 && missing.error?.field == "reason")
        let nobody = try app.send("POST", "/api/v1/admin/users/99999/ban", json: ["reason": "x"], token: staff)
        #expect(nobody.status == 404 && nobody.errorCode == "not_found")
        #expect(try login(app, "13800138000").status == 200)
        #expect(try app.shop.audit.entries(AuditFilter(), page: PageRequest()).items.filter { $0.action.hasPrefix("user.") }.isEmpty)
    }

    @Test func aFloristMayNeitherFindNorBanBuyers() throws {
        let app = try TestAPI()
        let id = try app.register("13800138000").decode(SessionResponse.self).user.id.rawValue
        let florist = try app.staffToken(.florist)
        #expect(try app.send("GET", "/api/v1/admin/users", token: florist).status == 403)
        #expect(try app.send("POST", "/api/v1/admin/users/\(id)/ban", json: ["reason": "x"], token: florist).status == 403)
        #expect(try login(app, "13800138000").status == 200)
    }
}
