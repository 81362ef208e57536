import Foundation
import ShopCore

extension TestShop {
    /// The password every staff member made by `addStaff` has.
    public static let staffPassword = "staff-password-1"

    /// Adds a staff account (as the command line would) with `TestShop.staffPassword`.
    @discardableResult
    public func addStaff(_ username: String, _ role: StaffRole) throws -> StaffMember {
        try shop.staff.add(username: username, role: role, password: Self.staffPassword, by: .commandLine(user: "test")).member
    }
}

extension TestAPI {
    /// A new staff member of `role` (named after it unless `username` is given), signed in through
    /// `POST /api/v1/admin/auth/login`: answers the staff token.
    public func staffToken(_ role: StaffRole, username: String? = nil) throws -> String {
        let name = username ?? role.rawValue
        try testShop.addStaff(name, role)
        let response = try send("POST", "/api/v1/admin/auth/login", json: ["username": name, "password": TestShop.staffPassword])
        guard response.status == 200, let token = response.json["token"] as? String else {
            throw FixtureError("staff login for \(name) answered \(response.status): \(response.text)")
        }
        return token
    }
}
