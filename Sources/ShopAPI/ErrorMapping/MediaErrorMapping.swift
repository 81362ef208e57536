import HTTP
import ShopCore

extension ErrorMapping {
    /// Pictures: no body 400, too many bytes or pixels 413, not a JPEG/PNG/WebP 415, too many uploads 429.
    @Sendable static func media(_ error: any Error) -> HTTPError? {
        guard let error = error as? MediaError else { return nil }
        switch error {
        case .empty: return HTTPError(APIMessage.imageRequired)
        case .tooLarge(_, let limit): return HTTPError(HTTPMessage.payloadTooLarge, ["limit": .verbatim(String(limit))])
        case .tooManyPixels(let width, let height, let limit):
            return HTTPError(APIMessage.tooManyPixels, ["width": .verbatim(String(width)), "height": .verbatim(String(height)),
                                                        "limit": .verbatim(String(limit))])
        case .notAnImage: return HTTPError(APIMessage.notAnImage)
        case .tooManyUploads(let seconds):
            return HTTPError(APIMessage.tooManyUploads, ["seconds": .verbatim(String(seconds))], retryAfter: seconds)
        case .unavailable: return HTTPError(APIMessage.busy)
        }
    }
}
