import Bulkheads
import Dispatch
import Foundation
import HTTP
import Synchronization
import Testing
import ThreadTestSupport

/// Requests that must wait leave the request thread: suspended, answered on a bulkhead, resumed.
@Suite("Offloading slow requests to bulkheads")
struct OffloadTests {
    /// A router with `/fast` answered on the request thread and `/slow` (sleeping `seconds`)
    /// offloaded to the bulkhead named `slow`.
    /// How many slow handlers have begun.
    final class Count: Sendable {
        let value = Atomic(0)
    }

    static func router(seconds: Double, started: Count? = nil) -> Router {
        let routes = Routes()
        routes.add(.get, "/fast") { _, _ in .text("fast") }
        routes.add(.get, "/slow", use: offloading(to: BulkheadName("slow")) { _, _ in
            started?.value.add(1, ordering: .relaxed)
            Thread.sleep(forTimeInterval: seconds)
            return .text("slow")
        })
        return Router(routes)
    }

    static func server(_ router: Router, bulkhead: Bulkhead, threads: Int = 1) -> Server {
        Server(options: ServerOptions(host: "127.0.0.1", port: 0, threads: threads),
               offload: [bulkhead.name: OffloadTarget(bulkhead: bulkhead, rejection: HTTPError(.serviceUnavailable, code: "busy",
                                                      message: .init(zh: "忙", en: "busy")))],
               responder: { request, context in try router.respond(to: request, context: context) })
    }

    @Test func slowRequestsOnTheOnlyRequestThreadDoNotDelayFastOnes() throws {
        let bulkhead = Bulkhead(name: BulkheadName("slow"), workers: 8, queueLimit: 0)
        defer { bulkhead.shutdown(timeout: 5) }
        let started = Count()
        let server = Self.server(Self.router(seconds: 1.5, started: started), bulkhead: bulkhead)
        try server.start()
        defer { server.stop(grace: 5) }
        let port = server.port
        let slowAnswers = Mutex<[Int]>([])
        let group = DispatchGroup()
        for _ in 0..<8 {
            DispatchQueue.global().async(group: group) {
                let status = (try? RawConnection(port: port).request("GET", "/slow").status) ?? -1
                slowAnswers.withLock { $0.append(status) }
            }
        }
        let deadline = Date().addingTimeInterval(5)
        while started.value.load(ordering: .relaxed) < 8, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(started.value.load(ordering: .relaxed) == 8)
        // all eight are sleeping on the bulkhead; the one request thread still answers at once
        let fast = try RawConnection(port: port)
        for _ in 0..<20 {
            let began = Date()
            #expect(try fast.request("GET", "/fast").text == "fast")
            #expect(Date().timeIntervalSince(began) < 0.25)
        }
        group.wait()
        #expect(slowAnswers.withLock { $0 } == Array(repeating: 200, count: 8))
        // a worker counts its job done after the job has sent its answer: wait for the last count
        let counted = Date().addingTimeInterval(2)
        while bulkhead.statistics.completed < 8, Date() < counted { Thread.sleep(forTimeInterval: 0.01) }
        #expect(bulkhead.statistics.completed == 8)
    }

    @Test func aFullBulkheadAnswers503WithRetryAfterAtOnce() throws {
        let bulkhead = Bulkhead(name: BulkheadName("slow"), workers: 1, queueLimit: 1, retryAfterSeconds: 2)
        defer { bulkhead.shutdown(timeout: 5) }
        let started = Count()
        let server = Self.server(Self.router(seconds: 3, started: started), bulkhead: bulkhead, threads: 2)
        try server.start()
        defer { server.stop(grace: 5) }
        let port = server.port
        let group = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: group) { _ = try? RawConnection(port: port).request("GET", "/slow") }
        }
        let deadline = Date().addingTimeInterval(5)
        while bulkhead.statistics.running + bulkhead.statistics.queued < 2, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let began = Date()
        let refused = try RawConnection(port: port).request("GET", "/slow")
        #expect(Date().timeIntervalSince(began) < 0.5)
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "2")
        #expect(try refused.errorDetail()["code"] as? String == "busy")
        #expect(bulkhead.statistics.rejected == 1)
        group.wait()
    }

    @Test func aRequestMovesOnFromTheDatabaseBulkheadToTheOneItNeedsNextAndNeverBack() throws {
        let database = Bulkhead(name: .database, workers: 2, queueLimit: 2)
        let slow = Bulkhead(name: BulkheadName("slow"), workers: 2, queueLimit: 2)
        defer {
            database.shutdown(timeout: 5)
            slow.shutdown(timeout: 5)
        }
        let routes = Routes()
        let runs = Mutex<[String]>([])
        routes.add(.get, "/both") { _, _ in
            // each run starts over: a pool wait first (the request moves to the database
            // bulkhead), then a provider wait (it moves on), then a pool wait again (waited where
            // it is: never back)
            runs.withLock { $0.append(RequestThread.bulkhead?.rawValue ?? "request thread") }
            try RequestThread.offload(to: .database)
            try RequestThread.offload(to: BulkheadName("slow"))
            try RequestThread.offload(to: .database)
            return .text("answered on " + (RequestThread.bulkhead?.rawValue ?? "request thread"))
        }
        let router = Router(routes)
        let rejection = HTTPError(.serviceUnavailable, code: "busy", message: .init(zh: "忙", en: "busy"))
        let server = Server(options: ServerOptions(host: "127.0.0.1", port: 0, threads: 1),
                            offload: [.database: OffloadTarget(bulkhead: database, rejection: rejection),
                                      slow.name: OffloadTarget(bulkhead: slow, rejection: rejection)],
                            responder: { request, context in try router.respond(to: request, context: context) })
        try server.start()
        defer { server.stop(grace: 5) }
        let answer = try RawConnection(port: server.port).request("GET", "/both")
        #expect(answer.status == 200)
        #expect(answer.text == "answered on slow")
        #expect(runs.withLock { $0 } == ["request thread", "database", "slow"])
    }

    /// Counts the requests it sees, and on which thread.
    final class Counting: Middleware {
        let seen = Mutex<[String]>([])

        func respond(to request: Request, context: Context, next: Responder) throws -> Response {
            seen.withLock { $0.append(RequestThread.bulkhead?.rawValue ?? "request thread") }
            return try next(request, context)
        }
    }

    @Test func aRouteDeclaredOnABulkheadMovesThereBeforeItsMiddlewareRunsAndRunsOnce() throws {
        let writes = Bulkhead(name: BulkheadName("writes"), workers: 1, queueLimit: 1)
        defer { writes.shutdown(timeout: 5) }
        let seen = Counting()
        let routes = Routes()
        routes.add(.post, "/orders/:id", middleware: [seen], on: BulkheadName("writes")) { request, _ in
            .text("\(request.parameters["id"] ?? "") on " + (RequestThread.bulkhead?.rawValue ?? "request thread"))
        }
        routes.add(.post, "/orders/:id/notes", middleware: [seen]) { _, _ in
            .text("on " + (RequestThread.bulkhead?.rawValue ?? "request thread"))
        }
        routes.add(.get, "/orders/:id", middleware: [seen]) { _, _ in
            .text("on " + (RequestThread.bulkhead?.rawValue ?? "request thread"))
        }
        let router = Router(routes)
        let rejection = HTTPError(.serviceUnavailable, code: "busy", message: .init(zh: "忙", en: "busy"))
        let server = Server(options: ServerOptions(host: "127.0.0.1", port: 0, threads: 1),
                            offload: [writes.name: OffloadTarget(bulkhead: writes, rejection: rejection)],
                            placement: { router.bulkhead(for: $0) },
                            responder: { request, context in try router.respond(to: request, context: context) })
        try server.start()
        defer { server.stop(grace: 5) }
        let connection = try RawConnection(port: server.port)
        #expect(try connection.request("POST", "/orders/7").text == "7 on writes")
        #expect(try connection.request("POST", "/orders/7/notes").text == "on request thread")
        #expect(try connection.request("GET", "/orders/7").text == "on request thread")
        // the placed request ran its middleware once, on the bulkhead: never first on the request thread
        #expect(seen.seen.withLock { $0 } == ["writes", "request thread", "request thread"])
        #expect(router.bulkhead(for: Request(method: "POST", path: "/orders/7")) == BulkheadName("writes"))
        #expect(router.bulkhead(for: Request(method: "POST", path: "/orders/7/notes")) == nil)
        #expect(router.bulkhead(for: Request(method: "GET", path: "/orders/7")) == nil)
        #expect(router.bulkhead(for: Request(method: "POST", path: "/nowhere")) == nil)
    }

    @Test func aRouteDeclaredOnABulkheadTheServerLacksStillMovesFromTheHandler() throws {
        // a server without placement (or a test calling the router): the handler moves it, as
        // `offloading(to:)` does
        let routes = Routes()
        routes.add(.post, "/orders", on: BulkheadName("writes")) { _, _ in .text("written") }
        let router = Router(routes)
        RequestThread.begin()
        defer { RequestThread.end() }
        #expect(throws: OffloadRequest(bulkhead: BulkheadName("writes"))) {
            try router.respond(to: Request(method: "POST", path: "/orders"), context: Context())
        }
    }

    @Test func aRequestToAnUnknownBulkheadRunsWhereItIs() throws {
        try withServer(router: Self.router(seconds: 0)) { server in
            let answer = try RawConnection(port: server.port).request("GET", "/slow")
            #expect(answer.text == "slow")
        }
    }

    @Test func aBulkheadRunsAtMostItsWorkersAtOnceAndQueuesTheRest() {
        let bulkhead = Bulkhead(name: BulkheadName("test"), workers: 2, queueLimit: 3)
        defer { bulkhead.shutdown(timeout: 5) }
        let running = Count()
        let highest = Count()
        let group = DispatchGroup()
        var accepted = 0
        for _ in 0..<6 {
            group.enter()
            let taken = bulkhead.submit {
                let now = running.value.add(1, ordering: .relaxed).newValue
                highest.value.max(now, ordering: .relaxed)
                Thread.sleep(forTimeInterval: 0.05)
                running.value.subtract(1, ordering: .relaxed)
                group.leave()
            }
            if taken { accepted += 1 } else { group.leave() }
        }
        group.wait()
        let deadline = Date().addingTimeInterval(5)
        while bulkhead.statistics.completed < 5, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(accepted == 5)
        #expect(highest.value.load(ordering: .relaxed) == 2)
        let statistics = bulkhead.statistics
        #expect(statistics.rejected == 1 && statistics.completed == 5 && statistics.queued == 0)
    }
}
