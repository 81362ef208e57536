import Foundation

/// Standard-alphabet Base64 (RFC 4648 §4) with padding.
public enum Base64 {
    /// Decodes padded standard Base64; nil on any invalid character or length.
    public static func decode(_ s: String) -> [UInt8]? {
        Data(base64Encoded: s).map { [UInt8]($0) }
    }

    /// Encodes bytes as padded standard Base64 on one line.
    public static func encode(_ b: [UInt8]) -> String {
        Data(b).base64EncodedString()
    }

    /// URL-safe alphabet without padding (RFC 4648 §5), for tokens that travel in URLs and cookies.
    static func encodeURLSafeUnpadded(_ b: [UInt8]) -> String {
        var text = encode(b)
        while text.hasSuffix("=") { text.removeLast() }
        return String(text.map { char -> Character in
            switch char {
            case "+": "-"
            case "/": "_"
            default: char
            }
        })
    }
}
