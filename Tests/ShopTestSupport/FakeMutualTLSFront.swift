import Foundation

/// WeChat Pay's TLS in front of a fake gateway: HTTPS on loopback with a certificate from a CA made
/// for this test (openssl), asking every client for a certificate and requiring one signed by that
/// CA on `/secapi/` paths, as WeChat's refund API does; what passes is relayed to the fake. Python's
/// `ssl` and `http.server` play the TLS server, so nothing of ours checks our own client side.
public final class FakeMutualTLSFront: @unchecked Sendable {
    /// The CA that signed the server's and the merchant's certificates.
    public let caPEM: String
    /// The merchant's client certificate and key, signed by `caPEM`.
    public let clientCertificatePEM: String
    public let clientKeyPEM: String
    /// A certificate and key from another CA: what a certificate WeChat never issued looks like.
    public let strangerCertificatePEM: String
    public let strangerKeyPEM: String
    public let baseURL: String
    private let process: Process
    private let directory: URL

    public init(upstream: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mtls-\(UUID().uuidString)")
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Self.shell("""
            set -e
            key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }
            key ca.key; key server.key; key client.key; key stranger-ca.key; key stranger.key
            openssl req -x509 -new -key ca.key -out ca.pem -days 2 -subj /CN=FakeWeChatPayCA
            openssl req -x509 -new -key stranger-ca.key -out stranger-ca.pem -days 2 -subj /CN=SomeoneElse
            printf 'subjectAltName=IP:127.0.0.1\\n' > server.ext
            openssl req -new -key server.key -out server.csr -subj /CN=127.0.0.1
            openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 -extfile server.ext 2>/dev/null
            openssl req -new -key client.key -out client.csr -subj /CN=10000100
            openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out client.pem -days 2 2>/dev/null
            openssl req -new -key stranger.key -out stranger.csr -subj /CN=10000100
            openssl x509 -req -in stranger.csr -CA stranger-ca.pem -CAkey stranger-ca.key -CAcreateserial -out stranger.pem -days 2 2>/dev/null
            """, in: directory)
        func read(_ name: String) throws -> String { try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) }
        caPEM = try read("ca.pem")
        clientCertificatePEM = try read("client.pem")
        clientKeyPEM = try read("client.key")
        strangerCertificatePEM = try read("stranger.pem")
        strangerKeyPEM = try read("stranger.key")
        try Self.server.write(to: directory.appendingPathComponent("front.py"), atomically: true, encoding: .utf8)

        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "front.py", upstream]
        process.currentDirectoryURL = directory
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = String(decoding: output.fileHandleForReading.readData(ofLength: 6), as: UTF8.self)
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw FixtureError("the TLS front did not start (\(line))")
        }
        baseURL = "https://127.0.0.1:\(port)"
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    private static func shell(_ script: String, in directory: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw FixtureError("making the test certificates failed") }
    }

    /// Prints its port (6 characters), then relays; 403 on /secapi/ without a client certificate.
    static let server = #"""
        import http.server, signal, ssl, sys, urllib.request
        # the test process blocks SIGTERM in its threads, and a child inherits the mask
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
        upstream = sys.argv[1]
        class Front(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if self.path.startswith("/secapi/") and not self.connection.getpeercert():
                    self.answer(403, b"client certificate required")
                    return
                request = urllib.request.Request(upstream + self.path, data=body,
                                                 headers={"Content-Type": self.headers.get("Content-Type", "")})
                with urllib.request.urlopen(request, timeout=10) as reply:
                    self.answer(reply.status, reply.read())
            def answer(self, status, data):
                self.send_response(status)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            def log_message(self, *args):
                pass
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain("server.pem", "server.key")
        context.load_verify_locations("ca.pem")
        context.verify_mode = ssl.CERT_OPTIONAL
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Front)
        server.socket = context.wrap_socket(server.socket, server_side=True)
        sys.stdout.write("%-6d" % server.server_address[1])
        sys.stdout.flush()
        server.serve_forever()
        """#
}
