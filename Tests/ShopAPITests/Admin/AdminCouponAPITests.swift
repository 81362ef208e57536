import Foundation
import HTTP
import SQL
@testable import ShopAPI
import ShopCore
import ShopTestSupport
import Testing

/// `/api/v1/admin/coupons`: list, create and change, audited; buyers meet the change at once.
@Suite("Admin: coupons")
struct AdminCouponAPITests {
    @Test func aManagerCreatesListsAndDisablesACouponAndABuyerIsRefusedIt() throws {
        let app = try TestAPI()
        _ = try app.testShop.cartSeed([CartCatalogRow(product: "A", sku: "A1", price: "50.00")])
        let manager = try app.staffToken(.manager)
        let created = try app.send("POST", "/api/v1/admin/coupons", json: ["code": "spring5", "amount_off_cents": 500, "max_uses": 10,
                                                                          "ends_at": "2099-01-01T00:00:00Z"], token: manager)
        #expect(created.status == 201, "\(created.text)")
        // The optional fields are `ExplicitNull`s: they decode only when the key is there, so nil means an explicit null.
        let createdCoupon = try created.decode(AdminCouponResponse.self)
        #expect(createdCoupon.code == "SPRING5" && createdCoupon.amountOffCents == 500)
        #expect(createdCoupon.percentOff == nil && createdCoupon.state == "active")
        let listed = try app.send("GET", "/api/v1/admin/coupons", token: manager)
        #expect(try listed.decode(ItemsResponse<AdminCouponResponse>.self).items.map(\.code) == ["SPRING5"])

        let changed = try app.send("PATCH", "/api/v1/admin/coupons/spring5", json: ["max_uses": NSNull(), "ends_at": NSNull(), "disabled": true],
                                   token: manager)
        #expect(changed.status == 200, "\(changed.text)")
        let changedCoupon = try changed.decode(AdminCouponResponse.self)
        #expect(changedCoupon.maxUses == nil && changedCoupon.endsAt == nil && changedCoupon.state == "disabled")
        let coupon = try #require(try app.shop.coupons.list().first)
        #expect(coupon.disabledAt != nil && coupon.maxUses == nil)
        let entries = try app.shop.audit.entries(AuditFilter(target: "coupon:SPRING5"), page: try PageRequest()).items
        #expect(entries.map(\.action) == ["coupon.update", "coupon.create"] && entries.allSatisfy { $0.actor == "manager" })
    }

    @Test func badCouponInputIsRefusedAndWritesNothing() throws {
        let app = try TestAPI()
        let manager = try app.staffToken(.manager)
        _ = try app.send("POST", "/api/v1/admin/coupons", json: ["code": "TAKEN", "percent_off": 10], token: manager)
        let rows = { try app.shop.pool.read { db in try ["coupons", "audit_log"].map { try TestDatabase.rows(of: $0, db).rows } } }
        let before = try rows()
        // Untyped on purpose: request bodies, some with unknown fields.
        let cases: [(String, String, [String: Any], Int, String)] = [
            ("POST", "/api/v1/admin/coupons", ["code": "taken", "percent_off": 5], 409, "code_taken"),
            ("POST", "/api/v1/admin/coupons", ["code": "NEW1", "percent_off": 5, "amount_off_cents": 100], 400, "validation_failed"),
            ("POST", "/api/v1/admin/coupons", ["code": "NEW1", "percent_off": 100], 400, "validation_failed"),
            ("POST", "/api/v1/admin/coupons", ["code": "NEW1", "amount_off_cents": -5], 400, "validation_failed"),
            ("POST", "/api/v1/admin/coupons", ["code": "NEW1", "percent_off": 5, "category_path": "没有"], 422, "unknown_category"),
            ("POST", "/api/v1/admin/coupons", ["code": "NEW1", "percent_off": 5, "kind": "x"], 400, "unknown_field"),
            ("PATCH", "/api/v1/admin/coupons/NOPE", ["disabled": true], 404, "coupon_not_found"),
            ("PATCH", "/api/v1/admin/coupons/TAKEN", ["max_uses": 0], 400, "validation_failed"),
            ("PATCH", "/api/v1/admin/coupons/TAKEN", ["uses": 0], 400, "unknown_field"),
        ]
        for (method, path, body, status, code) in cases {
            let response = try app.send(method, path, json: body, token: manager)
            #expect(response.status == status && response.errorCode == code, "\(method) \(path) \(body): \(response.status) \(response.text)")
        }
        #expect(try rows() == before)
        let service = try app.staffToken(.service)
        #expect(try app.send("GET", "/api/v1/admin/coupons", token: service).status == 403)
    }
}
