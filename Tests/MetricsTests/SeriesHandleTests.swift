import Metrics
import Testing

@Suite("Series handles")
struct SeriesHandleTests {
    @Test func aCounterSeriesHandleCountsIntoTheSameSeriesAsInc() {
        let registry = MetricsRegistry()
        let counter = registry.counter("h_total", help: "H.", labels: ["route", "status"])
        let ok = counter.series(["/a", "200"])
        ok.inc()
        ok.inc(by: 2)
        counter.inc(["/a", "200"])
        counter.series(["/a", "404"]).inc()
        #expect(registry.value("h_total", ["/a", "200"]) == 4)
        #expect(registry.value("h_total", ["/a", "404"]) == 1)
        #expect(registry.exposition() == """
            # HELP h_total H.
            # TYPE h_total counter
            h_total{route="/a",status="200"} 4
            h_total{route="/a",status="404"} 1

            """)
    }

    @Test func aHistogramSeriesHandleObservesIntoItsBuckets() {
        let registry = MetricsRegistry()
        let histogram = registry.histogram("t_seconds", help: "T.", labels: ["route"], buckets: [1, 0.1])
        let series = histogram.series(["/a"])
        series.observe(0.05)
        series.observe(2)
        histogram.observe(0.5, ["/a"])
        #expect(registry.count("t_seconds", ["/a"]) == 3)
        #expect(registry.exposition().contains("""
            t_seconds_bucket{route="/a",le="0.1"} 1
            t_seconds_bucket{route="/a",le="1"} 2
            t_seconds_bucket{route="/a",le="+Inf"} 3
            t_seconds_sum{route="/a"} 2.55
            t_seconds_count{route="/a"} 3
            """))
    }

    @Test func aHandleWithTheWrongLabelCountCountsNothing() {
        let registry = MetricsRegistry()
        let counter = registry.counter("w_total", help: "W.", labels: ["a"])
        counter.series(["1", "2"]).inc()
        registry.histogram("w_seconds", help: "W.", labels: ["a"]).series([]).observe(1)
        #expect(registry.exposition() == """
            # HELP w_total W.
            # TYPE w_total counter
            # HELP w_seconds W.
            # TYPE w_seconds histogram

            """)
    }

    @Test func handlesUsedFromManyTasksAddUp() async {
        let registry = MetricsRegistry()
        let counter = registry.counter("m_total", help: "M.", labels: ["k"])
        let histogram = registry.histogram("m_seconds", help: "M.", labels: ["k"])
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let series = counter.series([String(index % 2)])
                    let durations = histogram.series([String(index % 2)])
                    for _ in 0..<1_000 {
                        series.inc()
                        durations.observe(0.001)
                    }
                }
            }
        }
        #expect(registry.value("m_total", ["0"]) + registry.value("m_total", ["1"]) == 8_000)
        #expect(registry.count("m_seconds", ["0"]) + registry.count("m_seconds", ["1"]) == 8_000)
    }
}
