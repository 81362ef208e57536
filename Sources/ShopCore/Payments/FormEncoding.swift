import Crypto
import Foundation

/// `application/x-www-form-urlencoded` bodies.
enum FormEncoding {
    /// Fields by name (the first of a repeated name wins); nil when a part cannot be decoded.
    static func decode(_ body: [UInt8]) -> [String: String]? {
        guard body.count <= 64 * 1024 else { return nil }
        var fields: [String: String] = [:]
        for part in String(decoding: body, as: UTF8.self).split(separator: "&") where !part.isEmpty {
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = unescape(pair[0]) else { return nil }
            guard let value = pair.count == 2 ? unescape(pair[1]) : "" else { return nil }
            if fields[name] == nil { fields[name] = value }
        }
        return fields
    }

    static func encode(_ fields: [String: String]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._*")
        return fields.sorted { $0.key < $1.key }.map { key, value in
            let k = key.addingPercentEncoding(withAllowedCharacters: allowed) ?? key
            let v = value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
            return "\(k)=\(v)"
        }.joined(separator: "&")
    }

    private static func unescape(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
