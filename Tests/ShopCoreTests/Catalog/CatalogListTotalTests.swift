import SQL
import ShopCore
import ShopTestSupport
import Testing

@Suite("Catalogue list totals")
struct CatalogListTotalTests {
    private func total(_ fixture: TestShop, category: CategoryID? = nil, min: Int64? = nil) throws -> Int {
        try fixture.catalogService.products(ProductQuery(categoryID: category, minPriceCents: min,
                                                          page: try PageRequest(page: 1, perPage: 1)), unlessAt: nil).current.total
    }

    @Test func aCachedTotalFollowsEveryImportThatChangesTheList() throws {
        let fixture = try TestShop()
        try fixture.importCatalogLines([CatalogLine(product: "P1", sku: "S1", price: "10.00")])
        #expect(try total(fixture) == 1)
        #expect(try total(fixture) == 1)

        try fixture.importCatalogLines([CatalogLine(product: "P2", sku: "S2", title: "白百合", price: "20.00")])
        #expect(try total(fixture) == 2)

        var offSale = CatalogLine(product: "P1", sku: "S1", price: "10.00")
        offSale.status = "off_sale"
        try fixture.importCatalogLines([offSale])
        #expect(try total(fixture) == 1)

        #expect(try total(fixture, min: 1_500) == 1)
        try fixture.importCatalogLines([CatalogLine(product: "P2", sku: "S2", title: "白百合", price: "12.00")])
        #expect(try total(fixture, min: 1_500) == 0)
    }

    @Test func stockChangesFromOrdersKeepTheCachedTotalValid() throws {
        let fixture = try TestShop()
        try fixture.importCatalogLines([CatalogLine(product: "P1", sku: "S1", price: "10.00")])
        let before = try fixture.pool.read { try $0.scalarInt("SELECT version FROM catalog_version") }
        try fixture.pool.write { _ = try $0.run("UPDATE skus SET stock = stock - 1") }
        let after = try fixture.pool.read { try $0.scalarInt("SELECT version FROM catalog_version") }
        #expect(before == after)
        #expect(try total(fixture) == 1)
    }
}
