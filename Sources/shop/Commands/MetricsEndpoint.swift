import HTTP
import Metrics
import ShopAPI
import ShopCore

/// `GET /metrics` in the Prometheus text format on `server.metrics_host:server.metrics_port`,
/// a listener of its own so the API's port never exposes it.
enum MetricsEndpoint {
    /// The started server, or nil when `server.metrics_port` is 0 or cannot be bound. A taken
    /// metrics port is logged as an error but does not stop the shop: several `shop serve` on one
    /// host (tests, a local cluster) would otherwise refuse to start over an operator's side door.
    static func start(_ server: ServerSettings, registry: MetricsRegistry, logger: Logger) -> Server? {
        guard server.metricsPort != 0 else { return nil }
        let routes = Routes()
        routes.group("").get("/metrics") { _, _ in
            .text(registry.exposition(), contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
        let router = Router(routes)
        let endpoint = Server(options: ServerOptions(host: server.metricsHost, port: UInt16(server.metricsPort),
                                                     threads: 1, maxConnections: 64, maxConnectionsPerIP: 16),
                              responder: { request, context in try router.respond(to: request, context: context) })
        do {
            try endpoint.start()
            return endpoint
        } catch {
            logger.error("metrics endpoint not started", ["address": "\(server.metricsHost):\(server.metricsPort)",
                                                          "error": String(describing: error)])
            return nil
        }
    }
}
