import Foundation
import Localization
import ShopCore

/// `shop sales [--from D] [--to D] [--format table|csv|json]`: what `GET /admin/reports/sales` answers.
struct SalesCommand: Command {
    let path = ["sales"]
    let valuedOptions: Set<String> = ["from", "to", "format"]
    let summary = "sales by day in app.timezone: orders, items, paid and refunded"
    let usage = """
        Usage: shop sales [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--format table|csv|json] [--config PATH]

        One line per day from --from to --to (both included; days without sales show zeros), then
        the total. Days are calendar days in app.timezone. Without --to the range ends today;
        without --from it starts 6 days before --to; at most 366 days.
        ORDERS, ITEMS and PAID count the orders paid that day (by when they were paid, whatever
        became of them later); REFUNDED adds the refunds the provider confirmed that day, whichever
        day their order was paid. A table shows yuan; --format csv and json show cents with the
        API's names (date, orders, items, paid_cents, refunded_cents), for scripts.
        """

    enum Format: String { case table, csv, json }

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config", "from", "to", "format"])
        guard let format = Format(rawValue: arguments.option("format") ?? "table") else {
            throw UsageError(description: say(zh: "--format 必须是 table、csv 或 json", en: "--format must be table, csv or json"))
        }
        let from = try Self.day(arguments.option("from"), option: "from")
        let to = try Self.day(arguments.option("to"), option: "to")
        let config = try ShopEnvironment.config(arguments)
        let shop = try ShopEnvironment.openShop(config, logger: .silent)
        let report: SalesReport
        do {
            report = try shop.reports.sales(from: from, to: to)
        } catch let error as ValidationError {
            throw UsageError(description: error.message[.ofTerminal])
        }
        switch format {
        case .json: print(try Self.json(report))
        case .csv:
            let rows = report.days.map { Self.cells($0.date.description, $0.figures, yuan: false) }
                + [Self.cells("total", report.total, yuan: false)]
            print(CSV.render(header: ["date", "orders", "items", "paid_cents", "refunded_cents"], rows: rows), terminator: "")
        case .table:
            let header = Language.ofTerminal == .chinese ? ["日期", "订单", "件数", "实收（元）", "退款（元）"]
                                                         : ["DATE", "ORDERS", "ITEMS", "PAID (YUAN)", "REFUNDED (YUAN)"]
            let rows = report.days.map { Self.cells($0.date.description, $0.figures, yuan: true) }
                + [Self.cells(say(zh: "合计", en: "total"), report.total, yuan: true)]
            print(Table.render(header: header, rows: rows))
            print(say(zh: "\(report.from) 至 \(report.to)，按 \(config.app.timezone) 的日期统计",
                      en: "\(report.from) to \(report.to), days in \(config.app.timezone)"))
        }
        return 0
    }

    static func day(_ text: String?, option: String) throws -> CalendarDay? {
        guard let text else { return nil }
        guard let day = CalendarDay(text) else {
            throw UsageError(description: say(zh: "--\(option) 必须是 YYYY-MM-DD 格式的日期", en: "--\(option) must be a day written YYYY-MM-DD"))
        }
        return day
    }

    static func cells(_ label: String, _ figures: SalesFigures, yuan: Bool) -> [String] {
        func money(_ cents: Int64) -> String { yuan ? Money.yuan(fromCents: cents) : "\(cents)" }
        return [label, String(figures.orders), String(figures.items), money(figures.paidCents), money(figures.refundedCents)]
    }

    /// The API's body: `{"items": [...], "total": {...}}`, cents, keys sorted.
    static func json(_ report: SalesReport) throws -> String {
        func object(_ figures: SalesFigures) -> [String: Any] {
            ["orders": figures.orders, "items": figures.items, "paid_cents": figures.paidCents, "refunded_cents": figures.refundedCents]
        }
        let body: [String: Any] = [
            "from": report.from.description, "to": report.to.description,
            "items": report.days.map { object($0.figures).merging(["date": $0.date.description]) { $1 } },
            "total": object(report.total),
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys, .prettyPrinted]), as: UTF8.self)
    }
}
