import Crypto

/// The token of an order's tracking page (`/track/{token}`): 128 bits from the shop's CSPRNG as
/// 32 lowercase hex digits. It is the page's only key, so it is long enough never to be guessed,
/// and its shape is checked before anything is read.
public enum TrackingToken {
    static let byteCount = 16
    /// A token's length in characters.
    public static let length = byteCount * 2

    /// A fresh token.
    static func make(_ random: SecureRandom) -> String {
        Hex.encode(random.bytes(byteCount))
    }

    /// Whether `text` could be a token (32 lowercase hex digits): anything else is unknown at once.
    public static func isWellFormed(_ text: String) -> Bool {
        text.utf8.count == length && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// The page's path under the shop's origin.
    public static func path(_ token: String) -> String {
        "/track/" + token
    }
}
