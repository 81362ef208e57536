import HTTP
import ShopCore

extension ErrorMapping {
    /// Staff: 403 for a role without the right, 401 for a failed staff login, 409/404 for account changes.
    @Sendable static func staff(_ error: any Error) -> HTTPError? {
        guard let error = error as? StaffError else { return nil }
        switch error {
        case .forbidden: return HTTPError(APIMessage.forbidden)
        case .invalidCredentials: return HTTPError(APIMessage.staffInvalidCredentials)
        case .usernameTaken(let name): return HTTPError(APIMessage.usernameTaken, ["username": .verbatim(name)], field: "username")
        case .notFound(let name): return HTTPError(APIMessage.staffNotFound, ["username": .verbatim(name)])
        case .lastOwner: return HTTPError(APIMessage.lastOwner)
        }
    }
}
