import Metrics
import Synchronization
import Testing

@Suite("MetricsRegistry")
struct MetricsRegistryTests {
    @Test func countersRenderWithHelpTypeAndLabels() {
        let registry = MetricsRegistry()
        let plain = registry.counter("shop_orders_placed_total", help: "Orders placed.")
        let labelled = registry.counter("shop_payments_total", help: "Payments.", labels: ["provider", "result"])
        plain.inc()
        plain.inc(by: 2)
        labelled.inc(["alipay", "started"])
        labelled.inc(["alipay", "started"])
        labelled.inc(["mockpay", "notified"])
        #expect(registry.value("shop_orders_placed_total") == 3)
        #expect(registry.value("shop_payments_total", ["alipay", "started"]) == 2)
        #expect(registry.exposition() == """
            # HELP shop_orders_placed_total Orders placed.
            # TYPE shop_orders_placed_total counter
            shop_orders_placed_total 3
            # HELP shop_payments_total Payments.
            # TYPE shop_payments_total counter
            shop_payments_total{provider="alipay",result="started"} 2
            shop_payments_total{provider="mockpay",result="notified"} 1

            """)
    }

    @Test func labelValuesAndHelpAreEscaped() {
        let registry = MetricsRegistry()
        let counter = registry.counter("x_total", help: "back\\slash\nnewline", labels: ["v"])
        counter.inc(["a\\b\"c\nd"])
        #expect(registry.exposition() == """
            # HELP x_total back\\\\slash\\nnewline
            # TYPE x_total counter
            x_total{v="a\\\\b\\"c\\nd"} 1

            """)
    }

    @Test func histogramBucketsAreCumulativeWithInfSumAndCount() {
        let registry = MetricsRegistry()
        let histogram = registry.histogram("d_seconds", help: "Durations.", labels: ["route"], buckets: [0.1, 1])
        histogram.observe(0.05, ["/a"])
        histogram.observe(0.5, ["/a"])
        histogram.observe(3, ["/a"])
        #expect(registry.count("d_seconds", ["/a"]) == 3)
        #expect(registry.exposition() == """
            # HELP d_seconds Durations.
            # TYPE d_seconds histogram
            d_seconds_bucket{route="/a",le="0.1"} 1
            d_seconds_bucket{route="/a",le="1"} 2
            d_seconds_bucket{route="/a",le="+Inf"} 3
            d_seconds_sum{route="/a"} 3.55
            d_seconds_count{route="/a"} 3

            """)
    }

    @Test func wrongLabelCountIsIgnored() {
        let registry = MetricsRegistry()
        let counter = registry.counter("y_total", help: "Y.", labels: ["a"])
        counter.inc([])
        counter.inc(["1", "2"])
        #expect(registry.exposition() == "# HELP y_total Y.\n# TYPE y_total counter\n")
    }

    @Test func countsFromManyThreadsAddUp() async {
        let registry = MetricsRegistry()
        let counter = registry.counter("z_total", help: "Z.", labels: ["k"])
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask { for _ in 0..<1_000 { counter.inc([String(index % 2)]) } }
            }
        }
        #expect(registry.value("z_total", ["0"]) + registry.value("z_total", ["1"]) == 8_000)
    }

    @Test func sampledFamiliesAreReadAtEachScrape() {
        let registry = MetricsRegistry()
        let level = Mutex(3.0)
        registry.sampled("shop_db_pool_in_use", help: "In use.", labels: ["pool"]) {
            [(["primary"], level.withLock { $0 }), (["replica"], 0)]
        }
        registry.sampled("shop_db_pool_waits_total", help: "Waits.", type: "counter", labels: ["pool"]) {
            [(["primary"], 12)]
        }
        #expect(registry.exposition() == """
            # HELP shop_db_pool_in_use In use.
            # TYPE shop_db_pool_in_use gauge
            shop_db_pool_in_use{pool="primary"} 3
            shop_db_pool_in_use{pool="replica"} 0
            # HELP shop_db_pool_waits_total Waits.
            # TYPE shop_db_pool_waits_total counter
            shop_db_pool_waits_total{pool="primary"} 12

            """)
        level.withLock { $0 = 1 }
        #expect(registry.exposition().contains("shop_db_pool_in_use{pool=\"primary\"} 1\n"))
    }
}
