/// One HTTP response.
public struct Response: Sendable {
    public var status: Status
    public var headers: Headers
    public var body: [UInt8]

    public init(status: Status = .ok, headers: Headers = Headers(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A body-less response (204 and the like).
    public static func empty(_ status: Status = .noContent) -> Response {
        Response(status: status)
    }

    /// A plain-text response.
    public static func text(_ text: String, status: Status = .ok, contentType: String = "text/plain; charset=utf-8") -> Response {
        var headers = Headers()
        headers.set("Content-Type", contentType)
        return Response(status: status, headers: headers, body: Array(text.utf8))
    }
}
