import Foundation
import ShopCore

/// `shop orders list [--status S]`: a table of the newest orders.
struct OrdersListCommand: Command {
    let path = ["orders", "list"]
    let valuedOptions: Set<String> = ["status", "limit"]
    let summary = "list orders as a table, newest first"
    let usage = """
        Usage: shop orders list [--status pending_payment|paid|shipped|completed|cancelled] [--limit N] [--config PATH]

        Times are the shop's (China time, UTC+8), like the day in an order number.
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config", "status", "limit"])
        var status: OrderStatus?
        if let text = arguments.option("status") {
            guard let value = OrderStatus(rawValue: text) else {
                throw UsageError(description: "--status must be one of \(OrderStatus.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            status = value
        }
        let limit = Int(arguments.option("limit") ?? "50") ?? 0
        guard (1...100).contains(limit) else { throw UsageError(description: "--limit must be 1 to 100") }
        let config = try ShopEnvironment.config(arguments)
        let shop = try ShopEnvironment.openShop(config, logger: .silent)
        let page = try shop.orders.allOrders(status: status, page: try PageRequest(page: 1, perPage: limit))
        let rows = page.items.map { order in
            [order.number, order.status.rawValue, Money.yuan(fromCents: order.totalCents),
             String(order.items.reduce(0) { $0 + $1.quantity }), order.address.recipient,
             ShopTime.minute(order.createdAt), order.shipment.map { "\($0.carrier) \($0.trackingNumber)" } ?? ""]
        }
        print(Table.render(header: ["NUMBER", "STATUS", "TOTAL", "ITEMS", "RECIPIENT", "CREATED (UTC+8)", "SHIPMENT"], rows: rows))
        print("\(page.items.count) of \(page.total) order\(page.total == 1 ? "" : "s")")
        return 0
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
            throw CommandFailure(description: "no order numbered \(number)")
        }
        print(Self.render(order))
        return 0
    }

    static func render(_ order: Order) -> String {
        let a = order.address
        var lines = [
            "Order \(order.number)   \(order.status.rawValue)   total ¥\(Money.yuan(fromCents: order.totalCents))",
            "",
            Table.render(header: ["ITEM", "SKU", "QTY", "PRICE", "SUBTOTAL"], rows: order.items.map { item in
                [item.title, item.skuName, String(item.quantity), Money.yuan(fromCents: item.priceCents),
                 Money.yuan(fromCents: item.priceCents * Int64(item.quantity))]
            }),
            "",
            "Recipient  \(a.recipient)",
            "Phone      \(a.phone)",
            "Address    \(a.province)\(a.city == a.province ? "" : a.city)\(a.district)\(a.detail)"
                + (a.postalCode.map { "  (\($0))" } ?? ""),
            "Note       \(order.note.isEmpty ? "-" : order.note)",
            "",
            "Placed     \(ShopTime.minute(order.createdAt))  (UTC+8)",
        ]
        if order.status == .pendingPayment { lines.append("Pay by     \(ShopTime.minute(order.payDeadline))") }
        if let at = order.paidAt { lines.append("Paid       \(ShopTime.minute(at))") }
        if let at = order.shippedAt {
            lines.append("Shipped    \(ShopTime.minute(at))" + (order.shipment.map { "  \($0.carrier) \($0.trackingNumber)" } ?? ""))
        }
        if let at = order.completedAt { lines.append("Completed  \(ShopTime.minute(at))") }
        if let at = order.cancelledAt { lines.append("Cancelled  \(ShopTime.minute(at))") }
        return lines.joined(separator: "\n")
    }
}

/// `shop orders ship NUMBER --carrier NAME --tracking NO`: ships a paid order.
struct OrdersShipCommand: Command {
    let path = ["orders", "ship"]
    let valuedOptions: Set<String> = ["carrier", "tracking"]
    let summary = "mark a paid order shipped with its carrier and tracking number"
    let usage = """
        Usage: shop orders ship NUMBER --carrier NAME --tracking NO [--config PATH]

        Only a paid order can be shipped; the buyer then sees the carrier and tracking number.
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config", "carrier", "tracking"], positionals: 1)
        guard let carrier = arguments.option("carrier"), let tracking = arguments.option("tracking") else {
            throw UsageError(description: "--carrier and --tracking are required")
        }
        let config = try ShopEnvironment.config(arguments)
        let shop = try ShopEnvironment.openShop(config, logger: .silent)
        do {
            let order = try shop.orders.ship(number: arguments.positionals[0], carrier: carrier, trackingNumber: tracking)
            print("order \(order.number) shipped with \(carrier) \(tracking)")
            return 0
        } catch OrderError.notFound {
            throw CommandFailure(description: "no order numbered \(arguments.positionals[0])")
        } catch OrderError.stateConflict(let current, _) {
            throw CommandFailure(description: "order \(arguments.positionals[0]) is \(current.rawValue); only a paid order can be shipped")
        } catch let error as ValidationError {
            throw CommandFailure(description: error.message.en)
        }
    }
}

/// Plain-text tables for the terminal, aligned by display width (CJK characters count double).
enum Table {
    static func render(header: [String], rows: [[String]]) -> String {
        let all = [header] + rows
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
