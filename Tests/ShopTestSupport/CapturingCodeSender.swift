import Foundation
import ShopCore

/// Records every code the shop sends, from any thread.
public final class CapturingCodeSender: CodeSender, @unchecked Sendable {
    private let sent = Outcomes<CodeMessage>()

    public init() {}

    public func send(_ message: CodeMessage) { sent.record(message) }

    public var messages: [CodeMessage] { sent.all }

    /// The digits of the newest code sent to `phone` for `purpose`.
    public func lastCode(to phone: String, for purpose: CodePurpose) -> String? {
        lastCode(to: phone, for: purpose.rawValue)
    }

    /// The digits of the newest code sent to `phone` for the purpose spelled as on the wire (`"register"`, ...).
    public func lastCode(to phone: String, for purpose: String) -> String? {
        messages.last { $0.phone == phone && $0.purpose == purpose }?.code
    }
}
