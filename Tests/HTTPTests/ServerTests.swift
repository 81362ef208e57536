import Foundation
import ThreadTestSupport
import HTTP
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Server over real sockets")
struct ServerTests {
    /// `/echo/:n` answers `n`; `/slow` sleeps a second; `/body` reports the body it received.
    private func makeRouter() -> Router {
        let routes = Routes()
        let api = routes.group("")
        api.get("/echo/:n") { request, _ in Response.text(try request.parameter("n")) }
        api.get("/hello") { _, _ in Response.text("hello, 玫瑰") }
        api.post("/body") { request, _ in
            try Response.json(["bytes": request.body.count, "sum": request.body.reduce(0) { $0 &+ Int($1) }])
        }
        api.get("/slow") { _, _ in
            Thread.sleep(forTimeInterval: 1)
            return Response.text("done")
        }
        return Router(routes)
    }

    @Test func answersTwoHundredConcurrentRequestsEachWithItsOwnResponse() throws {
        try withServer(router: makeRouter()) { server in
            let port = server.port
            let failures = Locked<[String]>([])
            let answered = Locked(0)
            let finished = onThreads(8) { thread in
                for round in 0..<25 {
                    let n = thread * 1_000 + round
                    do {
                        // A fresh connection per request: 200 connections in all, up to 8 at a time.
                        let connection = try RawConnection(port: port)
                        let response = try connection.request("GET", "/echo/\(n)", headers: [("Connection", "close")])
                        if response.status != 200 || response.text != String(n) {
                            failures.withLock { $0.append("\(n): \(response.status) \(response.text)") }
                        } else {
                            answered.withLock { $0 += 1 }
                        }
                    } catch {
                        failures.withLock { $0.append("\(n): \(error)") }
                    }
                }
            }
            #expect(finished)
            #expect(failures.current == [])
            #expect(answered.current == 200)
        }
    }

    @Test func answersManySimultaneousKeepAliveConnections() throws {
        var options = ServerOptions(host: "127.0.0.1", port: 0)
        options.maxConnectionsPerIP = 256
        try withServer(router: makeRouter(), options: options) { server in
            let port = server.port
            let failures = Locked<[String]>([])
            // 40 connections open at once, 5 requests each.
            let finished = onThreads(40) { thread in
                do {
                    let connection = try RawConnection(port: port)
                    for round in 0..<5 {
                        let response = try connection.request("GET", "/echo/\(thread)-\(round)")
                        if response.status != 200 || response.text != "\(thread)-\(round)" {
                            failures.withLock { $0.append("\(thread)-\(round): \(response.status)") }
                        }
                    }
                } catch {
                    failures.withLock { $0.append("\(thread): \(error)") }
                }
            }
            #expect(finished)
            #expect(failures.current == [])
        }
    }

    @Test func keepsOneConnectionAliveAcrossAHundredSequentialRequests() throws {
        try withServer(router: makeRouter()) { server in
            let connection = try RawConnection(port: server.port)
            for n in 0..<100 {
                let response = try connection.request("GET", "/echo/\(n)")
                try #require(response.status == 200)
                #expect(response.text == String(n))
                #expect(response.header("Connection")?.lowercased() != "close")
            }
        }
    }

    @Test func receivesABodyIntactUpToTheLimit() throws {
        try withServer(router: makeRouter()) { server in
            let body = (0..<1_048_576).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            let connection = try RawConnection(port: server.port)
            let response = try connection.request("POST", "/body", headers: [("Content-Type", "application/json")], body: body)
            #expect(response.status == 200)
            let json = try response.json()
            #expect(json["bytes"] as? Int == body.count)
            #expect(json["sum"] as? Int == body.reduce(0) { $0 &+ Int($1) })
        }
    }

    @Test func refusesATwoMebibyteBodyDeclaredByContentLengthWith413BeforeReadingIt() throws {
        try withServer(router: makeRouter()) { server in
            let connection = try RawConnection(port: server.port)
            // Only the head is sent: the server must answer without waiting for the 2 MiB.
            try connection.send("POST /body HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                + "Content-Length: \(2 * 1_048_576)\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 413)
            #expect(response.header("Content-Type")?.hasPrefix("application/json") == true)
            let error = try response.errorDetail()
            #expect(error["code"] as? String == "payload_too_large")
            #expect((error["message"] as? String)?.isEmpty == false)
        }
    }

    @Test func refusesATwoMebibyteChunkedBodyWith413() throws {
        try withServer(router: makeRouter()) { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("POST /body HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                + "Transfer-Encoding: chunked\r\n\r\n")
            let chunk = [UInt8](repeating: 0x61, count: 65_536)
            let framed = Array("10000\r\n".utf8) + chunk + Array("\r\n".utf8)
            for _ in 0..<32 { try connection.send(framed) }
            try connection.send("0\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 413)
            #expect(try response.errorDetail()["code"] as? String == "payload_too_large")
        }
    }

    @Test func theBodyLimitIsExact() throws {
        var options = ServerOptions(host: "127.0.0.1", port: 0)
        options.maxBodyBytes = 1_024
        try withServer(router: makeRouter(), options: options) { server in
            let atLimit = try RawConnection(port: server.port)
                .request("POST", "/body", body: [UInt8](repeating: 1, count: 1_024))
            #expect(atLimit.status == 200)
            #expect(try atLimit.json()["bytes"] as? Int == 1_024)
            let overLimit = try RawConnection(port: server.port)
                .request("POST", "/body", body: [UInt8](repeating: 1, count: 1_025))
            #expect(overLimit.status == 413)
        }
    }

    @Test func headIsAnsweredWithoutABody() throws {
        try withServer(router: makeRouter()) { server in
            let connection = try RawConnection(port: server.port)
            let head = try connection.request("HEAD", "/hello")
            #expect(head.status == 200)
            #expect(head.header("Content-Type")?.hasPrefix("text/plain") == true)
            // Had the server sent a body after the HEAD response, this response would be garbled.
            let get = try connection.request("GET", "/hello")
            #expect(get.status == 200)
            #expect(get.text == "hello, 玫瑰")
            // HEAD describes the GET response (RFC 9110 §9.3.2), so its length is the GET body's.
            #expect(head.header("Content-Length") == String(get.body.count))
        }
    }

    @Test func unknownPathsAndMethodsAnswerInTheErrorShape() throws {
        try withServer(router: makeRouter()) { server in
            let connection = try RawConnection(port: server.port)
            let missing = try connection.request("GET", "/nowhere")
            #expect(missing.status == 404)
            #expect(try missing.errorDetail()["code"] as? String == "not_found")
            let wrongMethod = try connection.request("DELETE", "/hello")
            #expect(wrongMethod.status == 405)
            #expect(wrongMethod.header("Allow") == "GET, HEAD")
            #expect(try wrongMethod.errorDetail()["code"] as? String == "method_not_allowed")
        }
    }

    @Test func pathAndQueryArrivePercentDecoded() throws {
        let seen = Locked<Request?>(nil)
        try withServer(responder: { request, _ in
            seen.withLock { $0 = request }
            return Response.text("ok")
        }) { server in
            let response = try RawConnection(port: server.port)
                .request("GET", "/products/%E7%8E%AB%E7%91%B0?q=%E7%BA%A2%E7%8E%AB%E7%91%B0&page=2&page=3",
                         headers: [("x-CUSTOM-header", "Value")])
            #expect(response.status == 200)
            let request = try #require(seen.current)
            #expect(request.method == "GET")
            #expect(request.path == "/products/玫瑰")
            #expect(request.query["q"] == "红玫瑰")
            #expect(request.query["page"] == "2")
            #expect(request.headers["X-Custom-Header"] == "Value")
            #expect(request.remoteAddress == "127.0.0.1")
        }
    }

    @Test func aPercentEncodedNulOrControlCharacterInThePathIs400() throws {
        let reached = Locked<[String]>([])
        try withServer(responder: { request, _ in
            reached.withLock { $0.append(request.path) }
            return Response.text("served \(request.path)")
        }) { server in
            for target in ["/assets/app.js%00.png", "/a%00", "/a%0ab", "/a%0D%0Ab", "/a%1f", "/a%7F", "/a%00?q=1"] {
                // Answered before any body is read, so the server closes each connection after it.
                let response = try RawConnection(port: server.port).request("GET", target)
                #expect(response.status == 400, "\(target)")
                #expect(try response.errorDetail()["code"] as? String == "invalid_request", "\(target)")
            }
            // Percent-encoded text and a %00 in the query are not the path's business.
            #expect(try RawConnection(port: server.port).request("GET", "/a%20b%E7%8E%AB?q=%00").status == 200)
            #expect(reached.current == ["/a b玫"])
        }
    }

    @Test func theClientAddressFollowsForwardedForOnlyFromATrustedPeer() throws {
        let seen = Locked<[String]>([])
        let responder: Responder = { request, _ in
            seen.withLock { $0.append(request.clientAddress) }
            return Response.text("ok")
        }
        let forwarded = [("X-Forwarded-For", "6.6.6.6, 198.51.100.7")]
        try withServer(responder: responder) { server in
            let response = try RawConnection(port: server.port).request("GET", "/", headers: forwarded)
            #expect(response.status == 200)
        }
        var options = ServerOptions(host: "127.0.0.1", port: 0)
        options.trustedProxies = try TrustedProxies(parsing: "127.0.0.0/8")
        try withServer(options: options, responder: responder) { server in
            let connection = try RawConnection(port: server.port)
            #expect(try connection.request("GET", "/", headers: forwarded).status == 200)
            #expect(try connection.request("GET", "/").status == 200)
        }
        #expect(seen.current == ["127.0.0.1", "198.51.100.7", "127.0.0.1"])
    }

    @Test func aThrownUnknownErrorBecomesA500WithoutItsText() throws {
        struct LeakyError: Error, CustomStringConvertible { var description: String { "SELECT secret FROM users" } }
        try withServer(responder: { _, _ in throw LeakyError() }) { server in
            let response = try RawConnection(port: server.port).request("GET", "/")
            #expect(response.status == 500)
            #expect(try response.errorDetail()["code"] as? String == "internal")
            #expect(!response.text.contains("secret"))
        }
    }

    @Test func requestIDsAreEchoedOrGeneratedOverTheWire() throws {
        let counter = Locked(0)
        let middleware: [any Middleware] = [RequestIDMiddleware(makeID: {
            counter.withLock { $0 += 1; return "generated-\($0)" }
        })]
        try withServer(router: makeRouter(), middleware: middleware) { server in
            let connection = try RawConnection(port: server.port)
            let echoed = try connection.request("GET", "/hello", headers: [("x-request-id", "client-abc-123")])
            #expect(echoed.header("X-Request-Id") == "client-abc-123")
            let generated = try connection.request("GET", "/hello")
            #expect(generated.header("X-Request-Id") == "generated-1")
            let onError = try connection.request("GET", "/nowhere", headers: [("X-Request-Id", "err-1")])
            #expect(onError.status == 404)
            #expect(onError.header("X-Request-Id") == "err-1")
        }
    }

    @Test func stopLetsAnInFlightRequestFinishThenRefusesConnections() throws {
        let server = Server(options: ServerOptions(host: "127.0.0.1", port: 0)) { request, _ in
            if request.path == "/slow" { Thread.sleep(forTimeInterval: 1) }
            return Response.text("done")
        }
        try server.start()
        let port = server.port
        #expect(port != 0)
        let result = Locked<Result<WireResponse, ClientError>?>(nil)
        let clientDone = DispatchSemaphore(value: 0)
        Thread {
            do {
                let response = try RawConnection(port: port).request("GET", "/slow")
                result.withLock { $0 = .success(response) }
            } catch {
                result.withLock { $0 = .failure(ClientError(description: "\(error)")) }
            }
            clientDone.signal()
        }.start()

        // Wait until the slow request is being handled, then stop from another thread.
        let deadline = Date().addingTimeInterval(10)
        while server.requestsInFlight == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        try #require(server.requestsInFlight == 1)
        let stopDone = DispatchSemaphore(value: 0)
        let stopStarted = Date()
        Thread {
            server.stop(grace: 10)
            stopDone.signal()
        }.start()

        // While it drains, new connections are already refused.
        var refusedWhileDraining = false
        while server.requestsInFlight > 0 && Date() < deadline {
            if RawConnection.connectErrno(port: port) == ECONNREFUSED { refusedWhileDraining = true; break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(refusedWhileDraining)

        try #require(clientDone.wait(timeout: .now() + 15) == .success)
        try #require(stopDone.wait(timeout: .now() + 15) == .success)
        switch result.current {
        case .success(let response)?:
            #expect(response.status == 200)
            #expect(response.text == "done")
        case .failure(let error)?:
            Issue.record("the in-flight request failed: \(error)")
        case nil:
            Issue.record("no response")
        }
        #expect(Date().timeIntervalSince(stopStarted) < 9, "stop waited for the request, not the whole grace period")
        #expect(server.requestsInFlight == 0)
        #expect(RawConnection.connectErrno(port: port) == ECONNREFUSED)
    }

    @Test func stopOnAnIdleServerReturnsPromptlyAndTwiceIsHarmless() throws {
        let server = Server(options: ServerOptions(host: "127.0.0.1", port: 0)) { _, _ in Response.text("ok") }
        try server.start()
        let port = server.port
        let kept = try RawConnection(port: port)
        #expect(try kept.request("GET", "/").status == 200)
        let started = Date()
        server.stop(grace: 10)
        server.stop(grace: 10)
        #expect(Date().timeIntervalSince(started) < 5, "an idle keep-alive connection does not hold stop up")
        #expect(RawConnection.connectErrno(port: port) == ECONNREFUSED)
    }

    /// Sends `bytes` one at a time every `interval` seconds; the seconds until the server closed
    /// the connection, or nil if it was still open after the last byte.
    private func trickle(_ bytes: [UInt8], every interval: Double, on connection: RawConnection,
                         started: Date) -> Double? {
        for byte in bytes {
            if (try? connection.send([byte])) == nil { return Date().timeIntervalSince(started) }
            var poller = pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, Int32(interval * 1_000)) > 0 {
                var scratch = [UInt8](repeating: 0, count: 4_096)
                if scratch.withUnsafeMutableBytes({ recv(connection.fd, $0.baseAddress, $0.count, 0) }) <= 0 {
                    return Date().timeIntervalSince(started)
                }
            }
        }
        return nil
    }

    @Test func headersTrickledByteByByteAreCutOffAtTheRequestTimeout() throws {
        var options = ServerOptions(host: "127.0.0.1", port: 0)
        options.requestTimeoutSeconds = 1
        try withServer(router: makeRouter(), options: options) { server in
            let connection = try RawConnection(port: server.port)
            let head = Array("GET /echo/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8) + [UInt8](repeating: 0x61, count: 40)
            // One byte every half second keeps the idle timeout (silence) from ever firing.
            let closedAfter = trickle(head, every: 0.5, on: connection, started: Date())
            let seconds = try #require(closedAfter, "the connection outlived 20 s of trickled headers")
            #expect(seconds >= 0.9 && seconds < 3.5, "closed after \(seconds) s")
        }
    }

    @Test func aBodyTrickledByteByByteIsCutOffAtTheRequestTimeout() throws {
        var options = ServerOptions(host: "127.0.0.1", port: 0)
        options.requestTimeoutSeconds = 1
        try withServer(router: makeRouter(), options: options) { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("POST /body HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                + "Content-Length: 100\r\n\r\n")
            let started = Date()
            let closedAfter = trickle([UInt8](repeating: 0x20, count: 40), every: 0.5, on: connection, started: started)
            let seconds = try #require(closedAfter, "the connection outlived 20 s of trickled body")
            #expect(seconds >= 0.9 && seconds < 3.5, "closed after \(seconds) s")
        }
    }

    @Test func keepAliveRequestsAndSlowHandlersOutlastTheRequestTimeout() throws {
        var options = ServerOptions(host: "127.0.0.1", port: 0)
        options.requestTimeoutSeconds = 1
        try withServer(router: makeRouter(), options: options) { server in
            let connection = try RawConnection(port: server.port)
            let started = Date()
            // Each request arrives promptly, so the connection lives well past one timeout.
            for n in 0..<8 {
                let response = try connection.request("GET", "/echo/\(n)")
                #expect(response.status == 200)
                #expect(response.text == String(n))
                Thread.sleep(forTimeInterval: 0.3)
            }
            #expect(Date().timeIntervalSince(started) > 2)
            // The timeout bounds receiving a request, not the handler's work on it.
            let slow = try connection.request("GET", "/slow")
            #expect(slow.status == 200)
            #expect(slow.text == "done")
        }
    }

    @Test func anIdleKeepAliveConnectionIsClosedAfterTheRequestTimeout() throws {
        var options = ServerOptions(host: "127.0.0.1", port: 0)
        options.requestTimeoutSeconds = 1
        try withServer(router: makeRouter(), options: options) { server in
            let connection = try RawConnection(port: server.port, timeout: 5)
            #expect(try connection.request("GET", "/echo/1").status == 200)
            let started = Date()
            #expect(connection.isClosedByPeer())
            #expect(Date().timeIntervalSince(started) < 3.5)
        }
    }

    /// A balancer (a trusted proxy) keeps its connections pooled between requests and closes the
    /// idle ones itself: neither the request timeout nor libmicrohttpd's idle timeout may close one
    /// under it, or a request it sends at that instant is lost.
    @Test func aTrustedProxysIdleConnectionOutlastsTheRequestAndIdleTimeouts() throws {
        var options = ServerOptions(host: "127.0.0.1", port: 0, idleTimeoutSeconds: 1)
        options.requestTimeoutSeconds = 1
        options.trustedProxies = try TrustedProxies(parsing: "127.0.0.1")
        try withServer(router: makeRouter(), options: options) { server in
            let connection = try RawConnection(port: server.port, timeout: 4)
            #expect(try connection.request("GET", "/echo/1").status == 200)
            // Three timeouts of silence: a read that times out (-1), not end of file (0).
            var byte: UInt8 = 0
            #expect(recv(connection.fd, &byte, 1, 0) == -1, "the idle connection was closed")
            let again = try connection.request("GET", "/echo/2")
            #expect(again.status == 200)
            #expect(again.text == "2")
        }
    }

    @Test func aTrustedProxysRequestTrickledAfterAnIdleWaitIsStillCutOff() throws {
        var options = ServerOptions(host: "127.0.0.1", port: 0)
        options.requestTimeoutSeconds = 1
        options.trustedProxies = try TrustedProxies(parsing: "127.0.0.1")
        try withServer(router: makeRouter(), options: options) { server in
            let connection = try RawConnection(port: server.port)
            #expect(try connection.request("GET", "/echo/1").status == 200)
            Thread.sleep(forTimeInterval: 2)
            // The clock starts with the request line (a balancer forwards a head it has read whole).
            try connection.send("GET /echo/1 HTTP/1.1\r\n")
            let started = Date()
            let rest = Array("Host: 127.0.0.1\r\nX-Slow: ".utf8) + [UInt8](repeating: 0x61, count: 40)
            let closedAfter = trickle(rest, every: 0.5, on: connection, started: started)
            let seconds = try #require(closedAfter, "the connection outlived 20 s of trickled headers")
            #expect(seconds >= 0.9 && seconds < 3.5, "closed after \(seconds) s")
        }
    }

    @Test func aBusyPortIsReportedAsAnError() throws {
        try withServer(responder: { _, _ in Response.text("ok") }) { server in
            let second = Server(options: ServerOptions(host: "127.0.0.1", port: server.port)) { _, _ in Response.text("no") }
            #expect(throws: ServerError.self) { try second.start() }
        }
    }
}
