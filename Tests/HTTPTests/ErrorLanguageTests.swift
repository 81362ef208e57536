import Foundation
import HTTP
import Localization
import Testing

/// The HTTP layer's own errors speak the request's language, with `Content-Language` and
/// `Vary: Accept-Language`, from the router and middleware up to answers given before the body is read.
@Suite("HTTP errors in the request's language")
struct ErrorLanguageTests {
    private func makeRouter() -> Router {
        let routes = Routes()
        routes.group("").post("/body") { request, _ in Response.text("\(request.body.count)") }
        return Router(routes)
    }

    private func respond(_ method: String, _ path: String, language: String?) throws -> (Response, [String: Any]) {
        let errors = ErrorMiddleware(map: { _ in nil }) { _, _, _ in }
        let router = makeRouter()
        var headers = Headers()
        if let language { headers.set("Accept-Language", language) }
        let response = try [errors].wrapping { request, context in try router.respond(to: request, context: context) }(
            Request(method: method, path: path, headers: headers), Context())
        let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        return (response, try #require(object["error"] as? [String: Any]))
    }

    @Test func anUnknownRouteIsChineseByDefaultAndEnglishWhenAsked() throws {
        let (chinese, zh) = try respond("GET", "/nowhere", language: nil)
        #expect(chinese.status == .notFound)
        #expect(zh["code"] as? String == "not_found")
        #expect(zh["message"] as? String == "没有这个地址：/nowhere")
        #expect(chinese.headers["Content-Language"] == "zh-Hans")
        #expect(chinese.headers["Vary"] == "Accept-Language")

        let (english, en) = try respond("GET", "/nowhere", language: "en-US,en;q=0.9")
        #expect(english.status == .notFound)
        #expect(en["code"] as? String == "not_found")
        #expect(en["message"] as? String == "No route for /nowhere.")
        #expect(english.headers["Content-Language"] == "en")
        #expect(english.headers["Vary"] == "Accept-Language")
    }

    @Test func aWrongMethodIsAnsweredInTheRequestsLanguageWithItsAllowHeader() throws {
        let (english, en) = try respond("DELETE", "/body", language: "en")
        #expect(english.status == .methodNotAllowed)
        #expect(en["message"] as? String == "DELETE is not allowed here.")
        #expect(english.headers["Allow"] == "POST")
        #expect(english.headers["Content-Language"] == "en")
        let (_, zh) = try respond("DELETE", "/body", language: "zh-CN")
        #expect(zh["message"] as? String == "这个地址不接受 DELETE 请求。")
    }

    @Test func aBodyPastTheLimitIsRefusedInTheRequestsLanguage() throws {
        var options = ServerOptions(host: "127.0.0.1", port: 0)
        options.maxBodyBytes = 16
        try withServer(router: makeRouter(), options: options) { server in
            for (language, message, tag) in [("en", "The request body is larger than 16 bytes.", "en"),
                                             (nil, "请求内容超过了 16 字节的上限。", "zh-Hans")] {
                let connection = try RawConnection(port: server.port)
                let headers = [("Content-Type", "application/json")] + (language.map { [("Accept-Language", $0)] } ?? [])
                let response = try connection.request("POST", "/body", headers: headers, body: Array(repeating: 0x61, count: 17))
                #expect(response.status == 413)
                #expect(try response.errorDetail()["code"] as? String == "payload_too_large")
                #expect(try response.errorDetail()["message"] as? String == message)
                #expect(response.header("Content-Language") == tag)
            }
        }
    }
}
