import Foundation
import ThreadTestSupport
import HTTP
#if canImport(Glibc)
import Glibc
#endif

/// Starts a real server on 127.0.0.1, port 0, runs `body`, then stops it.
func withServer<T>(options: ServerOptions = ServerOptions(host: "127.0.0.1", port: 0),
                   responder: @escaping Responder, _ body: (Server) throws -> T) throws -> T {
    var options = options
    options.port = 0
    let server = Server(options: options, responder: responder)
    try server.start()
    defer { server.stop(grace: 5) }
    return try body(server)
}

/// Starts a real server whose requests go through `router`.
func withServer<T>(router: Router, options: ServerOptions = ServerOptions(host: "127.0.0.1", port: 0),
                   middleware: [any Middleware] = [], _ body: (Server) throws -> T) throws -> T {
    try withServer(options: options,
                   responder: middleware.wrapping { request, context in try router.respond(to: request, context: context) }, body)
}

struct ClientError: Error, CustomStringConvertible {
    let description: String
}

/// A response as read off the wire.
struct WireResponse {
    let status: Int
    let headers: [(name: String, value: String)]
    let body: [UInt8]

    /// The first header of that name, whatever its case.
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as a JSON object.
    func json() throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            throw ClientError(description: "body is not a JSON object: \(text)")
        }
        return object
    }

    /// `error.code`, `error.message`, ... of an error-shaped body.
    func errorDetail() throws -> [String: Any] {
        guard let detail = try json()["error"] as? [String: Any] else {
            throw ClientError(description: "not in the error shape: \(text)")
        }
        return detail
    }
}

/// A blocking HTTP/1.1 client over one POSIX TCP socket: exact control over keep-alive and bytes.
final class RawConnection {
    let fd: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port`; reads time out after `timeout` seconds.
    init(port: UInt16, timeout: Int = 15) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClientError(description: "socket: errno \(errno)") }
        var tv = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        let result = Self.connect(fd, port: port)
        guard result == 0 else {
            let code = errno
            close(fd)
            throw ClientError(description: "connect: errno \(code)")
        }
    }

    deinit { close(fd) }

    /// `errno` of a connection attempt to 127.0.0.1:`port`, or 0 when it was accepted.
    static func connectErrno(port: UInt16) -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        return connect(fd, port: port) == 0 ? 0 : errno
    }

    private static func connect(_ fd: Int32, port: UInt16) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw ClientError(description: "send: errno \(errno)") }
            offset += sent
        }
    }

    /// Sends one request with `Content-Length` (when there is a body) and reads its response.
    func request(_ method: String, _ target: String, headers: [(String, String)] = [],
                 body: [UInt8] = []) throws -> WireResponse {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        try send(Array((head + "\r\n").utf8) + body)
        return try readResponse(method: method)
    }

    /// Reads one response; a HEAD response has no body whatever its headers say.
    func readResponse(method: String = "GET") throws -> WireResponse {
        let headEnd: Int = try {
            while true {
                if let end = find([13, 10, 13, 10]) { return end }
                try fill()
            }
        }()
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
            throw ClientError(description: "bad status line in \(head)")
        }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let response = WireResponse(status: status, headers: headers, body: [])
        if method == "HEAD" || status == 204 || status == 304 { return response }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            return WireResponse(status: status, headers: headers, body: try readChunked())
        }
        let length = Int(response.header("Content-Length") ?? "") ?? 0
        while buffer.count < length { try fill() }
        let body = Array(buffer[..<length])
        buffer.removeFirst(length)
        return WireResponse(status: status, headers: headers, body: body)
    }

    /// True when the server has closed its side (a read returns end of file).
    func isClosedByPeer() -> Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, 0) == 0
    }

    private func readChunked() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            var lineEnd = find([13, 10])
            while lineEnd == nil { try fill(); lineEnd = find([13, 10]) }
            let sizeLine = String(decoding: buffer[..<lineEnd!], as: UTF8.self)
            buffer.removeFirst(lineEnd! + 2)
            guard let size = Int(sizeLine.split(separator: ";")[0], radix: 16) else {
                throw ClientError(description: "bad chunk size \(sizeLine)")
            }
            while buffer.count < size + 2 { try fill() }
            body += buffer[..<size]
            buffer.removeFirst(size + 2)
            if size == 0 { return body }
        }
    }

    private func find(_ pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        for start in 0...(buffer.count - pattern.count) where buffer[start..<(start + pattern.count)].elementsEqual(pattern) {
            return start
        }
        return nil
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else {
            throw ClientError(description: count == 0 ? "connection closed by the server" : "recv: errno \(errno)")
        }
        buffer += chunk[..<count]
    }
}
