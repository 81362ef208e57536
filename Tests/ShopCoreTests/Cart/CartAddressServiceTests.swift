import Foundation
import ShopCore
import ShopTestSupport
import Testing

@Suite("Address book service")
struct CartAddressServiceTests {
    /// Keep the `TestShop` alive as long as its service is used: its deinit removes the database
    /// (on PostgreSQL, the schema the service's connections would then no longer find).
    static func fixture() throws -> (TestShop, AddressService, UserID) {
        let fixture = try TestShop()
        return (fixture, fixture.shop.addresses, try fixture.cartUser("13800138000"))
    }

    static func defaults(_ book: AddressService, _ user: UserID) throws -> [AddressID] {
        try book.list(for: user).filter(\.isDefault).map(\.id)
    }

    @Test func theFirstAddressIsTheDefault() throws {
        let (shop, book, user) = try Self.fixture()
        defer { withExtendedLifetime(shop) {} }
        let first = try book.create(cartAddress(isDefault: false), for: user)
        #expect(first.isDefault)
        let second = try book.create(cartAddress("李四"), for: user)
        #expect(!second.isDefault)
        #expect(try Self.defaults(book, user) == [first.id])
    }

    @Test func creatingWithIsDefaultMovesTheDefault() throws {
        let (shop, book, user) = try Self.fixture()
        defer { withExtendedLifetime(shop) {} }
        let first = try book.create(cartAddress(), for: user)
        let second = try book.create(cartAddress("李四", isDefault: true), for: user)
        #expect(second.isDefault)
        #expect(try book.address(first.id, for: user).isDefault == false)
        #expect(try Self.defaults(book, user) == [second.id])
        // The default comes first in the list.
        #expect(try book.list(for: user).first?.id == second.id)
    }

    @Test func setDefaultMovesTheDefault() throws {
        let (shop, book, user) = try Self.fixture()
        defer { withExtendedLifetime(shop) {} }
        let first = try book.create(cartAddress(), for: user)
        let second = try book.create(cartAddress("李四"), for: user)
        let made = try book.makeDefault(second.id, for: user)
        #expect(made.isDefault)
        #expect(try Self.defaults(book, user) == [second.id])
        // Again on the default: still exactly one.
        _ = try book.makeDefault(second.id, for: user)
        #expect(try Self.defaults(book, user) == [second.id])
        _ = try book.makeDefault(first.id, for: user)
        #expect(try Self.defaults(book, user) == [first.id])
    }

    @Test func updatingWithIsDefaultTrueMovesTheDefaultAndFalseKeepsIt() throws {
        let (shop, book, user) = try Self.fixture()
        defer { withExtendedLifetime(shop) {} }
        _ = try book.create(cartAddress(), for: user)
        let second = try book.create(cartAddress("李四"), for: user)
        _ = try book.update(second.id, AddressFields(isDefault: true), for: user)
        #expect(try Self.defaults(book, user) == [second.id])
        // `false` on the only default is ignored: one must always exist.
        let kept = try book.update(second.id, AddressFields(isDefault: false), for: user)
        #expect(kept.isDefault)
        #expect(try Self.defaults(book, user) == [second.id])
    }

    @Test func deletingTheDefaultPromotesTheMostRecentlyUpdatedAddress() throws {
        let (fixture, book, user) = try Self.fixture()
        let a = try book.create(cartAddress("甲"), for: user)
        fixture.clock.advance(by: 10)
        let b = try book.create(cartAddress("乙"), for: user)
        fixture.clock.advance(by: 10)
        let c = try book.create(cartAddress("丙"), for: user)
        fixture.clock.advance(by: 10)
        // b is edited after c was created: b is now the most recently updated.
        _ = try book.update(b.id, AddressFields(detail: "人民路2号"), for: user)
        #expect(a.isDefault)

        try book.delete(a.id, for: user)
        #expect(try Self.defaults(book, user) == [b.id])
        #expect(try book.list(for: user).count == 2)

        // Deleting a non-default leaves the default alone.
        fixture.clock.advance(by: 10)
        _ = try book.update(c.id, AddressFields(detail: "人民路3号"), for: user)
        let d = try book.create(cartAddress("丁"), for: user)
        try book.delete(d.id, for: user)
        #expect(try Self.defaults(book, user) == [b.id])

        // Now c is the most recently updated one left.
        try book.delete(b.id, for: user)
        #expect(try Self.defaults(book, user) == [c.id])
        try book.delete(c.id, for: user)
        #expect(try book.list(for: user).isEmpty)
        // The book starts over: the next address is the default.
        #expect(try book.create(cartAddress(), for: user).isDefault)
    }

    /// Replays a deterministic pseudo-random sequence of every operation against a small model,
    /// checking after each step that exactly one default exists and that it is the model's.
    @Test(arguments: [1, 7, 42])
    func exactlyOneDefaultSurvivesEverySequenceOfOperations(seed: UInt64) throws {
        let (fixture, book, user) = try Self.fixture()
        var random = CartSplitMix(seed: seed)
        var updatedAt: [AddressID: Int] = [:]
        var expectedDefault: AddressID?
        var tick = 0
        for step in 0..<150 {
            fixture.clock.advance(by: 1)
            tick += 1
            let ids = updatedAt.keys.sorted { $0.rawValue < $1.rawValue }
            let pick = ids.isEmpty ? nil : ids[Int(random.next() % UInt64(ids.count))]
            switch (random.next() % 6, pick) {
            case (0, _), (1, _), (_, nil):
                let makeDefault: Bool? = [nil, true, false][Int(random.next() % 3)]
                if updatedAt.count == AddressService.maxPerUser {
                    #expect(throws: AddressError.limitExceeded(max: 20)) {
                        try book.create(cartAddress("第\(step)", isDefault: makeDefault), for: user)
                    }
                } else {
                    let created = try book.create(cartAddress("第\(step)", isDefault: makeDefault), for: user)
                    updatedAt[created.id] = tick
                    if expectedDefault == nil || makeDefault == true { expectedDefault = created.id }
                }
            case (2, let id?):
                let makeDefault: Bool? = [nil, true, false][Int(random.next() % 3)]
                _ = try book.update(id, AddressFields(detail: "第\(step)步", isDefault: makeDefault), for: user)
                updatedAt[id] = tick
                if makeDefault == true { expectedDefault = id }
            case (3, let id?):
                _ = try book.makeDefault(id, for: user)
                expectedDefault = id
            default:
                let id = try #require(pick)
                try book.delete(id, for: user)
                updatedAt[id] = nil
                if expectedDefault == id {
                    expectedDefault = updatedAt.max { ($0.value, $0.key.rawValue) < ($1.value, $1.key.rawValue) }?.key
                }
            }
            let list = try book.list(for: user)
            #expect(list.count == updatedAt.count, "step \(step)")
            let defaults = list.filter(\.isDefault).map(\.id)
            if list.isEmpty {
                #expect(defaults.isEmpty)
            } else {
                #expect(defaults.count == 1, "step \(step): defaults \(defaults)")
                #expect(defaults.first == expectedDefault, "step \(step)")
            }
        }
    }

    @Test func racingFirstAddressesMakeExactlyOneDefault() throws {
        let (shop, book, user) = try Self.fixture()
        defer { withExtendedLifetime(shop) {} }
        let outcomes = CartOutcomes()
        race(8) { index in
            do {
                _ = try book.create(cartAddress("第\(index)"), for: user)
                outcomes.record("created")
            } catch {
                outcomes.record("\(error)")
            }
        }
        #expect(outcomes.count("created") == 8, "\(outcomes.all)")
        #expect(try Self.defaults(book, user).count == 1)
    }

    @Test func theTwentyFirstAddressIsRefused() throws {
        let (fixture, book, user) = try Self.fixture()
        for index in 1...20 { _ = try book.create(cartAddress("第\(index)"), for: user) }
        let rowsBefore = try fixture.cartAddressRows(of: user)
        #expect(throws: AddressError.limitExceeded(max: 20)) { try book.create(cartAddress("第21", isDefault: true), for: user) }
        #expect(try fixture.cartAddressRows(of: user) == rowsBefore)
        // Another user's book is separate.
        let other = try fixture.cartUser("13900139000")
        #expect(try book.create(cartAddress(), for: other).isDefault)
        // Deleting one makes room again.
        try book.delete(try #require(try book.list(for: user).last).id, for: user)
        _ = try book.create(cartAddress("第21"), for: user)
        #expect(try book.list(for: user).count == 20)
    }

    @Test(arguments: [
        ("recipient", AddressFields(recipient: "")),
        ("recipient", AddressFields(recipient: "   ")),
        ("recipient", AddressFields(recipient: String(repeating: "花", count: 21))),
        ("detail", AddressFields(detail: String(repeating: "路", count: 121))),
        ("detail", AddressFields(detail: "")),
        ("phone", AddressFields(phone: "12345")),
        ("phone", AddressFields(phone: "23800138000")),
        ("phone", AddressFields(phone: "13\u{200D}800000001")),
        ("phone", AddressFields(phone: "13\u{0301}800000004")),
        ("phone", AddressFields(phone: "1380000000\u{20E3}4")),
        ("postal_code", AddressFields(postalCode: "31\u{0301}0000")),
        ("postal_code", AddressFields(postalCode: "12ab56")),
        ("postal_code", AddressFields(postalCode: "12345")),
        ("province", AddressFields(province: "")),
    ])
    func aFieldPastItsLimitIsAValidationErrorNamingIt(field: String, change: AddressFields) throws {
        let (fixture, book, user) = try Self.fixture()
        var fields = cartAddress()
        if let value = change.recipient { fields.recipient = value }
        if let value = change.detail { fields.detail = value }
        if let value = change.phone { fields.phone = value }
        if let value = change.postalCode { fields.postalCode = value }
        if let value = change.province { fields.province = value }
        let createError = #expect(throws: ValidationError.self) { try book.create(fields, for: user) }
        #expect(createError?.field == field)
        #expect(try book.list(for: user).isEmpty)

        let existing = try book.create(cartAddress(), for: user)
        let rowsBefore = try fixture.cartAddressRows(of: user)
        let updateError = #expect(throws: ValidationError.self) { try book.update(existing.id, change, for: user) }
        #expect(updateError?.field == field)
        #expect(try fixture.cartAddressRows(of: user) == rowsBefore)
    }

    @Test func fieldsAtTheirLimitsAreAccepted() throws {
        let (shop, book, user) = try Self.fixture()
        defer { withExtendedLifetime(shop) {} }
        var fields = cartAddress(String(repeating: "花", count: 20), detail: String(repeating: "路", count: 120))
        fields.phone = "+8613900139000"
        fields.postalCode = nil
        let created = try book.create(fields, for: user)
        #expect(created.recipient.count == 20)
        #expect(created.detail.count == 120)
        #expect(created.phone == "13900139000")
        #expect(created.postalCode == nil)
        #expect(try book.create(cartAddress("张"), for: user).recipient == "张")
    }

    @Test func updatingOneFieldKeepsTheOthers() throws {
        let (shop, book, user) = try Self.fixture()
        defer { withExtendedLifetime(shop) {} }
        let created = try book.create(cartAddress(), for: user)
        let updated = try book.update(created.id, AddressFields(city: "宁波市"), for: user)
        var expected = created
        expected.city = "宁波市"
        #expect(updated == expected)
        #expect(try book.address(created.id, for: user) == expected)
    }

    @Test func anotherUsersAddressIsNotFoundAndUntouched() throws {
        let (fixture, book, owner) = try Self.fixture()
        let intruder = try fixture.cartUser("13900139000")
        let address = try book.create(cartAddress(), for: owner)
        _ = try book.create(cartAddress("李四"), for: owner)
        let rowsBefore = try fixture.cartAddressRows(of: owner)
        #expect(throws: AddressError.notFound) { try book.address(address.id, for: intruder) }
        #expect(throws: AddressError.notFound) { try book.update(address.id, AddressFields(recipient: "坏人"), for: intruder) }
        #expect(throws: AddressError.notFound) { try book.makeDefault(address.id, for: intruder) }
        #expect(throws: AddressError.notFound) { try book.delete(address.id, for: intruder) }
        #expect(try book.list(for: intruder).isEmpty)
        #expect(try fixture.cartAddressRows(of: owner) == rowsBefore)
    }
}

/// SplitMix64: a tiny seeded generator, so a failing sequence replays exactly.
struct CartSplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
