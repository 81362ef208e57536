import Dispatch
import Foundation
import HTTP

/// A fake provider's HTTP server on 127.0.0.1. It hands each request to its owner (the fake) while
/// the owner lives, without keeping it alive, and stops when the owner goes.
final class LoopbackServer<Owner: AnyObject>: Sendable {
    private let server: Server
    private let link: OwnerLink<Owner>

    /// A server on `port` (0: any free port) that answers with `handle` once `start(serving:)` names its owner.
    init(port: UInt16, handle: @escaping @Sendable (Owner, Request) -> Response) {
        let link = OwnerLink<Owner>()
        self.link = link
        server = Server(options: ServerOptions(host: "127.0.0.1", port: port, threads: 4), responder: { request, _ in
            link.target.map { handle($0, request) } ?? .text("stopped", status: .serviceUnavailable)
        })
    }

    func start(serving owner: Owner) throws {
        link.target = owner
        try server.start()
    }

    var port: UInt16 { server.port }

    func stop() { server.stop(grace: 0) }

    // The owner's last reference may go on one of the server's own worker threads (a request still
    // in flight when a test ends), which cannot join itself: stop from elsewhere.
    deinit {
        let server = server
        DispatchQueue.global().async { server.stop(grace: 0) }
    }
}

/// Lets a server reach the owner made after it, without keeping it alive.
private final class OwnerLink<Target: AnyObject>: @unchecked Sendable {
    private let lock = NSLock()
    private weak var stored: Target?

    var target: Target? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
