import Foundation
import ThreadTestSupport
import HTTP
import Localization
import Testing

@Suite("Middleware")
struct MiddlewareTests {
    struct DatabaseExploded: Error, CustomStringConvertible {
        var description: String { "SQLite error 19: UNIQUE constraint failed: users.phone (in: INSERT INTO users ...)" }
    }

    struct OutOfStock: Error {}

    private func errorDetail(_ response: Response) throws -> [String: Any] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        return try #require(object["error"] as? [String: Any])
    }

    private func run(_ middleware: [any Middleware], request: Request = Request(method: "GET", path: "/"),
                     _ handler: @escaping Responder) throws -> Response {
        try middleware.wrapping(handler)(request, Context())
    }

    @Test func aClientRequestIDIsEchoed() throws {
        let seen = Locked<String?>(nil)
        let middleware = RequestIDMiddleware(makeID: { "generated" })
        let request = Request(method: "GET", path: "/", headers: Headers([("x-request-id", "abc-123_XYZ")]))
        let response = try run([middleware], request: request) { _, context in
            seen.withLock { $0 = context.requestID }
            return Response.text("ok")
        }
        #expect(response.headers["X-Request-Id"] == "abc-123_XYZ")
        #expect(seen.current == "abc-123_XYZ")
    }

    @Test func aRequestIDIsGeneratedWhenNoneIsSent() throws {
        let middleware = RequestIDMiddleware(makeID: { "generated-7" })
        let response = try run([middleware]) { _, context in Response.text(context.requestID) }
        #expect(response.headers["X-Request-Id"] == "generated-7")
        #expect(String(decoding: response.body, as: UTF8.self) == "generated-7")
    }

    @Test("An unsafe client request ID is replaced, never echoed",
          arguments: ["", "has space", "new\nline", String(repeating: "a", count: 129), "玫瑰"])
    func anUnsafeRequestIDIsReplaced(_ id: String) throws {
        let middleware = RequestIDMiddleware(makeID: { "generated" })
        let request = Request(method: "GET", path: "/", headers: Headers([("X-Request-Id", id)]))
        let response = try run([middleware], request: request) { _, _ in Response.text("ok") }
        #expect(response.headers["X-Request-Id"] == "generated")
    }

    @Test func theRequestIDIsOnErrorResponsesAndTheCompletionSeesEveryRequest() throws {
        let completed = Locked<[(String, Int)]>([])
        let middleware = RequestIDMiddleware(makeID: { "generated" }) { _, response, id, milliseconds in
            #expect(milliseconds >= 0)
            completed.withLock { $0.append((id, response.status.code)) }
        }
        let response = try run([middleware]) { _, _ in throw HTTPError.notFound() }
        #expect(response.status == .notFound)
        #expect(response.headers["X-Request-Id"] == "generated")
        #expect(completed.current.map(\.0) == ["generated"])
        #expect(completed.current.map(\.1) == [404])
    }

    @Test func unknownErrorsBecome500InternalWithoutLeakingTheirText() throws {
        let reported = Locked<[String]>([])
        let errors = ErrorMiddleware(map: { _ in nil }) { error, _, context in
            reported.withLock { $0.append("\(context.requestID): \(error)") }
        }
        let chain: [any Middleware] = [RequestIDMiddleware(makeID: { "req-1" }), errors]
        let response = try run(chain) { _, _ in throw DatabaseExploded() }
        #expect(response.status == .internalServerError)
        let detail = try errorDetail(response)
        #expect(detail["code"] as? String == "internal")
        let body = String(decoding: response.body, as: UTF8.self)
        #expect(!body.contains("SQLite"))
        #expect(!body.contains("users"))
        #expect(!body.contains("INSERT"))
        #expect(response.headers["X-Request-Id"] == "req-1")
        #expect(reported.current.count == 1)
        #expect(reported.current.first?.hasPrefix("req-1: SQLite error 19") == true)
    }

    @Test func mappedErrorsUseTheirStatusAndCodeAndAreNotReported() throws {
        let reported = Locked(0)
        let errors = ErrorMiddleware(map: { error in
            error is OutOfStock ? HTTPError(.conflict, code: "out_of_stock", message: LocalizedText(zh: "已售罄。", en: "Sold out."),
                                             field: "sku_id") : nil
        }) { _, _, _ in reported.withLock { $0 += 1 } }
        let response = try run([errors]) { _, _ in throw OutOfStock() }
        #expect(response.status == .conflict)
        let detail = try errorDetail(response)
        #expect(detail["code"] as? String == "out_of_stock")
        #expect(detail["field"] as? String == "sku_id")
        #expect(reported.current == 0)
    }

    @Test func httpErrorsPassThroughWithRetryAfter() throws {
        let errors = ErrorMiddleware(map: { _ in nil }) { _, _, _ in }
        let english = Request(method: "GET", path: "/", headers: Headers([("Accept-Language", "en-US,en;q=0.9")]))
        let response = try run([errors], request: english) { _, _ in
            throw HTTPError(.tooManyRequests, code: "code_cooldown", message: LocalizedText(zh: "请稍候。", en: "Wait."), retryAfter: 42)
        }
        #expect(response.status == .tooManyRequests)
        #expect(response.headers["Retry-After"] == "42")
        let detail = try errorDetail(response)
        #expect(detail["code"] as? String == "code_cooldown")
        #expect(detail["retry_after"] as? Int == 42)
        #expect(detail["message"] as? String == "Wait.")
        #expect(detail["field"] == nil)
    }

    @Test func middlewareRunsFirstOutermost() throws {
        struct Recorder: Middleware {
            let name: String
            let log: Locked<[String]>
            func respond(to request: Request, context: Context, next: Responder) throws -> Response {
                log.withLock { $0.append("> \(name)") }
                defer { log.withLock { $0.append("< \(name)") } }
                return try next(request, context)
            }
        }
        let log = Locked<[String]>([])
        _ = try run([Recorder(name: "a", log: log), Recorder(name: "b", log: log)]) { _, _ in
            log.withLock { $0.append("handler") }
            return Response.empty()
        }
        #expect(log.current == ["> a", "> b", "handler", "< b", "< a"])
    }
}
