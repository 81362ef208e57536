/// An entity tag (RFC 9110 §8.8.3): an opaque string sent in quotes, weak when prefixed `W/`.
public struct EntityTag: Sendable, Hashable, CustomStringConvertible {
    /// The characters between the quotes.
    public let opaque: String
    public let isWeak: Bool

    /// `opaque` may hold only `etagc` characters (no `"`, no spaces or controls): a programmer's choice, not input.
    public init(_ opaque: String, weak: Bool = false) {
        precondition(opaque.utf8.allSatisfy(Self.isTagCharacter), "an entity tag holds no quote, space or control")
        self.opaque = opaque
        isWeak = weak
    }

    /// As sent in `ETag`: `"abc"` or `W/"abc"`.
    public var description: String { (isWeak ? "W/\"" : "\"") + opaque + "\"" }

    /// Weak comparison (§8.8.3.2), the one `If-None-Match` uses: the opaque parts are equal,
    /// whether either tag is weak or not.
    public func weaklyMatches(_ other: EntityTag) -> Bool { opaque == other.opaque }

    /// `etagc = %x21 / %x23-7E / obs-text`.
    static func isTagCharacter(_ byte: UInt8) -> Bool {
        byte == 0x21 || (byte >= 0x23 && byte != 0x7F)
    }
}

/// The condition of an `If-None-Match` field (RFC 9110 §13.1.2).
public enum IfNoneMatch: Sendable, Equatable {
    /// `*`: any current representation.
    case any
    /// The tags the client holds (an empty list matches nothing).
    case tags([EntityTag])

    /// Parses the field's lines as one comma-separated list (§5.3); nil when any of it is not
    /// `"*"` or a list of entity tags, since a condition the server cannot read is ignored and
    /// the full response is sent. Empty list elements and spaces around commas are allowed
    /// (§5.6.1); `*` must stand alone; `W/` is case-sensitive.
    public init?(fieldValues: [String]) {
        let bytes = Array(fieldValues.joined(separator: ",").utf8)
        var tags: [EntityTag] = []
        var sawStar = false
        var index = 0
        func skipSeparators() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x2C { index += 1 }
        }
        skipSeparators()
        while index < bytes.count {
            if bytes[index] == 0x2A {  // *
                sawStar = true
                index += 1
            } else {
                var weak = false
                if bytes[index] == 0x57, index + 1 < bytes.count, bytes[index + 1] == 0x2F {  // W/
                    weak = true
                    index += 2
                }
                guard index < bytes.count, bytes[index] == 0x22 else { return nil }
                index += 1
                let start = index
                while index < bytes.count, bytes[index] != 0x22 {
                    guard EntityTag.isTagCharacter(bytes[index]) else { return nil }
                    index += 1
                }
                guard index < bytes.count else { return nil }
                tags.append(EntityTag(String(decoding: bytes[start..<index], as: UTF8.self), weak: weak))
                index += 1
            }
            // After an element: optional spaces, then a comma or the end.
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
            guard index == bytes.count || bytes[index] == 0x2C else { return nil }
            skipSeparators()
        }
        if sawStar {
            guard tags.isEmpty else { return nil }
            self = .any
        } else {
            self = .tags(tags)
        }
    }

    /// Whether a representation tagged `current` is one the client already has (weak comparison).
    public func matches(_ current: EntityTag) -> Bool {
        switch self {
        case .any: true
        case .tags(let tags): tags.contains { $0.weaklyMatches(current) }
        }
    }
}

extension Status {
    public static let notModified: Status = 304
}

extension Request {
    /// The `If-None-Match` condition, nil when the request has none or one that cannot be parsed.
    public var ifNoneMatch: IfNoneMatch? {
        let values = headers.values(of: "If-None-Match")
        return values.isEmpty ? nil : IfNoneMatch(fieldValues: values)
    }
}

extension Response {
    /// `response` (the 200 a GET would get) with its `ETag`; or, when the request is a GET or
    /// HEAD whose `If-None-Match` matches that tag, a 304 that keeps the headers a cache needs to
    /// refresh what it holds (ETag, Cache-Control, Vary, ...) and drops the `Content-*` fields
    /// that describe a body (RFC 9110 §15.4.5). The 304 keeps the body bytes, as a HEAD answer
    /// does: the server sends none after a 304 and, from their count, the `Content-Length` a
    /// 200 would have had, the only one RFC 9110 §8.6 allows on a 304 (an empty body would make
    /// it `Content-Length: 0`).
    public static func conditional(_ response: Response, etag: EntityTag, for request: Request) -> Response {
        var response = response
        response.headers.set("ETag", etag.description)
        guard request.method == "GET" || request.method == "HEAD", response.status == .ok,
              let condition = request.ifNoneMatch, condition.matches(etag) else { return response }
        var headers = Headers()
        for (name, value) in response.headers {
            let lowered = name.lowercased()
            if lowered.hasPrefix("content-") && lowered != "content-location" { continue }
            headers.add(name, value)
        }
        return Response(status: .notModified, headers: headers, body: response.body)
    }
}
