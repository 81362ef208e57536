import Foundation
@testable import HTTP
import Testing

@Suite("Per-connection state over real sockets")
struct ServerConnectionTests {
    private func makeRouter() -> Router {
        let routes = Routes()
        routes.group("").get("/peer") { request, _ in Response.text("\(request.remoteAddress) \(request.clientAddress)") }
        return Router(routes)
    }

    @Test func everyKeepAliveRequestSeesItsPeerAndClosedConnectionsAreForgotten() throws {
        try withServer(router: makeRouter()) { server in
            var connections: [RawConnection] = []
            for _ in 0..<20 { connections.append(try RawConnection(port: server.port)) }
            for _ in 0..<3 {
                for connection in connections {
                    let response = try connection.request("GET", "/peer")
                    #expect(response.status == 200)
                    #expect(response.text == "127.0.0.1 127.0.0.1")
                }
            }
            #expect(server.deadlines.trackedConnections == 20)
            connections.removeAll()
            let deadline = Date().addingTimeInterval(5)
            while server.deadlines.trackedConnections > 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            #expect(server.deadlines.trackedConnections == 0)
        }
    }

    @Test func aStoppedServerForgetsItsOpenConnections() throws {
        let server = Server(options: ServerOptions(host: "127.0.0.1", port: 0)) { _, _ in Response.text("ok") }
        try server.start()
        let connection = try RawConnection(port: server.port)
        #expect(try connection.request("GET", "/").status == 200)
        #expect(server.deadlines.trackedConnections == 1)
        server.stop(grace: 1)
        #expect(server.deadlines.trackedConnections == 0)
        #expect(connection.isClosedByPeer())
    }
}
