import Dispatch
import Foundation
@testable import ShopAPI
@testable import ShopCore
import ShopTestSupport
import Synchronization
import Testing

/// Kept catalogue bodies whose per-click counters are old are served while they are read again
/// behind the request (`KeptBodyRefresher`), never past `countersHardMaxAge`.
struct KeptBodyRefreshTests {
    @Test func aKeyWaitingForItsRefreshIsNotQueuedAgainAndTheQueueIsBounded() {
        let refresher = KeptBodyRefresher<Int>(queueLimit: 2)
        let gate = DispatchSemaphore(value: 0)
        let runs = Runs()
        #expect(refresher.refresh(1) { gate.wait(); runs.append(1) })
        #expect(!refresher.refresh(1) { runs.append(-1) }, "the same key while its refresh is pending")
        #expect(refresher.refresh(2) { runs.append(2) })
        #expect(!refresher.refresh(3) { runs.append(3) }, "two keys wait: the queue is full")
        gate.signal()
        refresher.settle()
        #expect(runs.all == [1, 2])
        #expect(refresher.refresh(1) { runs.append(10) }, "a key is queued again once its refresh ran")
        refresher.settle()
        #expect(runs.all == [1, 2, 10])
    }

    @Test func anOldSearchPageIsServedWhileReadAgainAndTheRefreshIsNotASearch() throws {
        let app = try TestAPI { $0.search.maxPerMinutePerIP = 4 }
        // At the start of a clock minute: the throttle counts fixed minutes, and all five searches fall in this one.
        app.clock.advance(by: 60 - app.clock.now.timeIntervalSince1970.truncatingRemainder(dividingBy: 60))
        try app.orderSeed([("A", "10.00", 5)])
        let search = { try app.send("GET", "/api/v1/products", query: ["q": "花束"]) }
        #expect(try sales(search()) == [0])
        try app.shop.pool.write { db in _ = try db.run("UPDATE products SET sales = sales + 7") }
        #expect(try sales(search()) == [0], "a sale moves no version: the kept page is served")

        app.clock.advance(by: Double(CatalogController.countersMaxAge.components.seconds) + 1)
        #expect(try sales(search()) == [0], "an old page is answered at once and read again behind the request")
        app.api.keptBodies.settle()
        #expect(try sales(search()) == [7], "the fourth search of the minute is within the limit of four: the refresh was not counted")
        #expect(try search().status == 429)
    }

    @Test func aBodyPastTheHardAgeIsReadOnTheRequest() throws {
        let app = try TestAPI()
        try app.orderSeed([("A", "10.00", 5)])
        #expect(try sales(app.send("GET", "/api/v1/products")) == [0])
        try app.shop.pool.write { db in _ = try db.run("UPDATE products SET sales = sales + 3") }
        app.clock.advance(by: Double(CatalogController.countersHardMaxAge.components.seconds) + 1)
        #expect(try sales(app.send("GET", "/api/v1/products")) == [3])
    }
}

private func sales(_ response: TestResponse) throws -> [Int64] {
    try response.decode(PageResponse<ProductSummaryResponse>.self).items.map(\.sales)
}

/// What the refreshes ran, in order.
private final class Runs: Sendable {
    private let items = Mutex([Int]())
    func append(_ item: Int) { items.withLock { $0.append(item) } }
    var all: [Int] { items.withLock { $0 } }
}
