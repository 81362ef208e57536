import Foundation

/// Why an after-sale request or decision was refused; nothing changed. (An order that is not the
/// buyer's is `OrderError.notFound`; more money than is left is `OrderError.refundExceedsPaid`.)
public enum AfterSaleError: Error, Equatable, Sendable {
    /// No after-sale request has this id.
    case notFound
    /// The order already has an open request (`requested`, or `approved` and its refund on its way).
    case alreadyOpen
    /// The order never shipped, or it was delivered (or shipped) more than `hours` ago.
    case closed(hours: Int)
    /// Only a `requested` request can be approved or rejected: this one is `current`.
    case alreadyDecided(current: AfterSaleStatus)
}
