import Foundation
import SQL
@testable import ShopCore
import ShopTestSupport
import Testing

@Suite("Staff accounts")
struct StaffServiceTests {
    let cli = StaffActor.commandLine(user: "test")

    func auditActions(_ shop: TestShop) throws -> [String] {
        try shop.pool.read { db in try db.query("SELECT action FROM audit_log ORDER BY id").map { try $0.decode("action", as: String.self) } }
    }

    @Test func aOneTimePasswordSignsInAndIsStoredOnlyAsArgon2id() throws {
        let shop = try TestShop()
        let added = try shop.shop.staff.add(username: "Lily", role: .florist, password: nil, by: cli)
        #expect(added.member.username == "lily" && added.password.count == 20)
        let session = try shop.shop.staff.login(username: "lily", password: added.password, clientIP: "10.0.0.1")
        #expect(try shop.shop.staff.authenticate(token: session.token) == StaffPrincipal(id: added.member.id, username: "lily", role: .florist))
        let stored = try #require(try shop.pool.read { db in try db.scalar("SELECT password_hash FROM staff", as: String.self) })
        #expect(stored.hasPrefix("$argon2id$") && !stored.contains(added.password))
        let tokens = try shop.pool.read { db in try db.query("SELECT token_hash FROM staff_tokens").map { try $0.decode("token_hash", as: String.self) } }
        #expect(tokens.count == 1 && tokens[0] != session.token && tokens[0].count == 64)
    }

    @Test(arguments: ["ab", "1lily", "li ly", "lily!", "花花花", String(repeating: "a", count: 33)])
    func badUsernamesAreRefusedAndNothingIsWritten(_ username: String) throws {
        let shop = try TestShop()
        #expect(throws: ValidationError.self) { try shop.shop.staff.add(username: username, role: .owner, password: nil, by: cli) }
        #expect(try shop.shop.staff.list().isEmpty)
        #expect(try auditActions(shop).isEmpty)
    }

    @Test func shortOrControlCharacterPasswordsAreRefused() throws {
        let shop = try TestShop()
        for password in ["short", "has\u{7}bell-in-it"] {
            #expect(throws: ValidationError.self) { try shop.shop.staff.add(username: "lily", role: .owner, password: password, by: cli) }
        }
    }

    @Test func usernamesAreUniqueWhateverTheirCase() throws {
        let shop = try TestShop()
        try shop.addStaff("lily", .florist)
        #expect(throws: StaffError.usernameTaken("lily")) { try shop.shop.staff.add(username: "LILY", role: .owner, password: nil, by: cli) }
    }

    @Test func theLastEnabledOwnerKeepsTheRoleAndCannotBeDisabled() throws {
        let shop = try TestShop()
        try shop.addStaff("boss", .owner)
        #expect(throws: StaffError.lastOwner) { try shop.shop.staff.setRole("boss", to: .manager, by: cli) }
        #expect(throws: StaffError.lastOwner) { try shop.shop.staff.setDisabled("boss", true, by: cli) }
        #expect(try auditActions(shop) == ["staff.add"], "a refused change leaves no audit row")
        try shop.addStaff("second", .owner)
        #expect(try shop.shop.staff.setRole("boss", to: .manager, by: cli).role == .manager)
        #expect(try auditActions(shop) == ["staff.add", "staff.add", "staff.role"])
    }

    @Test func everyChangeIsAuditedWithTheActorBeforeAndAfter() throws {
        let shop = try TestShop()
        try shop.addStaff("lily", .florist)
        let actor = StaffActor(staffID: nil, name: "cli:root", requestID: nil)
        _ = try shop.shop.staff.setRole("lily", to: .service, by: actor)
        let page = try shop.shop.audit.entries(AuditFilter(staff: "cli:root"), page: PageRequest())
        #expect(page.total == 1)
        let entry = try #require(page.items.first)
        #expect(entry.action == "staff.role" && entry.target == "staff:lily")
        #expect(entry.before?.contains("\"role\":\"florist\"") == true && entry.after?.contains("\"role\":\"service\"") == true)
        #expect(try shop.shop.audit.entries(AuditFilter(target: "staff:lily"), page: PageRequest()).total == 2)
    }

    @Test func auditRowsCannotBeChangedOrDeleted() throws {
        let shop = try TestShop()
        try shop.addStaff("lily", .florist)
        #expect(throws: (any Error).self) { try shop.pool.write { db in try db.run("UPDATE audit_log SET action = 'nothing'") } }
        #expect(throws: (any Error).self) { try shop.pool.write { db in try db.run("DELETE FROM audit_log") } }
        #expect(try auditActions(shop) == ["staff.add"])
    }
}
