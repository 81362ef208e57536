import Localization

/// An error a client caused, rendered in the API's error shape:
/// `{"error": {"code", "message", "field"?, "retry_after"?}}`. The message exists in every language
/// the shop writes; the response carries the one the request's `Accept-Language` prefers.
public struct HTTPError: Error, Sendable, Equatable {
    public var status: Status
    public var code: String
    public var message: LocalizedText
    public var field: String?
    public var retryAfter: Int?

    public init(_ status: Status, code: String, message: LocalizedText, field: String? = nil, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.retryAfter = retryAfter
    }

    /// The error a catalogued message describes, its `{name}` placeholders filled from `arguments`.
    public init<Message: ErrorMessage>(_ message: Message, _ arguments: [String: LocalizedText] = [:],
                                       field: String? = nil, retryAfter: Int? = nil) {
        self.init(message.status, code: message.code, message: message.template.filling(arguments), field: field,
                  retryAfter: retryAfter)
    }

    /// 404 `not_found` for a path that names nothing the handler knows.
    public static func notFound() -> HTTPError { HTTPError(HTTPMessage.notFound) }

    /// 500 `internal`: what the client sees of an error nobody mapped.
    public static let internalError = HTTPError(HTTPMessage.internalError)

    /// The error as a JSON response in the language `request` prefers.
    public func response(for request: Request) -> Response {
        response(in: Language(acceptLanguage: request.headers["Accept-Language"]))
    }

    /// The error as a JSON response in `language`, with `Retry-After` when it applies, and
    /// `Content-Language` and `Vary: Accept-Language`, since the same URL answers in either language.
    public func response(in language: Language) -> Response {
        struct Body: Encodable {
            struct Detail: Encodable {
                let code: String
                let message: String
                let field: String?
                let retryAfter: Int?
            }
            let error: Detail
        }
        var response = (try? Response.json(Body(error: .init(code: code, message: message[language], field: field,
                                                             retryAfter: retryAfter)), status: status))
            ?? Response.text("{\"error\":{\"code\":\"internal\",\"message\":\"error\"}}", status: status,
                             contentType: "application/json; charset=utf-8")
        if let retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
        response.headers.set("Content-Language", language.tag)
        response.headers.set("Vary", "Accept-Language")
        return response
    }
}

/// A catalogue of error messages: each case is one message with its status, its stable `code` and
/// its wording in every language (`{name}` placeholders filled when the error is made). Being
/// `CaseIterable`, a catalogue can be walked whole by a test.
public protocol ErrorMessage: CaseIterable, Sendable {
    var status: Status { get }
    var code: String { get }
    var template: LocalizedText { get }
}
