import Foundation
import Localization
import ShopCore

/// `shop orders list [--status S] [--delivery-date D] [--format csv]`: a table of the newest orders,
/// or the florist's worklist for one delivery day, with the greeting cards.
struct OrdersListCommand: Command {
    let path = ["orders", "list"]
    let valuedOptions: Set<String> = ["status", "limit", "delivery-date", "format", "lang"]
    let summary = "list orders as a table, newest first; --delivery-date D: the florist's worklist for a day"
    let usage = """
        Usage: shop orders list [--status pending_payment|paid|shipped|delivered|completed|cancelled|refunding|refunded]
                                [--limit N] [--delivery-date YYYY-MM-DD] [--format table|csv] [--lang zh|en]
                                [--config PATH]

        Times are the shop's (China time, UTC+8), like the day in an order number.

        --delivery-date D lists the orders to deliver on day D (in app.timezone): by slot (morning,
        afternoon, evening, then any time), each with its recipient, phone, address, items and greeting
        card. Without --status it lists the orders to make (paid, shipped, delivered, completed), not unpaid or
        cancelled ones; --limit defaults to all of them (at most 10000).
        --format csv prints the same as CSV (UTF-8 with a byte order mark, so Excel in Chinese opens
        it right; RFC 4180, a header line, CRLF) for a spreadsheet or printer; a cell a spreadsheet
        would read as a formula (=, +, -, @, their full-width forms, or any of them behind invisible
        characters) starts with an apostrophe.
        --lang zh gives Chinese headers and values (statuses, 上午 for morning, 不限 for any time);
        --lang en English. Without it a table follows LANG and CSV is English (what scripts read).
        """

    enum Format: String { case table, csv }

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config", "status", "limit", "delivery-date", "format", "lang"])
        var status: OrderStatus?
        if let text = arguments.option("status") {
            guard let value = OrderStatus(rawValue: text) else {
                throw UsageError(description: say(zh: "--status 必须是以下之一：", en: "--status must be one of ")
                                 + OrderStatus.allCases.map(\.rawValue).joined(separator: ", "))
            }
            status = value
        }
        guard let format = Format(rawValue: arguments.option("format") ?? "table") else {
            throw UsageError(description: say(zh: "--format 必须是 table 或 csv", en: "--format must be table or csv"))
        }
        let language: Language
        switch arguments.option("lang") {
        case nil: language = format == .csv ? .english : .ofTerminal
        case "zh"?: language = .chinese
        case "en"?: language = .english
        default: throw UsageError(description: say(zh: "--lang 必须是 zh 或 en", en: "--lang must be zh or en"))
        }
        var day: CalendarDay?
        if let text = arguments.option("delivery-date") {
            guard let value = CalendarDay(text) else {
                throw UsageError(description: say(zh: "--delivery-date 必须是 YYYY-MM-DD 格式的日期", en: "--delivery-date must be a day written YYYY-MM-DD"))
            }
            day = value
        }
        let maxLimit = day == nil ? 100 : 10_000
        let limit = Int(arguments.option("limit") ?? String(day == nil ? 50 : maxLimit)) ?? 0
        guard (1...maxLimit).contains(limit) else {
            throw UsageError(description: say(zh: "--limit 必须是 1 到 \(maxLimit)", en: "--limit must be 1 to \(maxLimit)"))
        }
        let config = try ShopEnvironment.config(arguments)
        let shop = try ShopEnvironment.openShop(config, logger: .silent)
        if let day {
            let orders = try shop.orders.toDeliver(on: day, statuses: status.map { [$0] }, limit: limit)
            let (header, rows) = Worklist.rows(orders, format: format, language: language)
            switch format {
            case .csv: print(CSV.render(header: header, rows: rows), terminator: "")
            case .table:
                print(Table.render(header: header, rows: rows))
                print(LocalizedText(zh: "\(day) 要配送 \(orders.count) 个订单",
                                    en: "\(orders.count) order\(orders.count == 1 ? "" : "s") to deliver on \(day)")[language])
            }
            return 0
        }
        let page = try shop.orders.allOrders(status: status, page: try PageRequest(page: 1, perPage: limit))
        let rows = page.items.map { order in
            [order.number, Worklist.status(order.status, language), Money.yuan(fromCents: order.totalCents),
             String(order.items.reduce(0) { $0 + $1.quantity }), order.address.recipient,
             ShopTime.minute(order.createdAt), order.shipment.map { "\($0.carrier) \($0.trackingNumber)" } ?? ""]
        }
        let header = language == .chinese ? ["订单号", "状态", "金额", "件数", "收花人", "下单时间（UTC+8）", "物流"]
                                           : ["NUMBER", "STATUS", "TOTAL", "ITEMS", "RECIPIENT", "CREATED (UTC+8)", "SHIPMENT"]
        if format == .csv {
            print(CSV.render(header: header, rows: rows), terminator: "")
            return 0
        }
        print(Table.render(header: header, rows: rows))
        print(LocalizedText(zh: "共 \(page.total) 个订单，显示 \(page.items.count) 个",
                            en: "\(page.items.count) of \(page.total) order\(page.total == 1 ? "" : "s")")[language])
        return 0
    }
}

/// The florist's worklist: one line per order to deliver, with what goes on the card.
enum Worklist {
    static func rows(_ orders: [Order], format: OrdersListCommand.Format, language: Language = .english)
        -> (header: [String], rows: [[String]]) {
        let header = language == .chinese
            ? ["订单号", "状态", "配送日期", "配送时段", "收花人", "电话", "地址", "商品", "贺卡内容", "贺卡署名", "备注"]
            : ["number", "status", "delivery_date", "delivery_slot", "recipient", "phone", "address", "items",
               "card_message", "card_signature", "note"]
        let rows = orders.map { order in
            let a = order.address
            let items = order.items.map { "\($0.title) \($0.skuName) x\($0.quantity)" }.joined(separator: "; ")
            var cells = [order.number, status(order.status, language), order.delivery.date?.description ?? "",
                         slot(order.delivery.slot, language), a.recipient, a.phone,
                         "\(a.province)\(a.city == a.province ? "" : a.city)\(a.district)\(a.detail)", items,
                         order.delivery.cardMessage ?? "", order.delivery.cardSignature ?? "", order.note]
            // a terminal table shows each order on one line
            if format == .table { cells = cells.map { $0.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " ") } }
            return cells
        }
        return (format == .table ? header.map { $0.uppercased() } : header, rows)
    }

    /// An order's status as the florist reads it: the wire value in English, the word in Chinese.
    static func status(_ status: OrderStatus, _ language: Language) -> String {
        status.displayName[language]
    }

    /// A delivery slot; no slot is `any` (不限).
    static func slot(_ slot: DeliverySlot?, _ language: Language) -> String {
        guard language == .chinese else { return slot?.rawValue ?? "any" }
        return switch slot {
        case .morning?: "上午"
        case .afternoon?: "下午"
        case .evening?: "晚上"
        case nil: "不限"
        }
    }
}

/// CSV as RFC 4180 writes it, UTF-8 behind a byte order mark (without it Excel in Chinese reads the
/// bytes as GBK and garbles every name): CRLF line ends, a field quoted when it holds a comma, quote, CR or LF,
/// quotes doubled. A field a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR first)
/// gets a leading apostrophe: card messages are typed by buyers and opened by the florist.
enum CSV {
    static func render(header: [String], rows: [[String]]) -> String {
        "\u{FEFF}" + ([header] + rows).map { $0.map(field).joined(separator: ",") + "\r\n" }.joined()
    }

    static func field(_ value: String) -> String {
        var text = value
        if startsLikeAFormula(text) { text = "'" + text }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Whether a spreadsheet could read `text` as a formula: its first character that is not
    /// invisible (a format character such as U+200B, or a blank) is one that starts a formula,
    /// after NFKC, since spreadsheets read full-width `＝` and small `﹦` as `=`. Tab and CR count
    /// themselves.
    static func startsLikeAFormula(_ text: String) -> Bool {
        let starters: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]
        for scalar in text.precomposedStringWithCompatibilityMapping.unicodeScalars {
            if starters.contains(scalar) { return true }
            guard scalar.properties.generalCategory == .format || scalar.properties.isWhitespace else { return false }
        }
        return false
    }
}

/// `shop orders show NUMBER`: everything a packer needs for one order.
struct OrdersShowCommand: Command {
    let path = ["orders", "show"]
    let valuedOptions: Set<String> = []
    let summary = "show one order: items, recipient, phone, address, note, times"
    let usage = """
        Usage: shop orders show NUMBER [--config PATH]

        Prints the order's items (product and SKU names, quantities, prices), the recipient, their
        phone, the full address, the buyer's note, the status and its times (China time, UTC+8).
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config"], positionals: 1)
        let config = try ShopEnvironment.config(arguments)
        let shop = try ShopEnvironment.openShop(config, logger: .silent)
        let number = arguments.positionals[0]
        let order: Order
        do {
            order = try shop.orders.order(number: number)
        } catch OrderError.notFound {
            throw CommandFailure(description: say(zh: "没有订单号为 \(number) 的订单", en: "no order numbered \(number)"))
        }
        print(Self.render(order))
        return 0
    }

    /// The order as text; everything a buyer typed has its control characters escaped, a line
    /// feed in the note or the card continuing under its first line.
    static func render(_ order: Order) -> String {
        let a = order.address
        let text = { (value: String) in TerminalText.escaped(value, newline: "\n           ") }
        var lines = [
            "Order \(order.number)   \(order.status.rawValue)   total ¥\(Money.yuan(fromCents: order.totalCents))",
            "",
            Table.render(header: ["ITEM", "SKU", "QTY", "PRICE", "SUBTOTAL"], rows: order.items.map { item in
                [item.title, item.skuName, String(item.quantity), Money.yuan(fromCents: item.priceCents),
                 Money.yuan(fromCents: item.priceCents * Int64(item.quantity))]
            }),
            "",
            "Recipient  \(text(a.recipient))",
            "Phone      \(text(a.phone))",
            "Address    " + text("\(a.province)\(a.city == a.province ? "" : a.city)\(a.district)\(a.detail)")
                + (a.postalCode.map { "  (\(text($0)))" } ?? ""),
            "Note       \(order.note.isEmpty ? "-" : text(order.note))",
            "Delivery   \(order.delivery.date?.description ?? "-")  \(order.delivery.slot?.rawValue ?? "any time")",
            "Card       \(order.delivery.cardMessage.map(text) ?? "-")" + (order.delivery.cardSignature.map { "  — \(text($0))" } ?? ""),
            "",
            "Placed     \(ShopTime.minute(order.createdAt))  (UTC+8)",
        ]
        if order.status == .pendingPayment { lines.append("Pay by     \(ShopTime.minute(order.payDeadline))") }
        if let at = order.paidAt { lines.append("Paid       \(ShopTime.minute(at))") }
        if let at = order.shippedAt {
            lines.append("Shipped    \(ShopTime.minute(at))" + (order.shipment.map { "  " + text("\($0.carrier) \($0.trackingNumber)") } ?? ""))
        }
        if let at = order.deliveredAt {
            lines.append("Delivered  \(ShopTime.minute(at))" + (order.deliveryPhotoURL.map { "  " + text($0) } ?? ""))
        }
        if let at = order.completedAt { lines.append("Completed  \(ShopTime.minute(at))") }
        if let at = order.cancelledAt { lines.append("Cancelled  \(ShopTime.minute(at))") }
        return lines.joined(separator: "\n")
    }
}

/// `shop orders ship NUMBER [--carrier NAME --tracking NO]`: ships a paid order.
struct OrdersShipCommand: Command {
    let path = ["orders", "ship"]
    let valuedOptions: Set<String> = ["carrier", "tracking"]
    let summary = "mark a paid order shipped, with its carrier and tracking number or by the shop's courier"
    let usage = """
        Usage: shop orders ship NUMBER [--carrier NAME --tracking NO] [--config PATH]

        Only a paid order can be shipped; the buyer then sees the carrier and tracking number. Give
        both or neither (the shop's own courier). Recorded in the audit log as cli:$USER.
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config", "carrier", "tracking"], positionals: 1)
        let carrier = arguments.option("carrier"), tracking = arguments.option("tracking")
        guard (carrier == nil) == (tracking == nil) else {
            throw UsageError(description: say(zh: "--carrier 和 --tracking 要么都给，要么都不给", en: "give both --carrier and --tracking, or neither"))
        }
        let config = try ShopEnvironment.config(arguments)
        let shop = try ShopEnvironment.openShop(config, logger: .silent)
        let number = arguments.positionals[0]
        let order = try OrderDeskCLI.failing(number, action: LocalizedText(zh: "发货", en: "shipped")) {
            try shop.orders.ship(number: number, carrier: carrier, trackingNumber: tracking, by: Operator.actor)
        }
        if let shipment = order.shipment {
            print(say(zh: "订单 \(order.number) 已发货：\(shipment.carrier) \(shipment.trackingNumber)",
                      en: "order \(order.number) shipped with \(shipment.carrier) \(shipment.trackingNumber)"))
        } else {
            print(say(zh: "订单 \(order.number) 已发货（商店自送）", en: "order \(order.number) shipped by the shop's own courier"))
        }
        return 0
    }
}

/// Plain-text tables for the terminal, aligned by display width (CJK characters count double);
/// control characters in a cell are escaped (see `TerminalText`).
enum Table {
    static func render(header: [String], rows: [[String]]) -> String {
        let all = ([header] + rows).map { $0.map { TerminalText.escaped($0) } }
        let widths = header.indices.map { column in all.map { width($0[column]) }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                cell + String(repeating: " ", count: widths[column] - width(cell))
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }

    static func width(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + ($1.value >= 0x1100 && ($1.value <= 0x115F || (0x2E80...0xFFEF).contains($1.value)) ? 2 : 1) }
    }
}
