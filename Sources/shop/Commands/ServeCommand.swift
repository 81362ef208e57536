import Dispatch
import Foundation
import HTTP
import Metrics
import ShopAPI
import ShopBundle
import ShopCore

/// `shop serve`: migrates, then serves the API until SIGINT/SIGTERM, then drains and stops.
struct ServeCommand: Command {
    let path = ["serve"]
    let valuedOptions: Set<String> = ["port", "env"]
    let summary = "migrate the database, then serve the HTTP API until SIGINT/SIGTERM"
    let usage = """
        Usage: shop serve [--port N] [--env development|production] [--config PATH]

        Applies pending migrations, then serves the API on server.host:server.port. On SIGINT or
        SIGTERM it first drains: GET /readyz answers 503 "draining" while every request is still
        served for server.drain_seconds; then it stops accepting, finishes in-flight requests and
        exits 0. In production it
        refuses to start while a secret is short or still has its development value, while codes
        would go to the log or a file, while the SMS webhook is not https://, or without
        app.public_url (the only origin share pages and /openapi.json name there). In development
        it warns when server.host is not loopback or server.trusted_proxies is set.
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config", "port", "env"])
        var settings = try ShopEnvironment.settings(arguments)
        if let port = arguments.option("port") {
            guard let value = Int(port), (0...65_535).contains(value) else {
                throw UsageError(description: say(zh: "--port 必须是 0 到 65535 的数", en: "--port must be a number from 0 to 65535"))
            }
            settings.server.port = value
        }
        if let env = arguments.option("env") {
            guard let value = Config.App.Environment(rawValue: env) else {
                throw UsageError(description: say(zh: "--env 必须是 development 或 production", en: "--env must be development or production"))
            }
            settings.shop.app.env = value
        }
        let (config, serverSettings) = (settings.shop, settings.server)
        if config.app.env == .production, !config.productionProblems.isEmpty {
            throw CommandFailure(description: "refusing to start in production: "
                                 + config.productionProblems.joined(separator: "; ")
                                 + " (set them in the config file or SHOP_* environment variables)")
        }
        _ = try config.publicBaseURL()  // a missing (production) or malformed app.public_url stops the start, not a share page
        let logger = ShopEnvironment.logger(config)
        for warning in serverSettings.developmentWarnings(config.app.env) { logger.warning(warning) }
        let shop = try ShopEnvironment.openShop(config, logger: logger, create: true)
        let api = ShopAPI(shop: shop, server: serverSettings, document: ShopBundle.openAPIDocument, metrics: MetricsRegistry())
        let trustedProxies: TrustedProxies
        do {
            trustedProxies = try TrustedProxies(parsing: serverSettings.trustedProxies)
        } catch {
            throw CommandFailure(description: "config server.trusted_proxies: \(error)")
        }
        var options = ServerOptions(
            host: serverSettings.host, port: UInt16(serverSettings.port), threads: serverSettings.threads,
            maxConnections: serverSettings.maxConnections, maxConnectionsPerIP: serverSettings.maxConnectionsPerIP,
            maxBodyBytes: serverSettings.maxBodyBytes, idleTimeoutSeconds: serverSettings.idleTimeoutSeconds,
            requestTimeoutSeconds: serverSettings.requestTimeoutSeconds, trustedProxies: trustedProxies)
        options.bodyLimits = api.bodyLimits
        let server = Server(options: options, offload: api.offloadTargets, placement: api.placement, responder: api.responder)
        try server.start()
        let metricsServer = MetricsEndpoint.start(serverSettings, registry: api.metrics.registry, logger: logger)
        let sweeper = BackgroundSweeper(shop: shop, logger: logger, onRun: { [metrics = api.metrics] in metrics.sweeperRun(succeeded: $0) })
        sweeper.start()
        let dispatcher = NoticeDispatcher(outbox: shop.noticeOutbox, logger: logger, onRun: { [metrics = api.metrics] in metrics.noticesDispatched($0) })
        dispatcher.start()
        let searchTerms = SearchTermsWarmer(catalog: shop.catalog, logger: logger)
        searchTerms.start()
        let catalogListener = ShopEnvironment.catalogListener(shop, config: config, logger: logger)
        catalogListener?.start()
        logger.info("serving", ["address": "http://\(serverSettings.host):\(server.port)", "env": config.app.env.rawValue,
                                "threads": String(serverSettings.threads),
                                "metrics": metricsServer.map { "http://\(serverSettings.metricsHost):\($0.port)/metrics" } ?? "off"])
        let drainSeconds = serverSettings.drainSeconds
        ShutdownSignals.wait { signal in
            shop.startDraining()
            logger.info("draining", ["signal": signal, "seconds": String(drainSeconds)])
            Thread.sleep(forTimeInterval: TimeInterval(drainSeconds))
            logger.info("shutting down")
            server.stop(grace: 30)
            for target in api.offloadTargets.values { target.bulkhead.shutdown(timeout: 5) }
            metricsServer?.stop(grace: 1)
            sweeper.stop()
            dispatcher.stop()
            searchTerms.stop()
            catalogListener?.stop()
            shop.catalog.flushSearches()
            logger.info("stopped")
        }
        return 0
    }
}

/// Blocks until SIGINT or SIGTERM, then runs `shutdown` once.
enum ShutdownSignals {
    static func wait(_ shutdown: @escaping @Sendable (String) -> Void) {
        let done = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "shop.signals")
        var sources: [any DispatchSourceSignal] = []
        for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                shutdown(name)
                done.signal()
            }
            source.resume()
            sources.append(source)
        }
        done.wait()
        sources.forEach { $0.cancel() }
    }
}
