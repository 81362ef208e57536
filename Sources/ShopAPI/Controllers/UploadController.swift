import HTTP
import ShopCore

/// `POST /media`: a signed-in buyer's picture (an after-sale photo) or a staff member's (a delivery photo), re-encoded on the `media`
/// bulkhead so decoding never holds a request thread.
struct UploadController {
    let media: MediaLibrary

    /// The route's path, for the server's larger body limit (`ShopAPI.bodyLimits`).
    static let path = "/api/v1/media"

    /// `uploaders`: behind `BuyerOrStaffAuthMiddleware` (buyers and staff both upload).
    func register(_ uploaders: RouteGroup) {
        uploaders.post("/media", on: .media, use: upload)
    }

    struct UploadResponse: Codable {
        let url: String
        let thumbnailURL: String
    }

    /// The raw body, one JPEG, PNG or WebP → 201 with the display size's and the thumbnail's URLs.
    func upload(_ request: Request, _ context: Context) throws -> Response {
        let stored = try media.upload(request.body, contentType: request.headers["Content-Type"], by: try context.uploader())
        return try .json(UploadResponse(url: stored.url, thumbnailURL: stored.thumbnailURL), status: .created)
    }
}
