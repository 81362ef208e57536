import Foundation
import HTTP
import ShopCore

/// `GET /track/{token}`: the recipient's page for one order, no account needed — its status, the
/// delivery day and slot, the card, the delivery photo, the recipient, and who sent the flowers
/// unless the buyer chose to stay anonymous. Phones are masked (`138****1234`). The token is the
/// only key: a token of the wrong shape is 404 before the database is asked, an unknown one 404
/// (an HTML page for a client that accepts HTML, else the API's error shape, as share pages do).
/// Plain HTML under a strict CSP (no scripts), never kept by shared caches.
struct TrackingController {
    let orders: OrderService
    /// `app.timezone`: the day an order was delivered is read in it.
    let timeZone: TimeZone

    func register(_ routes: RouteGroup) {
        routes.get("/track/:token", use: page)
    }

    func page(_ request: Request, _ context: Context) throws -> Response {
        let tracked: TrackedOrder
        do {
            tracked = try orders.tracked(token: try request.parameter("token"))
        } catch OrderError.notFound {
            // a browser (the recipient) gets a small page; any other client the API's error shape
            guard request.headers["Accept"]?.contains("text/html") == true else { throw OrderError.notFound }
            return notFound()
        }
        var headers = Self.headers
        headers.set("Cache-Control", "private, no-cache")
        return Response(status: .ok, headers: headers, body: Array(html(tracked).utf8))
    }

    func html(_ tracked: TrackedOrder) -> String {
        let order = tracked.order
        var rows: [(String, String)] = [("状态", order.status.displayName.zh)]
        if let day = order.delivery.date {
            rows.append(("送达日期", "\(day.year)年\(day.month)月\(day.day)日" + (order.delivery.slot.map { " " + Notices.slotName($0) } ?? "")))
        }
        if let delivered = order.deliveredAt { rows.append(("送达时间", Self.time(delivered, in: timeZone))) }
        rows.append(("收花人", order.address.recipient + " " + MaskedPhone.mask(order.address.phone)))
        if let name = tracked.senderName {
            rows.append(("送花人", name + (tracked.senderPhone.map { " " + MaskedPhone.mask($0) } ?? "")))
        } else {
            rows.append(("送花人", "一位不愿留名的朋友"))
        }
        let list = rows.map { "<dt>\(HTMLText.escape($0.0))</dt><dd>\(HTMLText.escape($0.1))</dd>" }.joined(separator: "\n")
        var card = ""
        if let message = order.delivery.cardMessage {
            let signature = order.delivery.cardSignature.map { "<p class=\"byline\">— \(HTMLText.escape($0))</p>" } ?? ""
            card = "<blockquote class=\"description\">\(HTMLText.escape(message))</blockquote>\(signature)"
        }
        let photo = order.deliveryPhotoURL.flatMap { MediaPath.segments(of: $0) != nil ? $0 : nil }
            .map { "<img src=\"\(HTMLText.escape($0))\" alt=\"送达照片\">" } ?? ""
        return """
            <!doctype html>
            <html lang="zh-CN">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="robots" content="noindex">
            <title>鲜花配送进度 · \(ShareController.siteName)</title>
            <link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
            <link rel="stylesheet" href="/assets/share.css">
            </head>
            <body>
            <main class="share tracking">
            <h1>鲜花配送进度</h1>
            <dl>
            \(list)
            </dl>
            \(card)
            \(photo)
            </main>
            </body>
            </html>

            """
    }

    private func notFound() -> Response {
        let body = """
            <!doctype html>
            <html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="robots" content="noindex"><title>找不到了 · \(ShareController.siteName)</title>
            <link rel="stylesheet" href="/assets/share.css"></head>
            <body><main class="share"><h1>找不到这个订单</h1><p class="description">链接可能不完整，请向送花人确认。</p></main></body></html>

            """
        var headers = Self.headers
        headers.set("Cache-Control", "no-cache")
        return Response(status: .notFound, headers: headers, body: Array(body.utf8))
    }

    private static var headers: Headers {
        var headers = Headers()
        headers.set("Content-Type", "text/html; charset=utf-8")
        headers.set("X-Content-Type-Options", "nosniff")
        headers.set("Referrer-Policy", "no-referrer")
        headers.set("Content-Security-Policy", "default-src 'none'; img-src 'self'; style-src 'self'; frame-ancestors 'none'")
        return headers
    }

    private static func time(_ date: Date, in zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.month, .day, .hour, .minute], from: date)
        return String(format: "%d月%d日 %02d:%02d", c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0)
    }
}
