/// An error a client caused, rendered in the API's error shape:
/// `{"error": {"code", "message", "field"?, "retry_after"?}}`.
public struct HTTPError: Error, Sendable, Equatable {
    public var status: Status
    public var code: String
    public var message: String
    public var field: String?
    public var retryAfter: Int?

    public init(_ status: Status, code: String, message: String, field: String? = nil, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.retryAfter = retryAfter
    }

    public static func notFound(_ message: String = "Not found.") -> HTTPError {
        HTTPError(.notFound, code: "not_found", message: message)
    }

    public static func badRequest(_ message: String, code: String = "invalid_request", field: String? = nil) -> HTTPError {
        HTTPError(.badRequest, code: code, message: message, field: field)
    }

    public static func validation(_ message: String, field: String? = nil) -> HTTPError {
        HTTPError(.badRequest, code: "validation_failed", message: message, field: field)
    }

    public static func unauthorized(_ message: String = "Sign in first.") -> HTTPError {
        HTTPError(.unauthorized, code: "unauthorized", message: message)
    }

    public static let internalError = HTTPError(.internalServerError, code: "internal", message: "Something went wrong on our side.")

    /// The error as a JSON response, with `Retry-After` when it applies.
    public var response: Response {
        struct Body: Encodable {
            struct Detail: Encodable {
                let code: String
                let message: String
                let field: String?
                let retryAfter: Int?
            }
            let error: Detail
        }
        var response = (try? Response.json(Body(error: .init(code: code, message: message, field: field, retryAfter: retryAfter)),
                                           status: status))
            ?? Response.text("{\"error\":{\"code\":\"internal\",\"message\":\"error\"}}", status: status,
                             contentType: "application/json; charset=utf-8")
        if let retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
        return response
    }
}
