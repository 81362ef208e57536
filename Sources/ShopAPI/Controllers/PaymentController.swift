import Bulkheads
import HTTP
import ShopCore

/// Starting a payment (signed in) and the providers' webhook (the signature is the authentication).
struct PaymentController {
    let payments: PaymentService
    let metrics: ShopMetrics
    /// The shop's public origin, under which a payment page sends the buyer back to the storefront.
    let origin: ShopOrigin
    /// `payments.public_base_url`: the origin when `origin` knows none (development without a Host).
    let fallbackOrigin: String

    struct StartRequest: Decodable {
        let provider: PaymentProvider
        /// `app` when left out, as before web payment.
        let channel: PaymentChannel?
    }

    struct IntentResponse: Codable {
        let paymentID: PaymentID
        let provider: PaymentProvider
        let amountCents: Int64
        let payParams: [String: String]
    }

    struct Received: Encodable { let received: Bool }

    func register(public routes: RouteGroup, signedIn: RouteGroup) {
        signedIn.post("/orders/:id/payments", use: start)
        routes.post(PaymentWebhooks.route, use: webhook)
    }

    /// 201 with the attempt and the provider's `pay_params`, for an order waiting for payment.
    func start(_ request: Request, _ context: Context) throws -> Response {
        let order = OrderID(try request.idParameter())
        let body = try request.decode(StartRequest.self)
        let intent: PaymentIntent
        do {
            intent = try payments.start(order, provider: body.provider, channel: body.channel ?? .app, for: try context.user(),
                                        clientIP: request.clientAddress, pages: pages(for: order, request))
        } catch let offload as OffloadRequest {
            // the start moves to a bulkhead and is counted when it ends there
            throw offload
        } catch {
            metrics.payment(body.provider.rawValue, "start_failed")
            throw error
        }
        metrics.payment(body.provider.rawValue, "started")
        return try .json(IntentResponse(paymentID: intent.paymentID, provider: intent.provider, amountCents: intent.amountCents,
                                        payParams: intent.payParams), status: .created)
    }

    /// The storefront's page of the order: where a payment page returns the buyer (`returned=1`
    /// makes the page read the order again and wait for the provider's word; nothing in the
    /// address is trusted) and where a buyer who gives up goes.
    func pages(for order: OrderID, _ request: Request) -> PaymentPages {
        var site = origin.origin(for: request) ?? fallbackOrigin
        while site.hasSuffix("/") { site.removeLast() }
        let page = "\(site)/#/orders?order=\(order.rawValue)"
        return PaymentPages(returnURL: page + "&returned=1", quitURL: page, siteURL: site)
    }

    /// A provider's notification, answered in that provider's own success format.
    func webhook(_ request: Request, _ context: Context) throws -> Response {
        var headers: [String: String] = [:]
        for (name, value) in request.headers where headers[name.lowercased()] == nil { headers[name.lowercased()] = value }
        let provider = try request.parameter("provider")
        let acknowledgement: WebhookAcknowledgement
        do {
            acknowledgement = try payments.receive(provider: provider, headers: headers, body: request.body)
        } catch let offload as OffloadRequest {
            throw offload
        } catch {
            metrics.payment(provider, "notify_rejected")
            throw error
        }
        metrics.payment(provider, "notified")
        switch acknowledgement {
        case .mockpay: return try .json(Received(received: true))
        case .wechatpay: return .text(PaymentService.wechatSuccessReply, contentType: "application/xml; charset=utf-8")
        case .alipay: return .text("success")
        }
    }
}
