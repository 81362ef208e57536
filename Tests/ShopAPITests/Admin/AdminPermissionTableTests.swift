import Foundation
import HTTP
@testable import ShopAPI
import ShopCore
import ShopTestSupport
import Testing

/// `AdminPermissions.table` is the one place that says which role may use which admin route:
/// every entry is a registered route, and every role gets 403 exactly where its role lacks the
/// entry's permission.
@Suite("Admin: the permission table")
struct AdminPermissionTableTests {
    /// A value for each route parameter that names nothing, so an allowed call changes nothing.
    static func path(_ pattern: String) -> String {
        "/api/v1" + pattern.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            switch segment {
            case ":username": "nobody-here"
            case ":number": "20990101000000"
            case ":code": "NO-SUCH-CODE"
            case let other where other.hasPrefix(":"): "999999"
            default: String(segment)
            }
        }.joined(separator: "/")
    }

    static let entries: [(method: String, pattern: String, permission: StaffPermission?)] = AdminPermissions.table.map { key, permission in
        let parts = key.split(separator: " ", maxSplits: 1)
        return (String(parts[0]), String(parts[1]), permission)
    }.sorted { ($0.pattern, $0.method) < ($1.pattern, $1.method) }

    @Test func everyEntryOfTheTableIsARegisteredRoute() throws {
        let app = try TestAPI()
        for entry in Self.entries {
            let methods = app.api.router.allowedMethods(for: Self.path(entry.pattern), reportingTo: Context())
            #expect(methods.contains(entry.method), "\(entry.method) \(entry.pattern) is in the table but not registered (\(methods))")
        }
    }

    @Test func everyRoleIsRefusedExactlyWhereItLacksTheRoutesPermission() throws {
        let app = try TestAPI()
        let tokens = try Dictionary(uniqueKeysWithValues: StaffRole.allCases.map { ($0, try app.staffToken($0)) })
        for entry in Self.entries where entry.pattern != "/admin/auth/logout" {
            for role in StaffRole.allCases {
                // Untyped on purpose: an empty request body.
                let body: Any? = ["POST", "PATCH", "PUT"].contains(entry.method) ? [String: Any]() : nil
                let response = try app.send(entry.method, Self.path(entry.pattern), json: body, token: tokens[role])
                let allowed = entry.permission.map(role.may) ?? true
                if allowed {
                    #expect(![401, 403].contains(response.status),
                            "\(role) on \(entry.method) \(entry.pattern): \(response.status) \(response.text)")
                } else {
                    #expect(response.status == 403 && response.errorCode == "forbidden",
                            "\(role) on \(entry.method) \(entry.pattern): \(response.status) \(response.text)")
                }
            }
        }
    }

    @Test func noAdminRouteAnswersWithoutAStaffToken() throws {
        let app = try TestAPI()
        let buyer = try app.token(for: "13800138000")
        for entry in Self.entries {
            for token in [nil, buyer, "not-a-token"] {
                // Untyped on purpose: an empty request body.
                let response = try app.send(entry.method, Self.path(entry.pattern), json: entry.method == "GET" ? nil : [String: Any](),
                                            token: token)
                #expect(response.status == 401 && response.errorCode == "unauthorized",
                        "\(entry.method) \(entry.pattern) with \(token == nil ? "no token" : "a buyer's token"): \(response.status)")
            }
        }
    }

    @Test func ownersHoldEveryPermissionAndOnlyOwnersManageStaff() {
        #expect(StaffRole.owner.permissions == Set(StaffPermission.allCases))
        #expect(StaffRole.allCases.filter { $0.may(.staff) } == [.owner])
        #expect(StaffRole.allCases.filter { $0.may(.audit) } == [.owner, .manager])
        #expect(StaffRole.allCases.filter { $0.may(.delivery) } == [.owner, .manager], "delivery zones: owners and managers")
        #expect(!StaffRole.florist.may(.ordersRefund) && StaffRole.florist.may(.ordersFulfil))
        #expect(StaffRole.service.may(.usersBan) && !StaffRole.service.may(.catalogWrite))
    }
}
