import Foundation
import SQL
@testable import ShopCore
import ShopTestSupport
import Testing

@Suite("Catalogue: staff category edits and the export")
struct CategoryAdminTests {
    @Test func renamingACategoryMovesThePathsUnderItAndHowASearchNamingItRanks() throws {
        let shop = try TestShop()
        try shop.importCatalogLines([
            CatalogLine(product: "Y", sku: "Y-1", title: "玫瑰花束", category: "花束/玫瑰"),
            CatalogLine(product: "X", sku: "X-1", title: "玫瑰礼盒", category: "绿植"),
        ])
        let y = try shop.catalogProductID(code: "Y"), x = try shop.catalogProductID(code: "X")
        let roses = try shop.catalogCategoryID(path: "花束/玫瑰")
        // The query names the category 玫瑰: its product ranks first (and the counts are kept at this version).
        #expect(try shop.catalogService.products(ProductQuery(text: "玫瑰", page: try PageRequest()), unlessAt: nil).current.items.map(\.id) == [y, x])
        let renamed = try shop.catalogAdmin.updateCategory(roses, CategoryChanges(name: "蔷薇"), by: staffActor)
        #expect(renamed.path == "花束/蔷薇")
        #expect(try shop.catalogAdmin.product(y).categoryPath == "花束/蔷薇")
        // It names no category now: newest first, not the counts kept before the rename.
        #expect(try shop.catalogService.products(ProductQuery(text: "玫瑰", page: try PageRequest()), unlessAt: nil).current.items.map(\.id) == [x, y])
        let moved = try shop.catalogAdmin.updateCategory(try shop.catalogCategoryID(path: "花束"), CategoryChanges(name: "鲜花"), by: staffActor)
        #expect(moved.path == "鲜花")
        #expect(try shop.catalogAdmin.category(path: "鲜花/蔷薇").id == roses)
        let audit = try #require(try shop.auditRows("category.update").last)
        #expect(audit.before?.contains("\"path\":\"花束/玫瑰\"") == true && audit.after?.contains("\"path\":\"花束/蔷薇\"") == true)
    }

    @Test func movingACategoryUnderItselfOrOntoATakenPathIsRefusedAndWritesNothing() throws {
        let shop = try TestShop()
        try shop.adminSeed()
        let bouquets = try shop.catalogCategoryID(path: "花束")
        let roses = try shop.catalogCategoryID(path: "花束/玫瑰")
        let plants = try shop.catalogCategoryID(path: "绿植")
        let before = try shop.catalogSnapshot()
        #expect(throws: CatalogAdminError.categoryCycle) {
            try shop.catalogAdmin.updateCategory(bouquets, CategoryChanges(parent: .some(roses)), by: staffActor)
        }
        #expect(throws: CatalogAdminError.categoryCycle) {
            try shop.catalogAdmin.updateCategory(bouquets, CategoryChanges(parent: .some(bouquets)), by: staffActor)
        }
        #expect(throws: CatalogAdminError.categoryExists(path: "绿植")) {
            try shop.catalogAdmin.updateCategory(roses, CategoryChanges(name: "绿植", parent: .some(nil)), by: staffActor)
        }
        #expect(throws: CatalogAdminError.unknownCategory(field: "parent_id")) {
            try shop.catalogAdmin.updateCategory(plants, CategoryChanges(parent: .some(CategoryID(9_999))), by: staffActor)
        }
        #expect(throws: ValidationError.self) { try shop.catalogAdmin.updateCategory(plants, CategoryChanges(name: "a/b"), by: staffActor) }
        #expect(try shop.catalogSnapshot() == before)
        let moved = try shop.catalogAdmin.updateCategory(roses, CategoryChanges(parent: .some(plants)), by: staffActor)
        #expect(moved.path == "绿植/玫瑰" && moved.parentID == plants)
        let top = try shop.catalogAdmin.updateCategory(roses, CategoryChanges(parent: .some(nil)), by: staffActor)
        #expect(top.path == "玫瑰" && top.parentID == nil)
    }

    @Test func aCategoryIsDeletedOnlyWhenNothingIsLeftInIt() throws {
        let shop = try TestShop()
        try shop.adminSeed()
        let bouquets = try shop.catalogCategoryID(path: "花束")
        let roses = try shop.catalogCategoryID(path: "花束/玫瑰")
        #expect(throws: CatalogAdminError.categoryNotEmpty(products: 0, children: 1, coupons: 0)) {
            try shop.catalogAdmin.deleteCategory(bouquets, by: staffActor)
        }
        #expect(throws: CatalogAdminError.categoryNotEmpty(products: 1, children: 0, coupons: 0)) {
            try shop.catalogAdmin.deleteCategory(roses, by: staffActor)
        }
        let typo = try shop.catalogAdmin.createCategory(name: "郁金相", parent: bouquets, by: staffActor)
        #expect(typo.path == "花束/郁金相")
        #expect(throws: CatalogAdminError.categoryExists(path: "花束/郁金相")) {
            try shop.catalogAdmin.createCategory(name: " 郁金相 ", parent: bouquets, by: staffActor)
        }
        _ = try shop.shop.coupons.create(NewCoupon(code: "TULIP", rule: .percentOff(10), categoryPath: "花束/郁金相"), by: staffActor)
        #expect(throws: CatalogAdminError.categoryNotEmpty(products: 0, children: 0, coupons: 1)) {
            try shop.catalogAdmin.deleteCategory(typo.id, by: staffActor)
        }
        let spare = try shop.catalogAdmin.createCategory(name: "空", parent: nil, by: staffActor)
        try shop.catalogAdmin.deleteCategory(spare.id, by: staffActor)
        #expect(throws: CatalogError.categoryNotFound) { try shop.catalogAdmin.category(path: "空") }
        #expect(try shop.catalogService.categoryTree(unlessAt: nil).current.contains { $0.name == "空" } == false)
        #expect(try shop.auditRows("category.delete").map(\.target) == ["category:\(spare.id)"])
    }

    @Test func importingTheExportChangesNothing() throws {
        let shop = try TestShop()
        try shop.importCatalogLines([
            CatalogLine(product: "A", sku: "A-1", skuName: "11枝", title: "玫瑰, \"经典\"", subtitle: "=1+1", price: "129.5", originalPrice: "159",
                        stock: "7", description: "第一行\n第二行", cover: "https://img.example/a.jpg",
                        images: "https://img.example/a.jpg|/media/demo/rose-red.svg", attributes: "{\"b\":1,\"a\":\"x\"}"),
            CatalogLine(product: "A", sku: "A-2", skuName: "19枝", title: "玫瑰, \"经典\"", subtitle: "=1+1", price: "199", stock: "0",
                        description: "第一行\n第二行", cover: "https://img.example/a.jpg",
                        images: "https://img.example/a.jpg|/media/demo/rose-red.svg", attributes: "{\"b\":1,\"a\":\"x\"}"),
            CatalogLine(product: "B", sku: "B-1", skuName: "", title: "绿萝", category: "绿植/小盆栽", price: "9.90", stock: "3", status: "off_sale"),
        ])
        _ = try shop.catalogAdmin.updateSKU(code: "A-1", SKUChanges(priceCents: 12_345, stock: .delta(5)), by: staffActor)
        let before = try shop.catalogSnapshot()
        var text = ""
        let written = try CatalogExport(pool: shop.pool).csv { text += $0 }
        #expect(written == (2, 3))
        #expect(text.hasPrefix("\u{FEFF}product_code,sku_code,sku_name,title,subtitle,category,price,original_price,stock,"))
        #expect(text.contains("A,A-1,11枝,\"玫瑰, \"\"经典\"\"\",=1+1,花束/玫瑰,123.45,159.00,12,"))
        let outcome = try shop.importCatalogCSV(text)
        #expect(outcome.issues.isEmpty)
        #expect(outcome.summary.products.created == 0 && outcome.summary.products.updated == 0 && outcome.summary.products.unchanged == 2)
        #expect(outcome.summary.skus.created == 0 && outcome.summary.skus.updated == 0 && outcome.summary.skus.unchanged == 3)
        #expect(try shop.catalogSnapshot() == before)
    }
}
