import CCurl

/// One HTTP(S) POST through libcurl, the field's standard client, for what URLSession on Linux
/// cannot do: present a client certificate (mutual TLS, as WeChat Pay's refund API demands).
/// Synchronous on the calling thread and bounded by `timeoutMilliseconds`; no redirects, no signals.
public enum CurlClient {
    /// A client certificate and its private key, both PEM, held in memory (never written to disk).
    public struct Identity: Sendable {
        public let certificatePEM: String
        public let privateKeyPEM: String

        public init(certificatePEM: String, privateKeyPEM: String) {
            self.certificatePEM = certificatePEM
            self.privateKeyPEM = privateKeyPEM
        }
    }

    /// Why a POST got no answer.
    public enum Failure: Error, Equatable, Sendable {
        case timedOut
        /// Our certificate or key could not be used, or the server's could not be trusted.
        case tls(String)
        /// The answer was larger than the caller allows.
        case answerTooLarge
        /// Anything else (refused, reset, name not found): libcurl's description.
        case unreachable(String)
    }

    /// POSTs `body` to `url` (http or https only) and answers the status and body. `trustedCAPEM`
    /// replaces the system's trust store (tests); `identity` is presented when the server asks.
    public static func post(url: String, body: [UInt8], contentType: String, timeoutMilliseconds: Int,
                            identity: Identity? = nil, trustedCAPEM: String? = nil,
                            maxAnswerBytes: Int = 256 * 1024) throws -> (status: Int, body: [UInt8]) {
        guard globalInit, let handle = curl_easy_init() else { throw Failure.unreachable("libcurl could not start") }
        defer { curl_easy_cleanup(handle) }
        let sink = Sink(limit: maxAnswerBytes)
        let context = Unmanaged.passRetained(sink)
        defer { context.release() }
        var headers: UnsafeMutablePointer<curl_slist>? = curl_slist_append(nil, "Content-Type: \(contentType)")
        headers = curl_slist_append(headers, "Expect:")
        defer { curl_slist_free_all(headers) }

        var status = CURLE_OK
        func set(_ result: CURLcode) { if status == CURLE_OK { status = result } }
        set(floral_curl_setopt_string(handle, CURLOPT_URL, url))
        set(floral_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"))
        set(floral_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        set(floral_curl_setopt_long(handle, CURLOPT_TIMEOUT_MS, timeoutMilliseconds))
        set(floral_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, timeoutMilliseconds))
        set(floral_curl_setopt_long(handle, CURLOPT_POST, 1))
        set(floral_curl_setopt_pointer(handle, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headers)))
        set(floral_curl_setopt_write(handle, writeCallback))
        set(floral_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, context.toOpaque()))
        if let identity {
            set(setBlob(handle, CURLOPT_SSLCERT_BLOB, identity.certificatePEM))
            set(floral_curl_setopt_string(handle, CURLOPT_SSLCERTTYPE, "PEM"))
            set(setBlob(handle, CURLOPT_SSLKEY_BLOB, identity.privateKeyPEM))
            set(floral_curl_setopt_string(handle, CURLOPT_SSLKEYTYPE, "PEM"))
        }
        if let trustedCAPEM { set(setBlob(handle, CURLOPT_CAINFO_BLOB, trustedCAPEM)) }
        guard status == CURLE_OK else { throw Failure.unreachable(describe(status)) }

        // libcurl reads the body during perform only: it stays borrowed for exactly that long
        let result = body.withUnsafeBytes { bytes -> CURLcode in
            var code = floral_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, bytes.count)
            if code == CURLE_OK {
                code = floral_curl_setopt_pointer(handle, CURLOPT_POSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
            }
            return code == CURLE_OK ? curl_easy_perform(handle) : code
        }
        switch result {
        case CURLE_OK: break
        case CURLE_OPERATION_TIMEDOUT: throw Failure.timedOut
        case CURLE_WRITE_ERROR where sink.overflowed: throw Failure.answerTooLarge
        case CURLE_SSL_CERTPROBLEM, CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE,
             CURLE_SSL_ENGINE_INITFAILED, CURLE_SSL_CIPHER:
            throw Failure.tls(describe(result))
        // with TLS 1.3 a server refuses our certificate after the handshake: the refusal (an alert)
        // arrives as the request is sent or the answer read
        case CURLE_SEND_ERROR where identity != nil, CURLE_RECV_ERROR where identity != nil, CURLE_GOT_NOTHING where identity != nil:
            throw Failure.tls(describe(result))
        default: throw Failure.unreachable(describe(result))
        }
        var code = 0
        guard floral_curl_response_code(handle, &code) == CURLE_OK else { throw Failure.unreachable("no status code") }
        return (code, sink.bytes)
    }

    private static func setBlob(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, _ text: String) -> CURLcode {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBytes { raw in
            // CURL_BLOB_COPY: libcurl keeps its own copy, so the bytes may go when this returns
            var blob = curl_blob(data: raw.baseAddress, len: raw.count, flags: UInt32(CURL_BLOB_COPY))
            return floral_curl_setopt_blob(handle, option, &blob)
        }
    }

    private static func describe(_ code: CURLcode) -> String {
        curl_easy_strerror(code).map { String(cString: $0) } ?? "libcurl error \(code.rawValue)"
    }

    /// curl_global_init, once, before the first handle (thread-safe in libcurl ≥ 7.84).
    private static let globalInit: Bool = floral_curl_global_init() == CURLE_OK

    /// Collects the answer, refusing more than `limit` bytes (libcurl then stops with a write error).
    private final class Sink {
        let limit: Int
        var bytes: [UInt8] = []
        var overflowed = false

        init(limit: Int) { self.limit = limit }
    }

    private static let writeCallback: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
        data, size, count, context in
        guard let context else { return 0 }
        let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        guard sink.bytes.count + length <= sink.limit else {
            sink.overflowed = true
            return 0
        }
        if let data, length > 0 {
            sink.bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length))
        }
        return length
    }
}
