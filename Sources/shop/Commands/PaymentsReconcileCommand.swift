import Foundation
import ShopCore

/// `shop payments reconcile [--since …]`: asks WeChat Pay and Alipay about unpaid orders.
struct PaymentsReconcileCommand: Command {
    let path = ["payments", "reconcile"]
    let valuedOptions: Set<String> = ["since"]
    let summary = "ask the providers about unpaid orders with a started payment; mark the paid ones paid"
    let usage = """
        Usage: shop payments reconcile [--since YYYY-MM-DD|UNIX_SECONDS] [--config PATH]

        For every unpaid order placed since the given day (China time, UTC+8; default: the last 7
        days) that has a WeChat Pay or Alipay payment started, asks the provider (orderquery /
        alipay.trade.query) whether it was paid, and marks it paid exactly as the provider's
        notification would (amount checked, counted once). Prints one line per order; exits 1 when
        a provider could not be asked about some order.
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config", "since"])
        let config = try ShopEnvironment.config(arguments)
        let shop = try ShopEnvironment.openShop(config, logger: .silent)
        let since: Int64
        if let text = arguments.option("since") {
            guard let value = Self.parseSince(text) else {
                throw UsageError(description: say(zh: "--since 必须是日期（YYYY-MM-DD，北京时间）或 Unix 秒数", en: "--since must be a day (YYYY-MM-DD, China time) or unix seconds"))
            }
            since = value
        } else {
            since = shop.clock.unixNow - 7 * 86_400
        }
        let outcomes = try shop.payments.reconcile(since: since)
        var failed = 0
        let rows = outcomes.map { outcome -> [String] in
            let result: String
            switch outcome.result {
            case .paid: result = "paid"
            case .notPaid: result = "not paid"
            case .failed(let reason):
                failed += 1
                result = "could not ask: \(reason)"
            }
            return [outcome.orderNumber, outcome.provider.rawValue, result]
        }
        print(Table.render(header: ["NUMBER", "PROVIDER", "RESULT"], rows: rows))
        let paidNow = outcomes.filter { $0.result == .paid }.count
        print(say(zh: "查询了 \(outcomes.count) 个订单，其中 \(paidNow) 个现已付款",
                  en: "\(outcomes.count) order\(outcomes.count == 1 ? "" : "s") asked about, \(paidNow) paid now"))
        return failed == 0 ? 0 : 1
    }

    /// `2026-12-01` (midnight China time) or unix seconds.
    static func parseSince(_ text: String) -> Int64? {
        if let seconds = Int64(text), seconds >= 0 { return seconds }
        let parts = text.split(separator: "-").map { Int($0) }
        guard parts.count == 3, let year = parts[0], let month = parts[1], let day = parts[2] else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month, day)
        guard let date = ShopTime.calendar.date(from: components) else { return nil }
        let back = ShopTime.calendar.dateComponents([.year, .month, .day], from: date)
        guard back.year == year, back.month == month, back.day == day else { return nil }
        return Int64(date.timeIntervalSince1970)
    }
}
