import Foundation
import HTTP
import Testing
import ThreadTestSupport

@Suite("Request values over real sockets")
struct ServerRequestValuesTests {
    @Test func everyHeaderArrivesInOrderAndAQueryValueKeepsAnEncodedNul() throws {
        let seen = Locked<Request?>(nil)
        try withServer(responder: { request, _ in
            seen.withLock { $0 = request }
            return Response.text("ok")
        }) { server in
            let headers = (0..<12).map { ("X-Field-\($0)", "value \($0) " + String(repeating: "x", count: $0 * 5)) }
                + [("X-Forwarded-For", "10.0.0.1"), ("x-forwarded-for", "10.0.0.2")]
            let response = try RawConnection(port: server.port).request("GET", "/q?a=1%002&b=&a=3", headers: headers)
            #expect(response.status == 200)
            let request = try #require(seen.current)
            for (name, value) in headers.prefix(12) { #expect(request.headers[name.lowercased()] == value) }
            #expect(request.headers.values(of: "X-FORWARDED-FOR") == ["10.0.0.1", "10.0.0.2"])
            #expect(request.query == ["a": "1\u{0}2", "b": ""])
        }
    }

    @Test func theResponseCarriesEveryHeaderTheHandlerSet() throws {
        try withServer(responder: { _, _ in
            var response = Response.text("玫瑰")
            response.headers.add("X-Long", String(repeating: "v", count: 300))
            response.headers.add("Set-Cookie", "a=1")
            response.headers.add("Set-Cookie", "b=2")
            return response
        }) { server in
            let response = try RawConnection(port: server.port).request("GET", "/")
            #expect(response.text == "玫瑰")
            #expect(response.header("X-Long") == String(repeating: "v", count: 300))
            #expect(response.headers.filter { $0.name == "Set-Cookie" }.map(\.value) == ["a=1", "b=2"])
            #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
        }
    }
}
