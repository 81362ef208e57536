import Foundation

extension MediaLibrary {
    /// Whether `url` is a picture this library stored and still holds: the display size or the
    /// thumbnail of an upload or an imported photo (`/media/<32 hex>-1280.jpg`, `…-480.jpg`), its
    /// file in `media.path`. Fields that must show the buyer's own pictures (after-sale photos)
    /// take nothing else: no outside address, no demo picture, no name never written.
    public func holds(_ url: String) -> Bool {
        guard let names = MediaPath.segments(of: url), names.count == 1, let name = names.first else { return false }
        let sizes = [Self.displaySize, Self.thumbnailSize].map { "-\($0).jpg" }
        guard let suffix = sizes.first(where: { name.hasSuffix($0) }), name.count == Self.hashDigits + suffix.count,
              name.prefix(Self.hashDigits).allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return false }
        return FileManager.default.fileExists(atPath: folder.appendingPathComponent(String(name)).path)
    }
}
