import Foundation
@testable import ShopCore
import ShopTestSupport
import Testing

/// `shop staff …` as an owner uses it: the built binary on the test database.
@Suite("shop staff")
struct StaffCommandTests {
    typealias CLI = PaymentSimulateCommandTests

    @Test(.enabled(if: CLI.binary != nil, "the shop executable is not built beside the tests"))
    func anOwnerCreatesAFloristAndAServiceAccountThatCanSignIn() throws {
        let app = try TestAPI()
        let (status, output) = try CLI.run(["staff", "add", "lily", "--role", "florist"], database: app.shop.config)
        #expect(status == 0, "\(output)")
        let password = try #require(output.split(separator: "\n").last?.split(separator: " ").last.map(String.init))
        let login = try app.send("POST", "/api/v1/admin/auth/login", json: ["username": "lily", "password": password])
        #expect(login.status == 200, "\(output)")

        let (roleStatus, roleOutput) = try CLI.run(["staff", "role", "lily", "service"], database: app.shop.config)
        #expect(roleStatus == 0 && roleOutput.contains("service"), "\(roleOutput)")
        let (listStatus, list) = try CLI.run(["staff", "list", "--format", "json"], database: app.shop.config)
        #expect(listStatus == 0)
        let rows = try JSONSerialization.jsonObject(with: Data(list.utf8)) as? [[String: String]]  // the command's own JSON rows
        #expect(rows?.map { $0["username"] } == ["lily"] && rows?.first?["role"] == "service")
        let (disabled, _) = try CLI.run(["staff", "disable", "lily"], database: app.shop.config)
        #expect(disabled == 0)
        #expect(try app.send("POST", "/api/v1/admin/auth/login", json: ["username": "lily", "password": password]).status == 401)
        let actions = try app.shop.audit.entries(AuditFilter(target: "staff:lily"), page: PageRequest()).items.map(\.action)
        #expect(actions == ["staff.disable", "staff.role", "staff.add"])
    }

    @Test(.enabled(if: CLI.binary != nil, "the shop executable is not built beside the tests"))
    func badRolesTakenNamesAndUnknownAccountsFailClearly() throws {
        let app = try TestAPI()
        try app.testShop.addStaff("lily", .florist)
        for (arguments, status, needed) in [(["staff", "add", "rose", "--role", "boss"], Int32(2), "--role must be owner, manager, florist or service"),
                                            (["staff", "add", "lily", "--role", "owner"], 1, "the username lily is taken"),
                                            (["staff", "disable", "nobody"], 1, "no staff member is named nobody"),
                                            (["staff", "add", "x", "--role", "owner"], 1, "username")] {
            let (exit, output) = try CLI.run(arguments, database: app.shop.config)
            #expect(exit == status && output.contains(needed), "\(arguments): \(exit) \(output)")
        }
        #expect(try app.shop.staff.list().map(\.username) == ["lily"])
    }
}
