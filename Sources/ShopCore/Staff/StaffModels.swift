import Foundation
import SQL

extension Entity {
    public enum Staff {}
    public enum AuditEntry {}
}

public typealias StaffID = ID<Entity.Staff>
public typealias AuditEntryID = ID<Entity.AuditEntry>

/// What a staff member may do. Each admin route needs exactly one (the HTTP side's
/// `AdminPermissions` table); each role holds a fixed set of them.
public enum StaffPermission: String, Sendable, CaseIterable, Codable {
    case catalogRead = "catalog.read"
    case catalogWrite = "catalog.write"
    case ordersRead = "orders.read"
    /// Prepare, ship and deliver.
    case ordersFulfil = "orders.fulfil"
    /// Shop-initiated cancels and refunds.
    case ordersRefund = "orders.refund"
    case ordersNote = "orders.note"
    case afterSale = "after_sale"
    case coupons
    case usersRead = "users.read"
    /// Ban and unban buyers.
    case usersBan = "users.ban"
    /// Comments, articles and column authors.
    case moderation
    case reportsSales = "reports.sales"
    case reportsDeliveries = "reports.deliveries"
    case audit
    /// Staff accounts themselves.
    case staff
    case delivery
    case search
}

/// A staff member's role (API.md, "Staff and the operators' desk").
public enum StaffRole: String, Sendable, CaseIterable, Codable, SQLCodable {
    case owner
    case manager
    case florist
    case service

    /// Everything this role may do.
    public var permissions: Set<StaffPermission> {
        switch self {
        case .owner:
            return Set(StaffPermission.allCases)
        case .manager:
            return Set(StaffPermission.allCases).subtracting([.staff])
        case .florist:
            return [.ordersRead, .ordersFulfil, .ordersNote, .catalogRead, .reportsDeliveries]
        case .service:
            return [.ordersRead, .ordersRefund, .ordersNote, .afterSale, .usersRead, .usersBan, .moderation, .catalogRead]
        }
    }

    public func may(_ permission: StaffPermission) -> Bool { permissions.contains(permission) }
}

/// A staff account as staff and the owner see it (never its password hash).
public struct StaffMember: Sendable, Equatable, Codable {
    public let id: StaffID
    public let username: String
    public let role: StaffRole
    public let disabledAt: Int64?
    public let createdAt: Int64

    public var isDisabled: Bool { disabledAt != nil }
}

/// A signed-in staff member: what `StaffService.authenticate` answers for a token.
public struct StaffPrincipal: Sendable, Equatable {
    public let id: StaffID
    public let username: String
    public let role: StaffRole

    public func may(_ permission: StaffPermission) -> Bool { role.may(permission) }
}

/// A staff login: the bearer token (shown once) and when it stops working.
public struct StaffSession: Sendable {
    public let token: String
    public let expiresAt: Date
    public let staff: StaffMember
}

/// Who makes an admin write, as the audit log records it: a staff member through `/admin` (with
/// the request's id), or an operator at the command line.
public struct StaffActor: Sendable, Equatable {
    public let staffID: StaffID?
    public let name: String
    public let requestID: String?

    public static func staff(_ principal: StaffPrincipal, requestID: String?) -> StaffActor {
        StaffActor(staffID: principal.id, name: principal.username, requestID: requestID)
    }

    /// An operator at the command line, named by the system user (`cli:root`).
    public static func commandLine(user: String) -> StaffActor {
        StaffActor(staffID: nil, name: "cli:\(user)", requestID: nil)
    }
}
