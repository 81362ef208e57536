import Foundation
import Localization
import ShopCore

/// What the desk's order commands share: how they print an order or a refund, and the messages
/// of the order errors they meet. They act as `Operator.actor` (`cli:<user>` in the audit log).
enum OrderDeskCLI {
    /// One record: a one-line table under its header, one CSV record, or a one-object JSON array.
    static func print(_ fields: [(String, String)], _ format: OutputFormat) {
        Swift.print(format.render(header: fields.map { $0.0.uppercased().replacingOccurrences(of: "_", with: " ") },
                                  rows: [fields.map(\.1)]), terminator: "")
    }

    static func orderFields(_ order: Order) -> [(String, String)] {
        [("number", order.number), ("status", order.status.rawValue), ("total", Money.yuan(fromCents: order.totalCents)),
         ("refund", order.refund.map { "\(Money.yuan(fromCents: $0.amountCents)) \($0.status.rawValue)" } ?? ""),
         ("delivery_photo_url", order.deliveryPhotoURL ?? "")]
    }

    /// Runs `body`, turning the order errors an operator meets into their messages (exit 1).
    /// `action` says what could not be done (`取消` / `cancelled`).
    static func failing<T>(_ number: String, action: LocalizedText, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch OrderError.notFound {
            throw CommandFailure(description: say(zh: "没有订单号为 \(number) 的订单", en: "no order numbered \(number)"))
        } catch OrderError.stateConflict(let current, _) {
            throw CommandFailure(description: say(zh: "订单 \(number) 的状态是\(current.displayName.zh)，不能\(action.zh)",
                                                  en: "order \(number) is \(current.rawValue): it cannot be \(action.en)"))
        } catch OrderError.refundExceedsPaid(let available) {
            throw CommandFailure(description: say(zh: "退款总额不能超过实付金额：这个订单最多还能退 \(Money.yuan(fromCents: available)) 元",
                                                  en: "refunds cannot exceed what was paid: at most \(Money.yuan(fromCents: available)) yuan is left to refund"))
        } catch let error as ValidationError {
            throw CommandFailure(description: error.message[.ofTerminal])
        }
    }
}

/// `shop orders cancel NUMBER --reason TEXT`: the shop cancels an order that has not shipped.
struct OrdersCancelCommand: Command {
    let path = ["orders", "cancel"]
    let valuedOptions: Set<String> = ["reason", "format"]
    let summary = "cancel an order that has not shipped (a paid one is refunded in full)"
    let usage = """
        Usage: shop orders cancel NUMBER --reason TEXT [--format table|csv|json] [--config PATH]

        An unpaid order is cancelled; a paid one that has not shipped goes to refunding and what is
        left of its payment is sent back through its provider now (exactly as when its buyer
        cancels). The stock and the coupon's use come back. Recorded in the audit log as cli:$USER.
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config", "reason", "format"], positionals: 1)
        guard let reason = arguments.option("reason") else {
            throw UsageError(description: say(zh: "需要 --reason", en: "--reason is required"))
        }
        let format = try OutputFormat(arguments.option("format"))
        let shop = try ShopEnvironment.openShop(try ShopEnvironment.config(arguments), logger: .silent)
        let number = arguments.positionals[0]
        var order = try OrderDeskCLI.failing(number, action: LocalizedText(zh: "取消", en: "cancelled")) {
            try shop.orders.cancel(number: number, reason: reason, by: Operator.actor)
        }
        if order.status == .refunding {
            // the refund goes out now; a provider that cannot take it is retried by `shop serve`'s sweeper
            try shop.payments.processRefunds(order: order.id)
            order = try shop.orders.order(number: number)
        }
        OrderDeskCLI.print(OrderDeskCLI.orderFields(order), format)
        return 0
    }
}

/// `shop orders refund NUMBER --amount YUAN --reason TEXT`: gives back part or all of a paid order.
struct OrdersRefundCommand: Command {
    let path = ["orders", "refund"]
    let valuedOptions: Set<String> = ["amount", "reason", "format"]
    let summary = "refund part or all of a paid order through its payment provider"
    let usage = """
        Usage: shop orders refund NUMBER --amount YUAN --reason TEXT [--format table|csv|json] [--config PATH]

        For a paid, shipped, delivered or completed order (its status stays). The refunds of an order
        never add up to more than it paid. The refund gets its own number (R<order>-<payment>-<n>),
        sent on every try, and goes to the provider now; see shop refunds list. Recorded in the audit
        log as cli:$USER.
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config", "amount", "reason", "format"], positionals: 1)
        guard let amount = arguments.option("amount"), let reason = arguments.option("reason") else {
            throw UsageError(description: say(zh: "需要 --amount 和 --reason", en: "--amount and --reason are required"))
        }
        guard let cents = Money.cents(fromYuan: amount), cents > 0 else {
            throw UsageError(description: say(zh: "--amount 必须是大于 0、最多两位小数的元金额，如 20 或 19.90",
                                              en: "--amount must be an amount of yuan above 0 with at most 2 decimals, e.g. 20 or 19.90"))
        }
        let format = try OutputFormat(arguments.option("format"))
        let shop = try ShopEnvironment.openShop(try ShopEnvironment.config(arguments), logger: .silent)
        let number = arguments.positionals[0]
        let opened = try OrderDeskCLI.failing(number, action: LocalizedText(zh: "退款", en: "refunded")) {
            try shop.orders.refund(number: number, amountCents: cents, reason: reason, by: Operator.actor)
        }
        try shop.payments.processRefunds(order: opened.orderID)
        let refund = try shop.payments.refunds(order: opened.orderID).first { $0.number == opened.number } ?? opened
        OrderDeskCLI.print([("refund", refund.number), ("order", refund.orderNumber), ("provider", refund.provider.rawValue),
                                ("amount", Money.yuan(fromCents: refund.amountCents)), ("status", refund.status.rawValue),
                                ("last_error", refund.lastError ?? "")], format)
        return 0
    }
}

/// `shop orders deliver NUMBER [--photo-url /media/...]`: records a shipped order delivered.
struct OrdersDeliverCommand: Command {
    let path = ["orders", "deliver"]
    let valuedOptions: Set<String> = ["photo-url", "format"]
    let summary = "record a shipped order delivered, with the photo taken at the door"
    let usage = """
        Usage: shop orders deliver NUMBER [--photo-url /media/PATH] [--format table|csv|json] [--config PATH]

        Only a shipped order can be delivered. --photo-url is a picture the shop serves (upload it with
        POST /api/v1/media). Recorded in the audit log as cli:$USER.
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config", "photo-url", "format"], positionals: 1)
        let format = try OutputFormat(arguments.option("format"))
        let shop = try ShopEnvironment.openShop(try ShopEnvironment.config(arguments), logger: .silent)
        let number = arguments.positionals[0]
        let order = try OrderDeskCLI.failing(number, action: LocalizedText(zh: "登记送达", en: "delivered")) {
            try shop.orders.deliver(number: number, photoURL: arguments.option("photo-url"), by: Operator.actor)
        }
        OrderDeskCLI.print(OrderDeskCLI.orderFields(order), format)
        return 0
    }
}
