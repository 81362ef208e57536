/// Why a staff request was refused.
public enum StaffError: Error, Equatable, Sendable {
    /// The signed-in staff member's role lacks what the route needs.
    case forbidden
    /// A wrong username or password, or a disabled account (the same answer, so it reveals nothing).
    case invalidCredentials
    case usernameTaken(String)
    case notFound(String)
    /// The change would leave the shop without an enabled owner.
    case lastOwner
}
