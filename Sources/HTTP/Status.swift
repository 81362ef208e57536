/// An HTTP status code with its reason phrase.
public struct Status: Sendable, Hashable, ExpressibleByIntegerLiteral {
    public let code: Int

    public init(_ code: Int) { self.code = code }
    public init(integerLiteral value: Int) { self.code = value }

    public static let ok: Status = 200
    public static let created: Status = 201
    public static let accepted: Status = 202
    public static let noContent: Status = 204
    public static let badRequest: Status = 400
    public static let unauthorized: Status = 401
    public static let forbidden: Status = 403
    public static let notFound: Status = 404
    public static let methodNotAllowed: Status = 405
    public static let conflict: Status = 409
    public static let payloadTooLarge: Status = 413
    public static let unsupportedMediaType: Status = 415
    public static let unprocessableEntity: Status = 422
    public static let tooManyRequests: Status = 429
    public static let internalServerError: Status = 500
    public static let serviceUnavailable: Status = 503
}

/// The request methods the router knows.
public enum HTTPMethod: String, Sendable, CaseIterable {
    case get = "GET", head = "HEAD", post = "POST", put = "PUT", patch = "PATCH", delete = "DELETE", options = "OPTIONS"
}
