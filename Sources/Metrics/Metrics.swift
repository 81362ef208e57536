import Synchronization

/// Counters and histograms with labels, rendered in the Prometheus text exposition format 0.0.4.
///
/// Families are declared up front (name, help, label names) and then observed from any thread.
/// One `Mutex` guards the families and the index of their series; each series keeps its values
/// behind a lock of its own, so a hot path that holds a series handle (`Counter.series`) counts
/// without looking anything up or contending with other series. Label values are the caller's
/// business: keep them to a bounded set (a route pattern, never a raw path).
public final class MetricsRegistry: Sendable {
    private let state = Mutex(State())

    private struct State {
        /// Families in the order declared, so the exposition is stable.
        var order: [String] = []
        var families: [String: Family] = [:]
        var sampled: [String: Sampled] = [:]
    }

    /// A family whose values are read from elsewhere (a pool's counters) each time it is scraped.
    private struct Sampled {
        let help: String
        let type: String
        let labelNames: [String]
        let sample: @Sendable () -> [(labels: [String], value: Double)]
    }

    private struct Family {
        let help: String
        let labelNames: [String]
        let buckets: [Double]?
        /// Series by their label values, in the order first observed.
        var seriesOrder: [[String]] = []
        var series: [[String]: SeriesCell] = [:]
    }

    /// Seconds: 5 ms to 10 s, the usual spread of an HTTP request.
    public static let defaultBuckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    public init() {}

    /// A monotonically increasing counter family; by convention its name ends in `_total`.
    public func counter(_ name: String, help: String, labels: [String] = []) -> Counter {
        declare(name, help: help, labels: labels, buckets: nil)
        return Counter(registry: self, name: name)
    }

    /// A histogram family with upper bounds `buckets` (sorted, `+Inf` implied).
    public func histogram(_ name: String, help: String, labels: [String] = [],
                          buckets: [Double] = MetricsRegistry.defaultBuckets) -> Histogram {
        let declared = declare(name, help: help, labels: labels, buckets: buckets.sorted())
        return Histogram(registry: self, name: name, buckets: declared ?? [])
    }

    /// A family read by `sample` at each scrape: one value per label set. `type` is `gauge` (a
    /// level that goes up and down) or `counter` (a total kept elsewhere).
    public func sampled(_ name: String, help: String, type: String = "gauge", labels: [String] = [],
                        sample: @escaping @Sendable () -> [(labels: [String], value: Double)]) {
        precondition(type == "gauge" || type == "counter", "a sampled family is a gauge or a counter")
        state.withLock { state in
            guard state.families[name] == nil, state.sampled[name] == nil else { return }
            state.order.append(name)
            state.sampled[name] = Sampled(help: help, type: type, labelNames: labels, sample: sample)
        }
    }

    /// Declares the family unless one of that name exists; returns the buckets of the one that does.
    @discardableResult
    private func declare(_ name: String, help: String, labels: [String], buckets: [Double]?) -> [Double]? {
        state.withLock { state in
            if let family = state.families[name] { return family.buckets }
            state.order.append(name)
            state.families[name] = Family(help: help, labelNames: labels, buckets: buckets)
            return buckets
        }
    }

    /// The series of family `name` with these label values, made on first use; nil when the family
    /// is unknown or the label count is wrong.
    fileprivate func cell(_ name: String, _ labels: [String]) -> SeriesCell? {
        state.withLock { state in
            guard let family = state.families[name], labels.count == family.labelNames.count else { return nil }
            if let cell = family.series[labels] { return cell }
            let cell = SeriesCell(slots: family.buckets.map { $0.count + 1 } ?? 0)
            state.families[name]?.seriesOrder.append(labels)
            state.families[name]?.series[labels] = cell
            return cell
        }
    }

    /// The current value of one counter series (0 when never incremented): for tests.
    public func value(_ name: String, _ labels: [String] = []) -> Double {
        state.withLock { $0.families[name]?.series[labels] }?.values.withLock { $0.value } ?? 0
    }

    /// The number of observations of one histogram series: for tests.
    public func count(_ name: String, _ labels: [String] = []) -> UInt64 {
        state.withLock { $0.families[name]?.series[labels] }?.values.withLock { $0.count } ?? 0
    }

    /// Every family in the text exposition format 0.0.4
    /// (`Content-Type: text/plain; version=0.0.4`).
    public func exposition() -> String {
        state.withLock { state in
            var out = ""
            for name in state.order {
                if let sampled = state.sampled[name] {
                    out += "# HELP \(name) \(Self.escapeHelp(sampled.help))\n"
                    out += "# TYPE \(name) \(sampled.type)\n"
                    for (labels, value) in sampled.sample() where labels.count == sampled.labelNames.count {
                        out += "\(name)\(Self.labelText(zip(sampled.labelNames, labels).map { ($0, $1) })) \(Self.number(value))\n"
                    }
                    continue
                }
                guard let family = state.families[name] else { continue }
                out += "# HELP \(name) \(Self.escapeHelp(family.help))\n"
                out += "# TYPE \(name) \(family.buckets == nil ? "counter" : "histogram")\n"
                for labels in family.seriesOrder {
                    guard let series = family.series[labels]?.values.withLock({ $0 }) else { continue }
                    let pairs = zip(family.labelNames, labels).map { ($0, $1) }
                    guard let buckets = family.buckets else {
                        out += "\(name)\(Self.labelText(pairs)) \(Self.number(series.value))\n"
                        continue
                    }
                    var cumulative: UInt64 = 0
                    for (index, bound) in (buckets + [.infinity]).enumerated() {
                        cumulative += series.bucketCounts[index]
                        out += "\(name)_bucket\(Self.labelText(pairs + [("le", Self.number(bound))])) \(cumulative)\n"
                    }
                    out += "\(name)_sum\(Self.labelText(pairs)) \(Self.number(series.value))\n"
                    out += "\(name)_count\(Self.labelText(pairs)) \(series.count)\n"
                }
            }
            return out
        }
    }

    static func labelText(_ pairs: [(String, String)]) -> String {
        pairs.isEmpty ? "" : "{" + pairs.map { "\($0)=\"\(escapeLabel($1))\"" }.joined(separator: ",") + "}"
    }

    /// Label values escape `\`, `"` and newline.
    static func escapeLabel(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    /// Help text escapes `\` and newline.
    static func escapeHelp(_ value: String) -> String {
        value.replacingAll("\\", with: "\\\\").replacingAll("\n", with: "\\n")
    }

    /// Go's float formatting as Prometheus expects it: `+Inf`, integers without a fraction.
    static func number(_ value: Double) -> String {
        if value == .infinity { return "+Inf" }
        if value == -.infinity { return "-Inf" }
        if value.isNaN { return "NaN" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}

extension String {
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for character in self {
            if character == target { out += replacement } else { out.append(character) }
        }
        return out
    }
}

/// One series' values, behind their own lock.
final class SeriesCell: Sendable {
    struct Values {
        /// A counter's total, or a histogram's sum.
        var value: Double = 0
        /// Per bucket (not cumulative); the last slot is `+Inf`. Empty for a counter.
        var bucketCounts: [UInt64]
        var count: UInt64 = 0
    }

    let values: Mutex<Values>

    init(slots: Int) {
        values = Mutex(Values(bucketCounts: Array(repeating: 0, count: slots)))
    }

    func add(_ amount: Double) {
        values.withLock { $0.value += amount }
    }

    func observe(_ value: Double, buckets: [Double]) {
        let slot = buckets.firstIndex { value <= $0 } ?? buckets.count
        values.withLock { values in
            guard slot < values.bucketCounts.count else { return }
            values.bucketCounts[slot] += 1
            values.count += 1
            values.value += value
        }
    }
}

/// A handle on one counter family; `inc` with one value per label name, in order.
public struct Counter: Sendable {
    let registry: MetricsRegistry
    public let name: String

    public func inc(_ labels: [String] = [], by amount: Double = 1) {
        registry.cell(name, labels)?.add(amount)
    }

    /// The series with these label values, to count into again and again without finding it
    /// each time. A wrong label count gives a series that counts nothing, as `inc` would.
    public func series(_ labels: [String]) -> Series {
        Series(cell: registry.cell(name, labels))
    }

    /// One labelled series of a counter.
    public struct Series: Sendable {
        let cell: SeriesCell?

        public func inc(by amount: Double = 1) {
            cell?.add(amount)
        }
    }
}

/// A handle on one histogram family; `observe` with one value per label name, in order.
public struct Histogram: Sendable {
    let registry: MetricsRegistry
    public let name: String
    let buckets: [Double]

    public func observe(_ value: Double, _ labels: [String] = []) {
        registry.cell(name, labels)?.observe(value, buckets: buckets)
    }

    /// The series with these label values, to observe into without finding it each time.
    public func series(_ labels: [String]) -> Series {
        Series(cell: registry.cell(name, labels), buckets: buckets)
    }

    /// One labelled series of a histogram.
    public struct Series: Sendable {
        let cell: SeriesCell?
        let buckets: [Double]

        public func observe(_ value: Double) {
            cell?.observe(value, buckets: buckets)
        }
    }
}
