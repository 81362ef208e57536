import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTP
import Synchronization

/// How the fakes post a notification to the shop, as the provider's servers would, and how they
/// answer a browser: the HTML of a provider's payment page and the redirect after paying.
public enum NotificationDelivery {
    public static let form = "application/x-www-form-urlencoded; charset=utf-8"
    public static let xml = "text/xml; charset=utf-8"

    /// Posts `body` to `url` and reports what the shop answered (`HTTP 200 success`), or why not.
    public static func post(_ body: [UInt8], to url: String, contentType: String) -> String {
        guard let target = URL(string: url) else { return "not a URL" }
        var request = URLRequest(url: target, timeoutInterval: 10)
        request.httpMethod = "POST"
        request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body)
        let answer = Mutex("no answer")
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, error in
            let text: String
            if let error {
                text = "failed: \(error.localizedDescription)"
            } else {
                text = "HTTP \((response as? HTTPURLResponse)?.statusCode ?? 0) \(String(decoding: data ?? Data(), as: UTF8.self))"
            }
            answer.withLock { $0 = text }
            done.signal()
        }.resume()
        _ = done.wait(timeout: .now() + 12)
        return answer.withLock { $0 }
    }

    /// A provider's payment page: the trade and one 付款 button that posts `fields` to `action`.
    static func payPage(title: String, lines: [String], action: String, fields: [String: String]) -> Response {
        let inputs = fields.sorted { $0.key < $1.key }
            .map { "<input type=\"hidden\" name=\"\(escape($0.key))\" value=\"\(escape($0.value))\">" }.joined()
        let html = """
            <!doctype html><html lang="zh-CN"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1"><title>\(escape(title))</title></head>
            <body><h1>\(escape(title))</h1>\(lines.map { "<p class=\"line\">\(escape($0))</p>" }.joined())
            <form method="post" action="\(escape(action))">\(inputs)<button type="submit" id="pay">付款</button></form>
            <p><small>fake-payments: a test gateway, no money moves</small></p></body></html>
            """
        return .text(html, contentType: "text/html; charset=utf-8")
    }

    /// A page saying why the request was refused, as the providers show one.
    static func errorPage(_ message: String, status: Status = .badRequest) -> Response {
        .text("<!doctype html><html lang=\"zh-CN\"><head><meta charset=\"utf-8\"><title>错误</title></head><body><h1>支付请求有误</h1>"
              + "<p class=\"error\">\(escape(message))</p></body></html>", status: status, contentType: "text/html; charset=utf-8")
    }

    /// 303 to `location`: the browser goes back to the shop.
    static func redirect(to location: String) -> Response {
        var headers = Headers()
        headers.set("Location", location)
        headers.set("Content-Type", "text/plain; charset=utf-8")
        return Response(status: Status(303), headers: headers, body: Array("see \(location)\n".utf8))
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
