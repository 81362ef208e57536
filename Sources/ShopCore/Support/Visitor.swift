/// Who is looking or searching, so that one person counts once: the signed-in user, else the
/// client's IP address.
public struct Visitor: Sendable, Equatable {
    /// `user:<id>` or `ip:<address>`: what the view and search logs store.
    public let key: String
    /// The client's address, signed in or not (what per-address limits count).
    public let clientIP: String

    public init(user: UserID?, clientIP: String) {
        key = user.map { "user:\($0.rawValue)" } ?? "ip:\(clientIP)"
        self.clientIP = clientIP
    }
}
