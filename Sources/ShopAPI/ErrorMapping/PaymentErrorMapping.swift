import HTTP
import ShopCore

extension ErrorMapping {
    /// Payments: signatures, amounts, providers.
    @Sendable static func payment(_ error: any Error) -> HTTPError? {
        guard let error = error as? PaymentError else { return nil }
        switch error {
        case .unknownProvider:
            return .notFound("No such payment provider.")
        case .providerNotConfigured(let provider):
            return HTTPError(.unprocessableEntity, code: "provider_unavailable",
                             message: "\(provider.rawValue) is not configured on this shop.", field: "provider")
        case .invalidSignature(let reason):
            return HTTPError(.badRequest, code: "invalid_signature", message: "The notification is not validly signed: \(reason).")
        case .malformed(let reason):
            return .badRequest("The notification could not be read: \(reason).")
        case .amountMismatch:
            return HTTPError(.badRequest, code: "amount_mismatch", message: "Amount or currency differ from the order's.")
        case .unknownOrder:
            return HTTPError(.badRequest, code: "unknown_order", message: "No order has that number.")
        case .orderNotPayable(let status):
            return HTTPError(.conflict, code: "order_state_conflict", message: "An order that is \(status.rawValue) cannot be paid.")
        }
    }
}
