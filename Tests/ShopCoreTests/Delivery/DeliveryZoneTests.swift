import Foundation
import SQL
@testable import ShopCore
import ShopTestSupport
import Testing

/// Delivery zones (issue 32) on the test shop's manual clock (2026-11-30 16:00 in Shanghai, past the
/// same-day cutoff). The order buyers' address is typed by hand: 浙江省 杭州市 西湖区 (330106).
@Suite("Delivery zones")
struct DeliveryZoneTests {
    static let operatorActor = StaffActor.commandLine(user: "test")

    static func zone(_ name: String, _ codes: [String], fee: Int64 = 800, freeOver: Int64? = nil, sameDay: Bool = true) -> DeliveryZoneDraft {
        DeliveryZoneDraft(name: name, regionCodes: codes, feeCents: fee, freeOverCents: freeOver, sameDay: sameDay)
    }

    /// 杭州 (the whole city) at ¥8, free from ¥100; 深圳's 南山区 at ¥15.
    static let twoZones = [zone("杭州", ["330100"], fee: 800, freeOver: 10_000), zone("南山", ["440305"], fee: 1_500)]

    func problems(_ body: () throws -> Void) -> [ZoneProblem] {
        do {
            try body()
            return []
        } catch DeliveryZoneError.invalid(let problems) {
            return problems
        } catch {
            return [ZoneProblem(zone: -1, .notJSON, ["unexpected": .verbatim("\(error)")])]
        }
    }

    func buy(_ shop: TestShop, _ buyer: OrderBuyer, _ sku: SKUID, quantity: Int = 1, key: String, coupon: String? = nil,
             _ delivery: DeliveryRequest = DeliveryRequest()) throws -> Order {
        try shop.shop.orders.checkout(CheckoutRequest(addressID: buyer.address, items: [.init(skuID: sku, quantity: quantity)],
                                                      couponCode: coupon, delivery: delivery),
                                      idempotencyKey: try IdempotencyKey(key), for: buyer.user, clientIP: "127.0.0.1").order
    }

    func auditCount(_ shop: TestShop) throws -> Int64 {
        try shop.pool.read { db in try db.scalarInt("SELECT COUNT(*) FROM audit_log WHERE action = 'delivery.zones'") } ?? -1
    }

    @Test func aSetWithProblemsIsRefusedWholeNamingEachZoneAndCodeAndTheZonesBeforeStay() throws {
        let shop = try TestShop()
        let before = try shop.shop.deliveryZones.replace(with: Self.twoZones, by: Self.operatorActor)
        let found = problems {
            _ = try shop.shop.deliveryZones.replace(with: [
                Self.zone("市区", ["330100", "330102"]),                // 上城区 lies inside 杭州市, listed in the same set
                Self.zone("西湖", ["330106", "999999", "33010x"]),     // inside zone 1's 杭州市; unknown; malformed
                Self.zone("", ["440305", "440305"], fee: -1, freeOver: -5),  // no name, twice, negative fee and free-over
                Self.zone("全省", ["330000"]),                          // a province
                Self.zone("市区", []),                                  // the same name, no codes
            ], by: Self.operatorActor)
        }
        let lines = found.map(\.description)
        for expected in [
            "zone 1: 330102 (上城区) lies inside 330100 (杭州市) of zone 1",
            "zone 2: 330106 (西湖区) lies inside 330100 (杭州市) of zone 1",
            "zone 2: 999999 is not a region code the shop knows",
            "zone 2: 33010x is not a six-digit region code",
            "zone 3: name must be 1 to 30 characters",
            "zone 3: 440305 (南山区) is listed in zone 3 already",
            "zone 3: fee_cents must be a whole number of cents from 0 to 100000",
            "zone 3: free_over_cents must be a whole number of cents from 0 to 10000000",
            "zone 4: 330000 (浙江省) is a province",
            "zone 5: the name 市区 is also zone 1's",
            "zone 5: region_codes must list at least one code",
        ] {
            #expect(lines.contains { $0.hasPrefix(expected) }, "missing \(expected) in \(lines)")
        }
        #expect(found.count == 11, "\(lines)")
        #expect(found.first?.message.zh.hasPrefix("第 1 个区域：330102（上城区）位于第 1 个区域的 330100（杭州市）之内") == true)
        // nothing changed: the zones before, one audit entry
        #expect(try shop.shop.deliveryZones.list() == before)
        #expect(try auditCount(shop) == 1)
    }

    @Test func theSetsSizeIsLimited() throws {
        let rules = DeliveryZoneRules(regions: .china)
        let many = (1...101).map { Self.zone("Z\($0)", ["110105"]) }
        #expect(problems { _ = try rules.validated(many) }.map(\.rule) == [.tooManyZones])
        let allCodes = RegionDirectory.china.all.filter { $0.level == .district }.prefix(501).map(\.code.rawValue)
        #expect(problems { _ = try rules.validated([Self.zone("大区", Array(allCodes))]) }.map(\.rule) == [.tooManyRegions])
        #expect(problems { _ = try rules.validated([Self.zone(String(repeating: "花", count: 31), ["110105"])]) }.map(\.rule) == [.nameLength])
        #expect(try rules.validated([Self.zone(String(repeating: "花", count: 30), ["110105"], fee: 100_000, freeOver: 10_000_000)]).count == 1)
    }

    @Test func replacingRecordsBeforeAndAfterAndAnEmptyListRemovesEveryZone() throws {
        let shop = try TestShop()
        let first = try shop.shop.deliveryZones.replace(with: Self.twoZones, by: Self.operatorActor)
        #expect(first.map(\.name) == ["杭州", "南山"])
        #expect(first[0] == DeliveryZone(name: "杭州", regionCodes: [RegionCode("330100")!], feeCents: 800, freeOverCents: 10_000, sameDay: true))
        let second = try shop.shop.deliveryZones.replace(with: [Self.zone("福田", ["440304"], fee: 0, sameDay: false)], by: Self.operatorActor)
        #expect(try shop.shop.deliveryZones.list() == second)
        let entries = try shop.shop.audit.entries(AuditFilter(target: "delivery_zones"), page: try PageRequest(page: 1, perPage: 10)).items
        #expect(entries.map(\.action) == ["delivery.zones", "delivery.zones"])
        #expect(entries.allSatisfy { $0.actor == "cli:test" })
        #expect(entries[0].before?.contains("\"name\":\"南山\"") == true && entries[0].after?.contains("\"name\":\"福田\"") == true)
        #expect(entries[0].after?.contains("\"same_day\":false") == true && entries[1].before == "[]")
        #expect(try shop.shop.deliveryZones.replace(with: [], by: Self.operatorActor).isEmpty)
        #expect(try shop.pool.read { db in try db.scalarInt("SELECT COUNT(*) FROM delivery_zone_regions") } == 0)
    }

    @Test func aCodeBelongsToOneZoneInTheDatabaseToo() throws {
        let shop = try TestShop()
        _ = try shop.shop.deliveryZones.replace(with: Self.twoZones, by: Self.operatorActor)
        // the last line of defence, should the rules ever let a code through twice
        #expect(throws: (any Error).self) {
            try shop.pool.write { db in
                try db.run("INSERT INTO delivery_zone_regions (region_code, zone_id) SELECT '330100', id FROM delivery_zones WHERE name = '南山'")
            }
        }
    }

    @Test func checkoutAddsTheZonesFeeAndFreeOverComparesWithTheGoodsAfterTheCoupon() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", price: "60.00")])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        _ = try shop.shop.deliveryZones.replace(with: Self.twoZones, by: Self.operatorActor)
        let one = try buy(shop, buyer, sku, key: "k1")
        #expect(one.deliveryFeeCents == 800 && one.totalCents == 6_800)
        let two = try buy(shop, buyer, sku, quantity: 2, key: "k2")
        #expect(two.deliveryFeeCents == 0 && two.totalCents == 12_000)
        // ¥120 of goods less ¥30 is ¥90, below the free-over ¥100: the fee is back, and not discounted
        _ = try shop.shop.coupons.create(NewCoupon(code: "LESS30", rule: .amountOff(cents: 3_000)), by: Self.operatorActor)
        let discounted = try buy(shop, buyer, sku, quantity: 2, key: "k3", coupon: "LESS30")
        #expect(discounted.discountCents == 3_000 && discounted.deliveryFeeCents == 800 && discounted.totalCents == 9_800)
    }

    @Test func anAddressOutsideEveryZoneIsRefusedAndLeavesNoOrderAndNoStockTaken() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", stock: 5)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        _ = try shop.shop.deliveryZones.replace(with: [Self.zone("南山", ["440305"])], by: Self.operatorActor)
        #expect(throws: DeliveryZoneError.outsideArea) { try buy(shop, buyer, sku, key: "k1") }
        #expect(try shop.orderRowCounts() == [0, 0, 0])
        #expect(try shop.orderStock(sku) == 5)
        // a district of the same city, not listed, is outside too
        _ = try shop.shop.deliveryZones.replace(with: [Self.zone("上城", ["330102"])], by: Self.operatorActor)
        #expect(throws: DeliveryZoneError.outsideArea) { try buy(shop, buyer, sku, key: "k2") }
        // its own district listed: served
        _ = try shop.shop.deliveryZones.replace(with: [Self.zone("西湖", ["330106"], fee: 500)], by: Self.operatorActor)
        #expect(try buy(shop, buyer, sku, key: "k3").deliveryFeeCents == 500)
        #expect(try shop.orderStock(sku) == 4)
    }

    /// A node sends a checkout's zone query with its opening read, for the division path the
    /// address had at its last checkout there (`AddressPaths`): a zone edited, or the address
    /// moved, since is still seen by the very next checkout.
    @Test func theNextCheckoutSeesAZoneEditedOrTheAddressMovedSinceTheLast() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", price: "10.00", stock: 10)])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        _ = try shop.shop.deliveryZones.replace(with: Self.twoZones, by: Self.operatorActor)
        #expect(try buy(shop, buyer, sku, key: "k1").deliveryFeeCents == 800)
        #expect(try buy(shop, buyer, sku, key: "k2").deliveryFeeCents == 800)
        // the desk edits the fee: the next checkout pays the new one
        _ = try shop.shop.deliveryZones.replace(with: [Self.zone("杭州", ["330100"], fee: 1_200), Self.zone("南山", ["440305"], fee: 1_500)],
                                                by: Self.operatorActor)
        #expect(try buy(shop, buyer, sku, key: "k3").deliveryFeeCents == 1_200)
        // the buyer moves the address to 南山区: that zone's fee, though the node guessed 西湖区's path
        _ = try shop.shop.addresses.update(buyer.address, AddressFields(regionCode: "440305"), for: buyer.user)
        let moved = try buy(shop, buyer, sku, key: "k4")
        #expect(moved.deliveryFeeCents == 1_500 && moved.totalCents == 2_500)
        // and to a district no zone serves: refused, no stock taken
        _ = try shop.shop.addresses.update(buyer.address, AddressFields(regionCode: "110105"), for: buyer.user)
        #expect(throws: DeliveryZoneError.outsideArea) { try buy(shop, buyer, sku, key: "k5") }
        #expect(try shop.orderStock(sku) == 6)
        // the zones removed: served everywhere, free
        _ = try shop.shop.deliveryZones.replace(with: [], by: Self.operatorActor)
        #expect(try buy(shop, buyer, sku, key: "k6").deliveryFeeCents == 0)
    }

    @Test func withoutZonesEveryAddressIsServedFree() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", price: "10.00")])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        let order = try buy(shop, buyer, sku, key: "k1")
        #expect(order.deliveryFeeCents == 0 && order.totalCents == 1_000)
        let quote = try shop.shop.orders.deliveryQuote(address: buyer.address, for: buyer.user, skus: [sku])
        #expect(quote.coverage == .everywhere && quote.feeCents == 0)
        #expect(quote.days == (try shop.shop.orders.deliveryDays(for: [sku])))
    }

    @Test func anAddressTypedByHandIsMatchedByItsNamesInTheDirectory() throws {
        let regions = RegionDirectory.china
        #expect(regions.code(province: "浙江省", city: "杭州市", district: "西湖区") == RegionCode("330106"))
        #expect(regions.code(province: "浙江", city: "杭州", district: "西湖") == RegionCode("330106"))
        #expect(regions.code(province: "浙江省", city: "杭州市", district: "不存在区") == RegionCode("330100"))
        #expect(regions.code(province: "浙江省", city: "没有市", district: "西湖区") == RegionCode("330000"))
        #expect(regions.code(province: "北京市", city: "北京市", district: "朝阳区") == RegionCode("110105"))
        #expect(regions.code(province: "北京", city: "朝阳区", district: "") == RegionCode("110105"))
        #expect(regions.code(province: "广东省", city: "东莞市", district: "") == RegionCode("441900"))
        #expect(regions.code(province: "火星", city: "杭州市", district: "西湖区") == nil)

        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A")])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        _ = try shop.shop.deliveryZones.replace(with: Self.twoZones, by: Self.operatorActor)
        let quote = try shop.shop.orders.deliveryQuote(address: buyer.address, for: buyer.user, skus: [sku])
        #expect(quote.coverage.zone?.name == "杭州" && quote.coverage.zone?.regionCode == RegionCode("330100") && quote.feeCents == 800)
        // names that find no division are outside the zones
        let lost = try shop.register("13900000002").user.id
        let nowhere = try shop.shop.addresses.create(
            AddressFields(recipient: "李四", phone: "13800138000", province: "某省", city: "某市", district: "某区", detail: "1号"), for: lost)
        #expect(throws: DeliveryZoneError.outsideArea) {
            try shop.shop.orders.deliveryQuote(address: nowhere.id, for: lost, skus: [])
        }
        // an address picked by code is found by it
        let picked = try shop.shop.addresses.create(
            AddressFields(recipient: "李四", phone: "13800138000", detail: "科技园1号", regionCode: "440305"), for: lost)
        #expect(try shop.shop.orders.deliveryQuote(address: picked.id, for: lost, skus: []).feeCents == 1_500)
    }

    @Test func theQuoteIsForOnesOwnAddressOnly() throws {
        let shop = try TestShop()
        let owner = try shop.orderBuyer("13900000001"), other = try shop.orderBuyer("13900000002")
        #expect(throws: AddressError.notFound) {
            try shop.shop.orders.deliveryQuote(address: owner.address, for: other.user, skus: [])
        }
    }

    @Test func aZoneWithoutSameDayDeliveryGetsNone() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A")])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        shop.clock.advance(by: 16 * 3_600)  // 1 December, 08:00 in Shanghai: before the cutoff
        let today = CalendarDay("2026-12-01")!, tomorrow = CalendarDay("2026-12-02")!
        _ = try shop.shop.deliveryZones.replace(with: [Self.zone("杭州", ["330100"], sameDay: true)], by: Self.operatorActor)
        #expect(try shop.shop.orders.deliveryQuote(address: buyer.address, for: buyer.user, skus: [sku]).days.first?.date == today)
        _ = try shop.shop.deliveryZones.replace(with: [Self.zone("杭州", ["330100"], sameDay: false)], by: Self.operatorActor)
        let quote = try shop.shop.orders.deliveryQuote(address: buyer.address, for: buyer.user, skus: [sku])
        #expect(quote.days.first?.date == tomorrow)
        #expect(throws: DeliveryUnavailable(field: "delivery_date", earliest: tomorrow)) {
            try buy(shop, buyer, sku, key: "k1", DeliveryRequest(date: today))
        }
        #expect(try buy(shop, buyer, sku, key: "k2").delivery.date == tomorrow)
    }

    @Test func theCartsPreviewShowsTheFeeTheTotalAndWhatIsMissingForFreeDelivery() throws {
        let shop = try TestShop()
        let sku = try #require(try shop.orderSeed([OrderSeedSKU(code: "A", price: "60.00")])["A"])
        let buyer = try shop.orderBuyer("13900000001")
        _ = try shop.shop.carts.add(sku, quantity: 1, for: buyer.user)
        let free = try shop.shop.carts.cart(of: buyer.user, couponCode: nil, addressID: buyer.address, clientIP: "127.0.0.1")
        #expect(free.delivery?.coverage == .everywhere && free.delivery?.feeCents == 0 && free.totalCents == 6_000)
        _ = try shop.shop.deliveryZones.replace(with: Self.twoZones, by: Self.operatorActor)
        let cart = try shop.shop.carts.cart(of: buyer.user, couponCode: nil, addressID: buyer.address, clientIP: "127.0.0.1")
        #expect(cart.delivery?.feeCents == 800 && cart.delivery?.moreForFreeDeliveryCents == 4_000 && cart.totalCents == 6_800)
        _ = try shop.shop.carts.add(sku, quantity: 1, for: buyer.user)
        let more = try shop.shop.carts.cart(of: buyer.user, couponCode: nil, addressID: buyer.address, clientIP: "127.0.0.1")
        #expect(more.delivery?.feeCents == 0 && more.delivery?.moreForFreeDeliveryCents == nil && more.totalCents == 12_000)
        _ = try shop.shop.deliveryZones.replace(with: [Self.zone("南山", ["440305"])], by: Self.operatorActor)
        #expect(throws: DeliveryZoneError.outsideArea) {
            try shop.shop.carts.cart(of: buyer.user, couponCode: nil, addressID: buyer.address, clientIP: "127.0.0.1")
        }
    }

    @Test func aZonesFileIsAnObjectWithZonesOrTheArrayAndEveryShapeProblemIsListed() throws {
        let zones = #"[{"name": "杭州", "region_codes": ["330100"], "fee_cents": 800, "free_over_cents": 10000, "same_day": true}]"#
        #expect(try DeliveryZoneFile.drafts(from: Data(zones.utf8)) == [Self.zone("杭州", ["330100"], freeOver: 10_000)])
        #expect(try DeliveryZoneFile.drafts(from: Data(#"{"zones": \#(zones)}"#.utf8)).count == 1)
        let bad = #"""
            {"zones": [{"name": 7, "region_codes": "330100", "fee_cents": 8.5, "same_day": "yes", "colour": "red"},
                       {"region_codes": [330100], "fee_cents": 800, "same_day": true}, 3]}
            """#
        let lines = problems { _ = try DeliveryZoneFile.drafts(from: Data(bad.utf8)) }.map(\.description)
        #expect(lines == ["zone 1: unknown field colour.", "zone 1: name must be text.",
                          "zone 1: region_codes must be a list of codes as text, such as [\"110105\"].",
                          "zone 1: fee_cents must be a whole number.", "zone 1: same_day must be true or false.",
                          "zone 2: name is required.", "zone 2: region_codes must be a list of codes as text, such as [\"110105\"].",
                          "zone 3: must be an object with name, region_codes, fee_cents and same_day."])
        #expect(problems { _ = try DeliveryZoneFile.drafts(from: Data("not json".utf8)) }.map(\.rule) == [.notJSON])
        #expect(problems { _ = try DeliveryZoneFile.drafts(from: Data(#"{"zone": []}"#.utf8)) }.map(\.rule) == [.noZones])
    }
}
