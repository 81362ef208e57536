import Foundation
import Synchronization

/// The API's JSON conventions: snake_case keys, RFC 3339 dates, sorted keys for stable output.
public enum JSON {
    /// Swift names with these words spell them in capitals (`skuID` is `sku_id` on the wire).
    static let acronyms: [String: String] = ["id": "ID", "ids": "IDs", "url": "URL", "urls": "URLs", "md5": "MD5"]

    /// `value` as the API's JSON, byte for byte what `encoder()` writes, written straight into
    /// bytes by `JSONBytesEncoder` (Foundation's encoder builds a tree of boxed values, a dictionary
    /// per object and formats each date on the way; on a product page that was most of the time).
    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let encoder = JSONBytesEncoder()
        try encoder.encodeRoot(value)
        return encoder.writer.bytes()
    }

    /// Foundation's encoder with the same conventions, for callers that want `Data` or a
    /// `JSONEncoder` to configure; `encode(_:)` writes the same bytes faster.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        // Not `.convertToSnakeCase`: it spells `imageURLs` as `image_ur_ls`, which `decoder()` cannot read back.
        encoder.keyEncodingStrategy = .custom { path in
            let key = path[path.count - 1]
            if key.intValue != nil { return key }
            return WireKey(stringValue: wireNames.snakeCase(key.stringValue))
        }
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in
            let key = path[path.count - 1]
            if key.intValue != nil { return key }
            return WireKey(stringValue: camelCase(key.stringValue))
        }
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// `sku_id` → `skuID`, `password_md5` → `passwordMD5`, `reply_to` → `replyTo`.
    static func camelCase(_ snake: String) -> String {
        let parts = snake.split(separator: "_", omittingEmptySubsequences: true).map(String.init)
        guard let first = parts.first else { return snake }
        return first + parts.dropFirst().map { acronyms[$0] ?? $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// `skuID` → `sku_id`, `imageURLs` → `image_urls`, `avatarURLString` → `avatar_url_string`:
    /// the inverse of `camelCase`, so encoded keys decode again and error fields use wire names.
    static func snakeCase(_ camel: String) -> String {
        let chars = Array(camel)
        var out = ""
        for (i, ch) in chars.enumerated() {
            if i > 0 && ch.isUppercase {
                let previous = chars[i - 1]
                let next: Character? = i + 1 < chars.count ? chars[i + 1] : nil
                // A plural acronym (`IDs`, `URLs`) keeps its `s`; `URLString` splits before `S`.
                let pluralS = next == "s" && (i + 2 == chars.count || !chars[i + 2].isLowercase)
                let wordAfterAcronym = previous.isUppercase && (next?.isLowercase ?? false) && !pluralS
                if previous.isLowercase || previous.isNumber || wordAfterAcronym { out.append("_") }
            }
            out += ch.lowercased()
        }
        return out
    }

    /// Key spellings are few and fixed: convert each once.
    static let wireNames = WireNameCache()

    private struct WireKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension Response {
    /// A JSON response with the API's conventions.
    public static func json<T: Encodable>(_ value: T, status: Status = .ok) throws -> Response {
        var headers = Headers()
        headers.set("Content-Type", "application/json; charset=utf-8")
        return Response(status: status, headers: headers, body: try JSON.encode(value))
    }
}

extension Request {
    /// Decodes the JSON body; a missing body, bad JSON or a field of the wrong type is a 400
    /// naming the field; a body of another content type is a 415. JSON is UTF-8 (RFC 8259 §8.1):
    /// a body that is not is refused whole, even where the bad bytes sit in a field nobody reads,
    /// because Foundation would otherwise let them through. An error `T` throws itself while
    /// decoding (a well-formed value it refuses) passes through for the error mapping to answer.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        if let contentType = headers["Content-Type"]?.lowercased(),
           !contentType.hasPrefix("application/json") && !contentType.contains("+json") {
            throw HTTPError(HTTPMessage.unsupportedMediaType)
        }
        guard !body.isEmpty else { throw HTTPError(HTTPMessage.bodyRequired) }
        // A NUL byte is never in JSON text (controls in strings are escaped); refusing it also stops
        // BOM-less UTF-16, which is valid UTF-8 byte for byte and which Foundation would detect and read.
        guard !body.contains(0), String(validating: body, as: UTF8.self) != nil else {
            throw HTTPError(HTTPMessage.bodyNotUTF8)
        }
        do {
            return try JSON.decoder().decode(T.self, from: Data(body))
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
               (try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed])) != nil {
                // Foundation reports a fractional number for an integer field this way, without a path.
                throw HTTPError(HTTPMessage.wholeNumberExpected)
            }
            throw HTTPError.describing(error)
        }
    }
}

extension HTTPError {
    /// A 400 that names the offending field, in wire (snake_case) spelling.
    static func describing(_ error: DecodingError) -> HTTPError {
        func field(_ path: [any CodingKey]) -> String? {
            let names = path.map { key in key.intValue.map(String.init) ?? JSON.snakeCase(key.stringValue) }
            return names.isEmpty ? nil : names.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let name = field(context.codingPath + [key]) ?? key.stringValue
            return HTTPError(HTTPMessage.fieldRequired, ["field": .verbatim(name)], field: name)
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            let name = field(context.codingPath)
            guard let name else { return HTTPError(HTTPMessage.bodyWrongType) }
            return HTTPError(HTTPMessage.fieldWrongType, ["field": .verbatim(name)], field: name)
        case .dataCorrupted(let context):
            if let name = field(context.codingPath) {
                return HTTPError(HTTPMessage.fieldInvalid, ["field": .verbatim(name)], field: name)
            }
            return HTTPError(HTTPMessage.bodyNotJSON)
        @unknown default:
            return HTTPError(HTTPMessage.bodyNotJSON)
        }
    }
}

/// Remembers `JSON.snakeCase` of each key, shared by all threads.
final class WireNameCache: Sendable {
    private let names = Mutex<[String: String]>([:])

    func snakeCase(_ camel: String) -> String {
        if let known = names.withLock({ $0[camel] }) { return known }
        let converted = JSON.snakeCase(camel)
        names.withLock { names in
            if names.count < 4_096 { names[camel] = converted }
        }
        return converted
    }
}
