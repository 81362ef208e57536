import Foundation
import HTTP
@testable import ShopAPI
import ShopCore
import ShopTestSupport
import Testing

/// Staff sign-in at `/api/v1/admin/auth`, apart from buyers' accounts.
@Suite("Admin: staff sign-in")
struct AdminAuthAPITests {
    func login(_ app: TestAPI, _ username: String, _ password: String = TestShop.staffPassword, from ip: String = "10.0.0.1") throws -> TestResponse {
        try app.send("POST", "/api/v1/admin/auth/login", json: ["username": username, "password": password], from: ip)
    }

    @Test func aStaffMemberSignsInAndSeesTheirRoleAndPermissions() throws {
        let app = try TestAPI()
        try app.testShop.addStaff("lily", .florist)
        let response = try login(app, "Lily")
        #expect(response.status == 200, "\(response.text)")
        let session = try response.decode(StaffSessionResponse.self)
        #expect(session.staff.username == "lily" && session.staff.role == .florist)
        #expect(session.expiresAt == app.clock.now.addingTimeInterval(12 * 3_600))
        let me = try app.send("GET", "/api/v1/admin/me", token: session.token)
        #expect(me.status == 200)
        let decoded = try me.decode(StaffMeResponse.self)
        #expect(decoded.username == "lily" && decoded.role == .florist)
        #expect(decoded.permissions == StaffRole.florist.permissions.map(\.rawValue).sorted())
        #expect(!response.text.contains("password"), "the answer must not carry any password hash")
    }

    @Test func wrongPasswordUnknownNameAndDisabledAccountAllAnswerTheSame401() throws {
        let app = try TestAPI()
        try app.testShop.addStaff("lily", .florist)
        try app.testShop.addStaff("rose", .service)
        _ = try app.shop.staff.setDisabled("rose", true, by: .commandLine(user: "test"))
        for response in [try login(app, "lily", "wrong-password-1"), try login(app, "nobody", "whatever-password"),
                         try login(app, "rose")] {
            #expect(response.status == 401 && response.errorCode == "invalid_credentials", "\(response.text)")
        }
    }

    @Test func staffAndBuyerTokensEachWorkOnlyOnTheirOwnRoutes() throws {
        let app = try TestAPI()
        let staff = try app.staffToken(.owner)
        let buyer = try app.token(for: "13800138000")
        #expect(try app.send("GET", "/api/v1/me", token: staff).status == 401)
        #expect(try app.send("GET", "/api/v1/cart", token: staff).status == 401)
        let buyerOnAdmin = try app.send("GET", "/api/v1/admin/me", token: buyer)
        #expect(buyerOnAdmin.status == 401 && buyerOnAdmin.errorCode == "unauthorized")
        #expect(try app.send("GET", "/api/v1/me", token: buyer).status == 200)
        #expect(try app.send("GET", "/api/v1/admin/me", token: staff).status == 200)
    }

    @Test func disablingAnAccountOrChangingItsPasswordEndsItsTokensAtOnce() throws {
        let app = try TestAPI()
        let florist = try app.staffToken(.florist, username: "lily")
        _ = try app.shop.staff.setDisabled("lily", true, by: .commandLine(user: "test"))
        #expect(try app.send("GET", "/api/v1/admin/me", token: florist).status == 401)
        _ = try app.shop.staff.setDisabled("lily", false, by: .commandLine(user: "test"))
        #expect(try app.send("GET", "/api/v1/admin/me", token: florist).status == 401, "re-enabling does not revive old tokens")

        let again = try login(app, "lily").decode(StaffSessionResponse.self).token
        _ = try app.shop.staff.setPassword("lily", "a-new-password-2", by: .commandLine(user: "test"))
        #expect(try app.send("GET", "/api/v1/admin/me", token: again).status == 401)
        #expect(try login(app, "lily").status == 401)
        #expect(try login(app, "lily", "a-new-password-2").status == 200)
    }

    @Test func logoutRevokesTheTokenAndTokensExpireAfterTheirLifetime() throws {
        let app = try TestAPI()
        let token = try app.staffToken(.manager)
        #expect(try app.send("POST", "/api/v1/admin/auth/logout", token: token).status == 204)
        #expect(try app.send("GET", "/api/v1/admin/me", token: token).status == 401)

        let second = try login(app, "manager").decode(StaffSessionResponse.self).token
        app.clock.advance(by: 12 * 3_600 - 1)
        #expect(try app.send("GET", "/api/v1/admin/me", token: second).status == 200)
        app.clock.advance(by: 1)
        #expect(try app.send("GET", "/api/v1/admin/me", token: second).status == 401)
    }

    @Test func failedStaffLoginsAreThrottledPerUsername() throws {
        let app = try TestAPI { $0.auth.maxFailuresPerPhone = 3 }
        try app.testShop.addStaff("lily", .florist)
        for attempt in 1...3 {
            #expect(try login(app, "lily", "wrong-password-\(attempt)", from: "10.0.0.\(attempt)").status == 401)
        }
        let blocked = try login(app, "lily", from: "10.0.0.9")
        #expect(blocked.status == 429 && blocked.errorCode == "too_many_attempts")
        #expect(blocked.headers["Retry-After"] != nil)
        app.clock.advance(by: 901)
        #expect(try login(app, "lily", from: "10.0.0.9").status == 200)
    }

    @Test func adminRoutesNeverAnswerCORSEvenToAnAllowedOrigin() throws {
        let app = try TestAPI(server: .with { $0.corsOrigins = ["https://shop.example"] })
        let token = try app.staffToken(.owner)
        let admin = try app.send("GET", "/api/v1/admin/me", token: token, headers: [("Origin", "https://shop.example")])
        #expect(admin.status == 200 && admin.headers["Access-Control-Allow-Origin"] == nil)
        let preflight = try app.send("OPTIONS", "/api/v1/admin/me", headers: [("Origin", "https://shop.example"),
                                                                               ("Access-Control-Request-Method", "GET")])
        #expect(preflight.headers["Access-Control-Allow-Origin"] == nil)
        let buyerSide = try app.send("GET", "/api/v1/categories", headers: [("Origin", "https://shop.example")])
        #expect(buyerSide.headers["Access-Control-Allow-Origin"] == "https://shop.example")
    }

    @Test func theOwnerManagesStaffOverTheAPIAndEveryChangeIsAudited() throws {
        let app = try TestAPI()
        let owner = try app.staffToken(.owner, username: "boss")
        let added = try app.send("POST", "/api/v1/admin/staff", json: ["username": "Daisy", "role": "service"], token: owner,
                                 headers: [("X-Request-Id", "req-add-daisy")])
        #expect(added.status == 201, "\(added.text)")
        let password = try added.decode(AdminStaffController.AddedResponse.self).password
        #expect(password.count == 20)
        #expect(try login(app, "daisy", password).status == 200)
        #expect(try app.send("POST", "/api/v1/admin/staff", json: ["username": "daisy", "role": "service"], token: owner).errorCode
                == "username_taken")
        let changed = try app.send("PATCH", "/api/v1/admin/staff/daisy", json: ["role": "manager", "disabled": true], token: owner)
        #expect(changed.status == 200, "\(changed.text)")
        let member = try changed.decode(StaffResponse.self)
        #expect(member.role == .manager && member.disabled == true)
        let lastOwner = try app.send("PATCH", "/api/v1/admin/staff/boss", json: ["disabled": true], token: owner)
        #expect(lastOwner.status == 409 && lastOwner.errorCode == "last_owner")

        let audit = try app.send("GET", "/api/v1/admin/audit", query: ["staff": "boss"], token: owner)
        #expect(audit.status == 200)
        let items = try audit.decode(PageResponse<AuditEntryResponse>.self).items
        #expect(items.map(\.action) == ["staff.disable", "staff.role", "staff.add"])
        let add = try #require(items.last)
        #expect(add.target == "staff:daisy" && add.requestID == "req-add-daisy")
        #expect(add.after?.members?["role"] == .string("service"))
        // Untyped on purpose: the key is left out (a decoder would read a null `before` as nil too).
        #expect(audit.keysOfEach("items").last?.contains("before") == false, "a creation has no before")
        #expect(!audit.text.contains(password), "the one-time password is never recorded")
    }

    @Test func theAuditLogHasNoRouteThatChangesItAndTheDatabaseRefusesEdits() throws {
        let app = try TestAPI()
        let owner = try app.staffToken(.owner)
        #expect(app.api.router.allowedMethods(for: "/api/v1/admin/audit", reportingTo: Context()).filter { $0 != "HEAD" && $0 != "OPTIONS" }
                == ["GET"])
        // Untyped on purpose: an empty request body.
        for method in ["DELETE", "PATCH", "PUT", "POST"] {
            #expect(try app.send(method, "/api/v1/admin/audit", json: method == "DELETE" ? nil : [String: Any](), token: owner).status == 405)
        }
        #expect(throws: (any Error).self) { try app.shop.pool.write { db in try db.run("UPDATE audit_log SET actor = 'someone else'") } }
        #expect(throws: (any Error).self) { try app.shop.pool.write { db in try db.run("DELETE FROM audit_log") } }
        #expect(try app.shop.pool.read { db in try db.scalarInt("SELECT COUNT(*) FROM audit_log WHERE actor = 'cli:test'") } == 1)
    }

    @Test func onlyOwnersAndManagersReadTheAudit() throws {
        let app = try TestAPI()
        for (role, status) in [(StaffRole.owner, 200), (.manager, 200), (.florist, 403), (.service, 403)] {
            let token = try app.staffToken(role)
            #expect(try app.send("GET", "/api/v1/admin/audit", token: token).status == status, "\(role)")
        }
        let owner = try app.staffToken(.owner, username: "second-owner")
        for query in [["from": "2026-13-01"], ["to": ""], ["target": String(repeating: "x", count: 201)], ["staff": String(repeating: "x", count: 65)]] {
            let bad = try app.send("GET", "/api/v1/admin/audit", query: query, token: owner)
            #expect(bad.status == 400 && bad.errorCode == "validation_failed", "\(query.keys)")
        }
    }
}

extension JSONValue {
    /// The members when this is an object, nil for any other value.
    fileprivate var members: [String: JSONValue]? {
        if case .object(let members) = self { members } else { nil }
    }
}
