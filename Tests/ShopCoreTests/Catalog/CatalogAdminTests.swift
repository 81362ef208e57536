import Foundation
import SQL
@testable import ShopCore
import ShopTestSupport
import Testing

extension TestShop {
    var catalogAdmin: CatalogAdminService { shop.catalogAdmin }

    /// Two products: P1 (two SKUs, on sale) in 花束/玫瑰 and P2 (one SKU, off sale) in 绿植.
    func adminSeed() throws {
        try importCatalogLines([
            CatalogLine(product: "P1", sku: "P1-S1", skuName: "11枝", title: "红玫瑰花束", price: "129.00", stock: "10"),
            CatalogLine(product: "P1", sku: "P1-S2", skuName: "19枝", title: "红玫瑰花束", price: "199.00", stock: "3"),
            CatalogLine(product: "P2", sku: "P2-S1", skuName: "", title: "龟背竹", category: "绿植", price: "88.00", stock: "0",
                        status: "off_sale"),
        ])
    }

    func auditRows(_ action: String) throws -> [AuditEntry] {
        try AuditLog(pool: pool).entries(AuditFilter(), page: try PageRequest(page: 1, perPage: 100)).items.filter { $0.action == action }
    }

    func skuID(_ code: String) throws -> SKUID {
        guard let id = try pool.read({ db in try db.scalar("SELECT id FROM skus WHERE code = \(code)", as: SKUID.self) }) else {
            throw FixtureError("no SKU \(code)")
        }
        return id
    }
}

let staffActor = StaffActor.commandLine(user: "tester")

@Suite("Catalogue: staff reads and product and SKU edits")
struct CatalogAdminTests {
    @Test func theStaffListHoldsOffSaleProductsWithEverySKUAndFiltersByStatusTextAndLowStock() throws {
        let shop = try TestShop()
        try shop.adminSeed()
        let all = try shop.catalogAdmin.products(AdminProductQuery(page: try PageRequest()))
        #expect(all.total == 2)
        #expect(Set(all.items.map(\.code)) == ["P1", "P2"])
        #expect(all.items.first { $0.code == "P1" }?.skus.map(\.code) == ["P1-S1", "P1-S2"])
        #expect(all.items.first { $0.code == "P2" }?.status == .offSale)
        #expect(all.items.first { $0.code == "P2" }?.skus.first?.name == "默认")
        let offSale = try shop.catalogAdmin.products(AdminProductQuery(status: .offSale, page: try PageRequest()))
        #expect(offSale.items.map(\.code) == ["P2"])
        let bySKUCode = try shop.catalogAdmin.products(AdminProductQuery(text: "p1-s2", page: try PageRequest()))
        #expect(bySKUCode.items.map(\.code) == ["P1"])
        let byTitle = try shop.catalogAdmin.products(AdminProductQuery(text: "龟背", page: try PageRequest()))
        #expect(byTitle.items.map(\.code) == ["P2"])
        let literal = try shop.catalogAdmin.products(AdminProductQuery(text: "%", page: try PageRequest()))
        #expect(literal.total == 0)
        #expect(throws: ValidationError.tooLong("q", max: 100)) {
            try shop.catalogAdmin.products(AdminProductQuery(text: String(repeating: "玫", count: 101), page: try PageRequest()))
        }
        let low = try shop.catalogAdmin.products(AdminProductQuery(lowStock: 3, page: try PageRequest()))
        #expect(Set(low.items.map(\.code)) == ["P1", "P2"])
        let veryLow = try shop.catalogAdmin.products(AdminProductQuery(lowStock: 0, page: try PageRequest()))
        #expect(veryLow.items.map(\.code) == ["P2"])
        let roses = try shop.catalogAdmin.products(AdminProductQuery(categoryID: try shop.catalogCategoryID(path: "花束"), page: try PageRequest()))
        #expect(roses.items.map(\.code) == ["P1"])
    }

    @Test func creatingAProductMakesItBuyableAndSearchableAndAuditsIt() throws {
        let shop = try TestShop()
        try shop.adminSeed()
        let category = try shop.catalogCategoryID(path: "花束/玫瑰")
        let created = try shop.catalogAdmin.create(NewProduct(
            code: "P3", title: "香槟玫瑰", subtitle: "温柔", categoryID: category, imageURLs: ["https://img.example/a.jpg"],
            attributes: ["花语": .string("爱")],
            skus: [NewSKU(code: "P3-A", name: "9枝", priceCents: 9_900, stock: 5),
                   NewSKU(code: "P3-B", name: "", priceCents: 19_900, originalPriceCents: 25_900, stock: 2)]), by: staffActor)
        #expect(created.skus.map(\.name) == ["9枝", "默认"])
        #expect(created.priceCents == 9_900 && created.totalStock == 7)
        let page = try shop.catalogService.product(created.id)
        #expect(page.skus.count == 2)
        let found = try shop.catalogService.products(ProductQuery(text: "香槟", page: try PageRequest()), unlessAt: nil).current
        #expect(found.items.map(\.id) == [created.id])
        let audit = try #require(try shop.auditRows("product.create").first)
        #expect(audit.target == "product:\(created.id)" && audit.actor == "cli:tester" && audit.before == nil)
        #expect(audit.after?.contains("\"code\":\"P3\"") == true)
    }

    @Test(arguments: [
        ("a negative price", NewSKU(code: "X-1", name: "", priceCents: -1, stock: 1)),
        ("a price past what the import reads", NewSKU(code: "X-1", name: "", priceCents: 100_000_000_000_000, stock: 1)),
        ("a negative stock", NewSKU(code: "X-1", name: "", priceCents: 100, stock: -1)),
        ("a taken SKU code", NewSKU(code: "P1-S1", name: "", priceCents: 100, stock: 1)),
        ("a SKU code with a space", NewSKU(code: "X 1", name: "", priceCents: 100, stock: 1)),
    ])
    func aBadSKUWritesNothing(_ name: String, _ sku: NewSKU) throws {
        let shop = try TestShop()
        try shop.adminSeed()
        let before = try shop.catalogSnapshot()
        #expect(throws: (any Error).self, "\(name)") {
            try shop.catalogAdmin.create(NewProduct(code: "P9", title: "新品", categoryID: try shop.catalogCategoryID(path: "绿植"),
                                                    skus: [sku]), by: staffActor)
        }
        #expect(try shop.catalogSnapshot() == before)
        #expect(try shop.auditRows("product.create").isEmpty)
    }

    @Test func aTakenProductCodeOrAnUnknownCategoryIsRefusedAndWritesNothing() throws {
        let shop = try TestShop()
        try shop.adminSeed()
        let before = try shop.catalogSnapshot()
        let sku = NewSKU(code: "NEW-1", name: "", priceCents: 100, stock: 1)
        #expect(throws: CatalogAdminError.productCodeTaken("P1")) {
            try shop.catalogAdmin.create(NewProduct(code: "P1", title: "重复", categoryID: try shop.catalogCategoryID(path: "绿植"), skus: [sku]),
                                         by: staffActor)
        }
        #expect(throws: CatalogAdminError.unknownCategory(field: "category_id")) {
            try shop.catalogAdmin.create(NewProduct(code: "P9", title: "新品", categoryID: CategoryID(9_999), skus: [sku]), by: staffActor)
        }
        #expect(throws: CatalogAdminError.unknownCategory(field: "category_id")) {
            try shop.catalogAdmin.update(try shop.catalogProductID(code: "P1"), ProductChanges(title: "改名", categoryID: CategoryID(9_999)),
                                         by: staffActor)
        }
        #expect(throws: CatalogAdminError.productCodeTaken("P2")) {
            try shop.catalogAdmin.update(try shop.catalogProductID(code: "P1"), ProductChanges(code: "P2"), by: staffActor)
        }
        #expect(try shop.catalogSnapshot() == before)
    }

    @Test func takingAProductOffSaleHidesItFromBuyersAndTheSearchAndIsAuditedWithBeforeAndAfter() throws {
        let shop = try TestShop()
        try shop.adminSeed()
        let id = try shop.catalogProductID(code: "P1")
        #expect(try shop.catalogService.products(ProductQuery(text: "玫瑰", page: try PageRequest()), unlessAt: nil).current.total == 1)
        let changed = try shop.catalogAdmin.update(id, ProductChanges(title: "白玫瑰花束", status: .offSale), by: staffActor)
        #expect(changed.status == .offSale && changed.title == "白玫瑰花束")
        #expect(throws: CatalogError.productNotFound) { try shop.catalogService.product(id) }
        #expect(try shop.catalogService.products(ProductQuery(text: "玫瑰", page: try PageRequest()), unlessAt: nil).current.total == 0)
        #expect(try shop.pool.write { db in try searchIndexEntries(of: id, db) } == 0)
        _ = try shop.catalogAdmin.update(id, ProductChanges(status: .onSale), by: staffActor)
        #expect(try shop.catalogService.products(ProductQuery(text: "白玫瑰", page: try PageRequest()), unlessAt: nil).current.items.map(\.id) == [id])
        let audit = try shop.auditRows("product.update")
        #expect(audit.count == 2)
        let first = try #require(audit.last)
        #expect(first.before?.contains("\"status\":\"on_sale\"") == true && first.after?.contains("\"status\":\"off_sale\"") == true)
    }

    @Test func aSKUEditChangesPriceAndStockAndTheProductsListPrice() throws {
        let shop = try TestShop()
        try shop.adminSeed()
        let sku = try shop.skuID("P1-S1")
        let updated = try shop.catalogAdmin.updateSKU(sku, SKUChanges(priceCents: 99_00, stock: .delta(-4)), by: staffActor)
        #expect(updated.sku.priceCents == 9_900 && updated.sku.stock == 6)
        let page = try shop.catalogService.product(updated.productID)
        #expect(page.summary.priceCents == 9_900)
        #expect(page.skus.first { $0.id == sku }?.stock == 6)
        let byCode = try shop.catalogAdmin.updateSKU(code: "P1-S1", SKUChanges(stock: .set(40), status: .offSale), by: staffActor)
        #expect(byCode.sku.stock == 40 && byCode.sku.status == .offSale && byCode.productStatus == .onSale)
        // The product stays on sale with its other SKU, which alone gives its price and stock.
        let rest = try shop.catalogService.product(updated.productID)
        #expect(rest.skus.map(\.code) == ["P1-S2"] && rest.summary.priceCents == 19_900 && rest.summary.inStock)
        let audit = try shop.auditRows("sku.update")
        #expect(audit.count == 2 && audit.allSatisfy { $0.target == "sku:\(sku)" })
        #expect(audit.last?.before?.contains("\"stock\":10") == true && audit.last?.after?.contains("\"stock\":6") == true)
    }

    @Test func aDeltaThatWouldTakeStockBelowZeroOrABadValueWritesNothing() throws {
        let shop = try TestShop()
        try shop.adminSeed()
        let sku = try shop.skuID("P1-S2")
        let before = try shop.catalogSnapshot()
        #expect(throws: CatalogAdminError.stockBelowZero(stock: 3, delta: -4)) {
            try shop.catalogAdmin.updateSKU(sku, SKUChanges(priceCents: 1, stock: .delta(-4)), by: staffActor)
        }
        #expect(throws: ValidationError.self) { try shop.catalogAdmin.updateSKU(sku, SKUChanges(stock: .set(-1)), by: staffActor) }
        #expect(throws: ValidationError.self) { try shop.catalogAdmin.updateSKU(sku, SKUChanges(priceCents: -5), by: staffActor) }
        #expect(throws: ValidationError.self) { try shop.catalogAdmin.updateSKU(sku, SKUChanges(name: "11枝"), by: staffActor) }
        #expect(throws: CatalogAdminError.skuNotFound) { try shop.catalogAdmin.updateSKU(code: "NOPE", SKUChanges(priceCents: 1), by: staffActor) }
        #expect(try shop.catalogSnapshot() == before)
        #expect(try shop.auditRows("sku.update").isEmpty)
    }
}
