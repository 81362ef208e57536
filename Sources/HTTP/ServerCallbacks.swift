import CMicroHTTPD
import Foundation
import Localization

// libmicrohttpd's C callbacks. They are global functions (not closures in main.swift, which
// would be main-actor isolated) and reach the Swift objects through `void *` + Unmanaged.

/// Called once when headers arrive, then once per body chunk, then once more to answer.
let serverAccessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadDataSize, requestContext in
    guard let cls, let connection, let requestContext, let uploadDataSize,
          let client = serverConnection(connection) else { return .NO }
    let server = Unmanaged<Server>.fromOpaque(cls).takeUnretainedValue()

    if requestContext.pointee == nil {
        requestContext.pointee = Unmanaged.passRetained(PendingRequest()).toOpaque()
    }
    guard let existing = requestContext.pointee else { return .NO }
    let pending = Unmanaged<PendingRequest>.fromOpaque(existing).takeUnretainedValue()
    /// Every answer stops the request clock: from here on the time is the handler's, not the client's.
    func answer(_ response: Response) -> MHD_Result {
        server.deadlines.requestReceived(client)
        return queue(response, on: connection)
    }

    if !pending.began {
        pending.began = true
        server.requestBegan()
        // A balancer's pooled connection: libmicrohttpd's idle timeout must not close it under the
        // balancer either (see `ServerConnection.fromTrustedProxy`); lifted once per connection.
        if client.fromTrustedProxy, !client.idleTimeoutLifted.exchange(true, ordering: .relaxed) {
            _ = shop_mhd_set_connection_timeout(connection, 0)
        }
        pending.maxBodyBytes = server.options.maxBodyBytes(method: method.map { String(cString: $0) } ?? "GET",
                                                            path: url.map { String(cString: $0) } ?? "/")
        if pending.pathHasControlCharacter {
            return answer(HTTPError(HTTPMessage.controlCharacterInPath).response(in: language(of: connection)))
        }
        if let length = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length"),
           let declared = Int(String(cString: length)), declared > pending.maxBodyBytes {
            // Answer before reading a body we will not accept; libmicrohttpd closes the connection after it.
            return answer(tooLargeResponse(pending.maxBodyBytes, connection))
        }
        return .YES
    }

    if uploadDataSize.pointee > 0 {
        let size = uploadDataSize.pointee
        pending.received += size
        if pending.received > 4 * pending.maxBodyBytes {
            // A client still streaming long after the limit gets its connection closed instead of
            // an answer it would read only when it stops.
            return .NO
        }
        if !pending.tooLarge, let uploadData {
            if pending.body.count + size > pending.maxBodyBytes {
                pending.tooLarge = true
                pending.body = []
            } else {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: size) {
                    pending.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: size))
                }
            }
        }
        uploadDataSize.pointee = 0
        return .YES
    }

    if let ready = pending.offloadedResponse {
        pending.offloadedResponse = nil
        return queue(ready, on: connection)
    }
    if pending.tooLarge { return answer(tooLargeResponse(pending.maxBodyBytes, connection)) }
    server.deadlines.requestReceived(client)
    let headers = requestHeaders(connection)
    let peer = client.peerAddress
    let request = Request(method: method.map { String(cString: $0) } ?? "GET",
                          path: url.map { String(cString: $0) } ?? "/",
                          query: queryArguments(connection),
                          headers: headers,
                          body: pending.body,
                          remoteAddress: peer,
                          clientAddress: server.options.trustedProxies.clientAddress(peer: peer, headers: headers))
    pending.body = []
    if let target = server.placed(request) {
        return offload(request, to: target, pending: pending, connection: connection, server: server)
    }
    switch server.answerMovable(request) {
    case .answered(let response):
        // For HEAD, libmicrohttpd sends the headers (Content-Length included, as for GET) and no body.
        return queue(response, on: connection)
    case .offload(let target):
        return offload(request, to: target, pending: pending, connection: connection, server: server)
    }
}

/// Moves a request to `target`'s bulkhead: the connection is suspended, the bulkhead answers, the
/// connection resumes and the access handler queues that answer. A full bulkhead answers at once.
private func offload(_ request: Request, to target: OffloadTarget, pending: PendingRequest, connection: OpaquePointer,
                     server: Server) -> MHD_Result {
    guard target.bulkhead.reserve() else { return queue(target.rejection.response(for: request), on: connection) }
    // Suspended before the job can start, so its resume never comes first.
    MHD_suspend_connection(connection)
    run(request, on: target, SuspendedConnection(connection: connection, pending: pending), server: server)
    return .YES
}

/// Answers a suspended request on `target`'s bulkhead (whose place is reserved), moving it on to
/// another bulkhead when it needs one, and resumes the connection with the answer.
private func run(_ request: Request, on target: OffloadTarget, _ suspended: SuspendedConnection, server: Server) {
    target.bulkhead.run(reserved: { [server] in
        switch server.answerMovable(request) {
        case .answered(let response):
            suspended.pending.offloadedResponse = response
        case .offload(let next):
            guard next.bulkhead.reserve() else {
                suspended.pending.offloadedResponse = next.rejection.response(for: request)
                break
            }
            run(request, on: next, suspended, server: server)
            return
        }
        MHD_resume_connection(suspended.connection)
    })
}

/// Called when libmicrohttpd opens a connection and again before it closes the socket: the
/// connection's `ServerConnection` lives in its socket context (retained) in between.
let serverConnectionNotified: MHD_NotifyConnectionCallback = { cls, connection, socketContext, code in
    guard let cls, let connection, let socketContext else { return }
    let server = Unmanaged<Server>.fromOpaque(cls).takeUnretainedValue()
    let deadlines = server.deadlines
    if code == .CONNECTION_NOTIFY_STARTED {
        let peer = clientAddress(connection)
        let state = ServerConnection(socket: shop_mhd_connection_fd(connection), peerAddress: peer,
                                     fromTrustedProxy: !server.options.trustedProxies.isEmpty
                                         && server.options.trustedProxies.contains(peer))
        socketContext.pointee = Unmanaged.passRetained(state).toOpaque()
        deadlines.opened(state)
    } else if code == .CONNECTION_NOTIFY_CLOSED, let existing = socketContext.pointee {
        socketContext.pointee = nil
        deadlines.closed(Unmanaged<ServerConnection>.fromOpaque(existing).takeRetainedValue())
    }
}

/// The state `serverConnectionNotified` keeps for an open connection.
private func serverConnection(_ connection: OpaquePointer) -> ServerConnection? {
    shop_mhd_socket_context(connection).map { Unmanaged<ServerConnection>.fromOpaque($0).takeUnretainedValue() }
}

/// Called with the request line's raw target, before libmicrohttpd percent-decodes it (and a
/// `%00` cuts the path short): the request's state starts here, holding what the raw path showed,
/// and so does the clock of a trusted proxy's request (`RequestDeadlines.requestLineRead`).
let serverRequestLineRead: shop_mhd_uri_logger = { cls, uri, connection in
    if let cls, let connection, let client = serverConnection(connection) {
        Unmanaged<Server>.fromOpaque(cls).takeUnretainedValue().deadlines.requestLineRead(client)
    }
    let pending = PendingRequest(pathHasControlCharacter: uri.map(PendingRequest.pathHasControlCharacter) ?? false)
    return Unmanaged.passRetained(pending).toOpaque()
}

/// Called when a request is finished (answered, failed or timed out): frees its state.
let serverRequestCompleted: MHD_RequestCompletedCallback = { cls, connection, requestContext, _ in
    guard let cls else { return }
    if let connection, let client = serverConnection(connection) {
        Unmanaged<Server>.fromOpaque(cls).takeUnretainedValue().deadlines.responseFinished(client)
    }
    guard let requestContext, let existing = requestContext.pointee else { return }
    let pending = Unmanaged<PendingRequest>.fromOpaque(existing).takeRetainedValue()
    requestContext.pointee = nil
    // A request that failed before its headers were read never counted as in flight.
    if pending.began { Unmanaged<Server>.fromOpaque(cls).takeUnretainedValue().requestEnded() }
}

private func tooLargeResponse(_ limit: Int, _ connection: OpaquePointer) -> Response {
    HTTPError(HTTPMessage.payloadTooLarge, ["limit": .verbatim(String(limit))])
        .response(in: language(of: connection))
}

/// The language of an answer given before the request is built: its `Accept-Language` decides.
private func language(of connection: OpaquePointer) -> Language {
    Language(acceptLanguage: MHD_lookup_connection_value(connection, .HEADER_KIND, "Accept-Language").map { String(cString: $0) })
}

private func queue(_ response: Response, on connection: OpaquePointer) -> MHD_Result {
    let mhdResponse = response.body.withUnsafeBytes { bytes in
        MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                        .RESPMEM_MUST_COPY)
    }
    guard let mhdResponse else { return .NO }
    defer { MHD_destroy_response(mhdResponse) }
    for (name, value) in response.headers {
        _ = name.withCString { name in value.withCString { value in MHD_add_response_header(mhdResponse, name, value) } }
    }
    return MHD_queue_response(connection, UInt32(response.status.code), mhdResponse)
}

// libmicrohttpd's iterator calls back with a context pointer: here, the container being filled,
// on the stack (no closure, so nothing is boxed). The sized iterator: a value with an embedded
// %00 keeps its full length instead of being cut.

/// The request's header fields, in the order received.
private func requestHeaders(_ connection: OpaquePointer) -> Headers {
    var headers = Headers()
    headers.reserveCapacity(8)
    withUnsafeMutablePointer(to: &headers) { headers in
        _ = MHD_get_connection_values_n(connection, .HEADER_KIND, { cls, _, key, keySize, value, valueSize in
            guard let key, let headers = cls?.assumingMemoryBound(to: Headers.self) else { return .YES }
            headers.pointee.add(text(key, keySize), text(value, valueSize))
            return .YES
        }, headers)
    }
    return headers
}

/// The query arguments, percent-decoded; the first value of a repeated name wins.
private func queryArguments(_ connection: OpaquePointer) -> [String: String] {
    var query: [String: String] = [:]
    withUnsafeMutablePointer(to: &query) { query in
        _ = MHD_get_connection_values_n(connection, .GET_ARGUMENT_KIND, { cls, _, key, keySize, value, valueSize in
            guard let key, let query = cls?.assumingMemoryBound(to: [String: String].self) else { return .YES }
            let name = text(key, keySize)
            if query.pointee[name] == nil { query.pointee[name] = text(value, valueSize) }
            return .YES
        }, query)
    }
    return query
}

/// `size` bytes at `start` as UTF-8 text (a value may be absent: empty text).
private func text(_ start: UnsafePointer<CChar>?, _ size: Int) -> String {
    start.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: size), as: UTF8.self) } ?? ""
}

private func clientAddress(_ connection: OpaquePointer) -> String {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
        guard let base = buffer.baseAddress else { return "" }
        shop_mhd_client_address(connection, base, buffer.count)
        return String(cString: base)
    }
}
