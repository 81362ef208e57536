import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Crypto
import ShopAPI
import ShopCore
import Synchronization

/// `shop pay simulate NUMBER`: plays the mockpay provider for one order.
struct PaySimulateCommand: Command {
    let path = ["pay", "simulate"]
    let valuedOptions: Set<String> = ["status", "url"]
    let summary = "sign a mockpay notification for an order and post it to the webhook"
    let usage = """
        Usage: shop pay simulate NUMBER [--status succeeded|failed|refunded] [--url BASE_URL] [--config PATH]

        Builds a mockpay notification for the order's latest mockpay payment (starting one if there
        is none), signs it with payments.mockpay_secret and posts it to
        \(PaymentWebhooks.notifyURL(base: "BASE_URL", provider: .mockpay)), as the provider would. BASE_URL defaults to
        http://server.host:server.port. Says what happened to the order (paid, still pending,
        already paid) and prints the server's answer. `--status refunded` confirms the order's
        mockpay refund (after the buyer cancelled it paid), as mockpay's refund event would.
        """

    struct Notification: Encodable {
        let eventID: String
        let paymentID: Int64
        let orderNumber: String
        let amountCents: Int64
        let currency: String
        let status: String
        let occurredAt: Date
        let refundNumber: String?
    }

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config", "status", "url"], positionals: 1)
        let status = arguments.option("status") ?? "succeeded"
        guard ["succeeded", "failed", "refunded"].contains(status) else {
            throw UsageError(description: say(zh: "--status 必须是 succeeded、failed 或 refunded", en: "--status must be succeeded, failed or refunded"))
        }
        let settings = try ShopEnvironment.settings(arguments)
        let config = settings.shop
        let base = arguments.option("url") ?? "http://\(settings.server.host):\(settings.server.port)"
        guard let url = URL(string: PaymentWebhooks.notifyURL(base: base.trimmingCharacters(in: CharacterSet(charactersIn: "/")),
                                                             provider: .mockpay)),
              url.scheme == "http" || url.scheme == "https" else {
            throw UsageError(description: say(zh: "--url 必须是 http(s) 基础地址，如 http://127.0.0.1:8080", en: "--url must be an http(s) base URL such as http://127.0.0.1:8080"))
        }
        let shop = try ShopEnvironment.openShop(config, logger: .silent)
        let number = arguments.positionals[0]
        if let order = try? shop.orders.order(number: number), order.status != .pendingPayment, status != "refunded" {
            let paid: Set<OrderStatus> = [.paid, .shipped, .delivered, .completed]
            if paid.contains(order.status) {
                print(say(zh: "订单 \(number) 早已付款（\(order.status.rawValue)），无需模拟", en: "order \(number) is already paid (\(order.status.rawValue)); nothing to simulate"))
                return 0
            }
        }
        let attempt: (payment: PaymentID, order: Order)
        do {
            attempt = try shop.payments.mockpayAttempt(orderNumber: number)
        } catch OrderError.notFound {
            throw CommandFailure(description: say(zh: "没有订单号为 \(number) 的订单", en: "no order numbered \(number)"))
        } catch PaymentError.orderNotPayable(let current) {
            throw CommandFailure(description: say(zh: "订单 \(number) 的状态是 \(current.rawValue)，没有可通知的 mockpay 支付", en: "order \(number) is \(current.rawValue) and has no mockpay payment to notify about"))
        }
        var refundNumber: String?
        if status == "refunded" {
            refundNumber = try shop.payments.refunds(status: nil, limit: 500)
                .first { $0.orderNumber == number && $0.provider == .mockpay && $0.status != .refunded }?.number
            guard refundNumber != nil else { throw CommandFailure(description: say(zh: "订单 \(number) 没有等待确认的 mockpay 退款", en: "order \(number) has no mockpay refund waiting")) }
        }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        let body = try encoder.encode(Notification(
            eventID: "evt_" + SecureRandom().token(byteCount: 12), paymentID: attempt.payment.rawValue, orderNumber: number,
            amountCents: attempt.order.totalCents, currency: "CNY", status: status, occurredAt: Date(), refundNumber: refundNumber))
        var request = URLRequest(url: url, timeoutInterval: 10)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(shop.payments.mockpaySignature(body: [UInt8](body), timestamp: Int64(Date().timeIntervalSince1970)),
                         forHTTPHeaderField: "Mockpay-Signature")
        let (code, text) = try Self.send(request)
        let after = (try? shop.orders.order(number: number))?.status
        switch (code, after) {
        case (200..<300, .refunded?):
            print(say(zh: "订单 \(number) 已退款（mockpay 退回 ¥\(Money.yuan(fromCents: attempt.order.totalCents))）", en: "order \(number) is now refunded (¥\(Money.yuan(fromCents: attempt.order.totalCents)) back by mockpay)"))
        case (200..<300, .paid?):
            print(say(zh: "订单 \(number) 已付款（mockpay 支付 ¥\(Money.yuan(fromCents: attempt.order.totalCents))）", en: "order \(number) is now paid (¥\(Money.yuan(fromCents: attempt.order.totalCents)) by mockpay)"))
        case (200..<300, .pendingPayment?):
            print(say(zh: "订单 \(number) 仍待付款：通知的状态是 \(status)", en: "order \(number) is still pending payment: the notification said \(status)"))
        case (200..<300, let other?):
            print(say(zh: "订单 \(number) 的状态是 \(other.rawValue)", en: "order \(number) is \(other.rawValue)"))
        default:
            print(say(zh: "服务器拒绝了通知（HTTP \(code)）；订单 \(number) 的状态是 \(after?.rawValue ?? "未知")", en: "the server refused the notification (HTTP \(code)); order \(number) is \(after?.rawValue ?? "unknown")"))
        }
        print("POST \(url.absoluteString) -> \(code)")
        print(text)
        return (200..<300).contains(code) ? 0 : 1
    }

    /// Sends synchronously; a connection failure is a reported failure.
    static func send(_ request: URLRequest) throws -> (Int, String) {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox()
        URLSession.shared.dataTask(with: request) { data, response, error in
            box.set(data: data, status: (response as? HTTPURLResponse)?.statusCode, error: error)
            done.signal()
        }.resume()
        done.wait()
        let reply = box.reply
        if let error = reply.error {
            throw CommandFailure(description: say(zh: "无法连接 \(request.url?.absoluteString ?? "")：\(error.localizedDescription)", en: "cannot reach \(request.url?.absoluteString ?? ""): \(error.localizedDescription)"))
        }
        return (reply.status ?? 0, String(decoding: reply.data ?? Data(), as: UTF8.self))
    }

    /// The completion handler's answer, handed from URLSession's thread to the waiting one.
    private final class ResultBox: Sendable {
        struct Reply {
            var data: Data?
            var status: Int?
            var error: (any Error)?
        }

        private let stored = Mutex(Reply())

        var reply: Reply { stored.withLock { $0 } }

        func set(data: Data?, status: Int?, error: (any Error)?) {
            stored.withLock { $0 = Reply(data: data, status: status, error: error) }
        }
    }
}
