extension Request {
    /// The scheme and authority the client used to reach this server, as `http://host[:port]`:
    /// from `Host`, or, when the socket peer is one of `proxies`, from the last `X-Forwarded-Host`
    /// and `X-Forwarded-Proto` entries (the ones that proxy wrote). Nil when the host is missing
    /// or is not a plain DNS name, IPv4 address or bracketed IPv6 address with an optional port,
    /// so nothing a client writes there is ever echoed beyond those characters.
    public func publicOrigin(trusting proxies: TrustedProxies) -> String? {
        var scheme = "http"
        var host = headers["Host"]
        if proxies.contains(remoteAddress) {
            if let forwarded = Self.lastEntry(headers.values(of: "X-Forwarded-Host")) { host = forwarded }
            if let proto = Self.lastEntry(headers.values(of: "X-Forwarded-Proto"))?.lowercased(), proto == "https" || proto == "http" {
                scheme = proto
            }
        }
        guard let host, let authority = Self.authority(host) else { return nil }
        return scheme + "://" + authority
    }

    /// The last comma-separated entry of a field's values, trimmed; nil when empty.
    private static func lastEntry(_ values: [String]) -> String? {
        guard let last = values.last?.split(separator: ",", omittingEmptySubsequences: false).last else { return nil }
        let trimmed = String(last.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        return trimmed.isEmpty ? nil : trimmed
    }

    /// `host[:port]` lowercased when it is a DNS name or IPv4 address (letters, digits, `.`, `-`;
    /// at most 253) or a bracketed IPv6 address, with a port of 1-65535; else nil.
    static func authority(_ text: String) -> String? {
        let text = text.lowercased()
        guard !text.isEmpty, text.utf8.count <= 262 else { return nil }
        var host = Substring(text)
        var port: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let address = text[text.index(after: text.startIndex)..<close]
            guard let bytes = IPAddress.bytes(String(address)), bytes.count == 16 else { return nil }
            host = text[...close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                port = rest.dropFirst()
            }
        } else {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return nil }
            host = parts[0]
            port = parts.count == 2 ? parts[1] : nil
            guard !host.isEmpty, host.utf8.count <= 253,
                  host.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7a) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2e || $0 == 0x2d }),
                  !host.hasPrefix("."), !host.hasPrefix("-") else { return nil }
        }
        if let port {
            guard !port.isEmpty, port.utf8.count <= 5, port.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let number = Int(port), (1...65_535).contains(number) else { return nil }
            return String(host) + ":" + String(number)
        }
        return String(host)
    }
}
