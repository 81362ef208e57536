/// Why an uploaded or imported picture was refused.
public enum MediaError: Error, Equatable, Sendable {
    /// No body at all.
    case empty
    /// More bytes than `media.max_upload_bytes`.
    case tooLarge(bytes: Int, limit: Int)
    /// More pixels than `media.max_pixels` (read from the header; nothing was decoded).
    case tooManyPixels(width: Int, height: Int, limit: Int)
    /// Not a JPEG, PNG or WebP (a declared type that is none of these, other bytes, or a damaged image).
    case notAnImage
    /// More uploads from this user than `media.max_uploads_per_minute` on this node.
    case tooManyUploads(retryAfter: Int)
    /// This build of the shop has no image processor.
    case unavailable
}
