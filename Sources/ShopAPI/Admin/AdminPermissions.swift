import HTTP
import ShopCore

/// THE table of the operators' desk: every admin route (method and pattern under `/api/v1`) and
/// the one permission it needs. `AdminRoutes` refuses to register a route missing here, and
/// `AdminPermissionTableTests` walks every entry with every role, so what a role may do is read
/// here and nowhere else. Routes every signed-in staff member may use (sign out, who am I) need
/// `nil`.
enum AdminPermissions {
    static let table: [String: StaffPermission?] = [
        // MARK: staff sign-in and accounts (AdminAuthController, AdminStaffController)
        "POST /admin/auth/logout": nil,
        "GET /admin/me": nil,
        "GET /admin/staff": .staff,
        "POST /admin/staff": .staff,
        "PATCH /admin/staff/:username": .staff,

        // MARK: audit (AdminAuditController)
        "GET /admin/audit": .audit,

        // MARK: catalogue and coupons (AdminCatalogController, AdminCouponController)
        "GET /admin/products": .catalogRead,
        "GET /admin/products/:id": .catalogRead,
        "POST /admin/products": .catalogWrite,
        "PATCH /admin/products/:id": .catalogWrite,
        "PATCH /admin/skus/:id": .catalogWrite,
        "GET /admin/categories": .catalogRead,
        "POST /admin/categories": .catalogWrite,
        "PATCH /admin/categories/:id": .catalogWrite,
        "DELETE /admin/categories/:id": .catalogWrite,
        "GET /admin/coupons": .coupons,
        "POST /admin/coupons": .coupons,
        "PATCH /admin/coupons/:code": .coupons,

        // MARK: orders (AdminOrderController)
        "GET /admin/orders": .ordersRead,
        "GET /admin/orders/:number": .ordersRead,
        "POST /admin/orders/:number/ship": .ordersFulfil,
        "POST /admin/orders/:number/deliver": .ordersFulfil,
        "POST /admin/orders/:number/cancel": .ordersRefund,
        "POST /admin/orders/:number/refund": .ordersRefund,
        "POST /admin/orders/:number/notes": .ordersNote,

        // MARK: buyers, moderation and reports
        "GET /admin/users": .usersRead,
        "POST /admin/users/:id/ban": .usersBan,
        "POST /admin/users/:id/unban": .usersBan,
        "GET /admin/comments": .moderation,
        "DELETE /admin/comments/:id": .moderation,
        "DELETE /admin/articles/:id": .moderation,
        "POST /admin/authors/:user_id": .moderation,
        "DELETE /admin/authors/:user_id": .moderation,
        "GET /admin/reports/sales": .reportsSales,
        "GET /admin/reports/deliveries": .reportsDeliveries,

        // MARK: after-sale, delivery and search (issues 31, 32, 34)
        "GET /admin/after-sales": .afterSale,
        "POST /admin/after-sales/:id/approve": .afterSale,
        "POST /admin/after-sales/:id/reject": .afterSale,
        "GET /admin/delivery/zones": .delivery,
        "PUT /admin/delivery/zones": .delivery,
        "GET /admin/search/synonyms": .search,
        "PUT /admin/search/synonyms": .search,
    ]

    /// The permission `method pattern` needs: `.some(nil)` for any signed-in staff member, nil when
    /// the route is not in the table at all.
    static func permission(_ method: HTTPMethod, _ pattern: String) -> StaffPermission?? {
        table["\(method.rawValue) \(pattern)"]
    }
}
