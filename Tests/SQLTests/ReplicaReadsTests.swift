import Bulkheads
import Dispatch
import SQL
import Testing

/// `ReplicaReads`: writes to the primary, reads to the standby, and back to the primary when the
/// standby cannot serve; `PoolCounters`: what the pool metrics report.
@Suite("Replica reads and pool counters")
struct ReplicaReadsTests {
    struct EngineError: SQLError {
        let kind: SQLErrorKind
        var description: String { "engine error \(kind)" }
    }

    /// A connection that answers nothing: the bodies here only record where they ran.
    final class NoConnection: SQLConnection {
        let dialect = SQLDialect.postgresql
        func run(_ sql: SQL) throws -> Int { 0 }
        func query(_ sql: SQL) throws -> [Row] { [] }
        func queryOne(_ sql: SQL) throws -> Row? { nil }
        func execute(script: String) throws {}
        func serialize(onKeys keys: [String]) throws {}
        func refreshStatistics(of tables: [String]) throws {}
    }

    /// A database that records each transaction under its name, or fails them all with `failure`.
    final class Recording: Database, @unchecked Sendable {
        let dialect = SQLDialect.postgresql
        let name: String
        let failure: SQLErrorKind?
        var log: [String] = []

        init(_ name: String, failing failure: SQLErrorKind? = nil) {
            self.name = name
            self.failure = failure
        }

        func write<T>(_ body: (any SQLConnection) throws -> T) throws -> T { try run("\(name) write", body) }
        func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T { try run("\(name) read", body) }
        var poolStatistics: [PoolStatistics] { [PoolStatistics(name: "primary", size: 3)] }

        private func run<T>(_ what: String, _ body: (any SQLConnection) throws -> T) throws -> T {
            log.append(what)
            if let failure { throw EngineError(kind: failure) }
            return try body(NoConnection())
        }
    }

    @Test func writesGoToThePrimaryAndReadsToTheStandby() throws {
        let primary = Recording("primary"), replica = Recording("replica")
        let database = ReplicaReads(primary: primary, replica: replica)
        try database.write { _ in }
        try database.read { _ in }
        #expect(primary.log == ["primary write"])
        #expect(replica.log == ["replica read"])
    }

    @Test(arguments: [SQLErrorKind.connectionLost, .poolExhausted])
    func aReadTheStandbyCannotServeRunsOnThePrimary(kind: SQLErrorKind) throws {
        let primary = Recording("primary"), replica = Recording("replica", failing: kind)
        let answer = try ReplicaReads(primary: primary, replica: replica).read { _ in 42 }
        #expect(answer == 42)
        #expect(replica.log == ["replica read"])
        #expect(primary.log == ["primary read"])
    }

    @Test func otherErrorsOfTheStandbyAreNotHidden() {
        let primary = Recording("primary"), replica = Recording("replica", failing: .other)
        #expect(throws: EngineError.self) { try ReplicaReads(primary: primary, replica: replica).read { _ in 1 } }
        #expect(primary.log.isEmpty)
    }

    @Test func statisticsNameBothPools() {
        let stats = ReplicaReads(primary: Recording("primary"), replica: Recording("replica")).poolStatistics
        #expect(stats.map(\.name) == ["primary", "replica"])
    }

    @Test func aTurnTakenAtOnceIsCountedWithoutAWait() throws {
        let counters = PoolCounters(name: "primary", size: 1)
        let turns = DispatchSemaphore(value: 1)
        #expect(try counters.acquire(turns, timeout: 1))
        let stats = counters.statistics
        #expect(stats.acquisitions == 1 && stats.inUse == 1 && stats.waits == 0 && stats.timeouts == 0)
        counters.returned()
        turns.signal()  // (libdispatch traps on freeing a semaphore below its initial value)
        #expect(counters.statistics.inUse == 0)
    }

    @Test func aFullPoolGivesUpAfterItsTimeoutAndCountsIt() throws {
        let counters = PoolCounters(name: "primary", size: 1)
        let turns = DispatchSemaphore(value: 0)
        let started = DispatchTime.now().uptimeNanoseconds
        #expect(try !counters.acquire(turns, timeout: 0.05))
        #expect(DispatchTime.now().uptimeNanoseconds - started >= 50_000_000)
        let stats = counters.statistics
        #expect(stats.timeouts == 1 && stats.waits == 1 && stats.acquisitions == 0 && stats.inUse == 0)
        #expect(stats.waitSeconds >= 0.05)
    }

    @Test func aRequestThreadIsSentToTheDatabaseBulkheadInsteadOfWaitingForAFullPool() throws {
        let counters = PoolCounters(name: "primary", size: 1)
        let turns = DispatchSemaphore(value: 0)
        RequestThread.begin()
        defer { RequestThread.end() }
        let started = DispatchTime.now().uptimeNanoseconds
        #expect(throws: OffloadRequest(bulkhead: .database)) { try counters.acquire(turns, timeout: 5) }
        #expect(DispatchTime.now().uptimeNanoseconds - started < 1_000_000_000)
        #expect(counters.statistics.waits == 0)
    }

    @Test func aRequestThatHasWrittenWaitsWhereItIsRatherThanRunTwice() throws {
        let counters = PoolCounters(name: "primary", size: 1)
        let turns = DispatchSemaphore(value: 0)
        RequestThread.begin()
        defer { RequestThread.end() }
        RequestThread.noteWrite()
        #expect(try !counters.acquire(turns, timeout: 0.02))
        #expect(counters.statistics.timeouts == 1)
    }

    @Test func aWaitThatEndsInATurnIsCountedAsAWait() throws {
        let counters = PoolCounters(name: "primary", size: 1)
        let turns = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.02) { turns.signal() }
        #expect(try counters.acquire(turns, timeout: 5))
        let stats = counters.statistics
        #expect(stats.waits == 1 && stats.acquisitions == 1 && stats.timeouts == 0 && stats.waitSeconds > 0)
    }

    @Test func aPoolExhaustedErrorIsItsOwnKind() {
        let error = PoolExhaustedError(pool: "primary", waitedSeconds: 5)
        #expect(error.kind == .poolExhausted)
        #expect(error.description.contains("primary"))
    }
}
