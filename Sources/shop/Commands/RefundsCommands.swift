import Foundation
import ShopCore

/// `shop refunds list [--status S]`: the newest refunds as a table.
struct RefundsListCommand: Command {
    let path = ["refunds", "list"]
    let valuedOptions: Set<String> = ["status", "limit"]
    let summary = "list refunds as a table, newest first"
    let usage = """
        Usage: shop refunds list [--status pending|requested|refunded|failed] [--limit N] [--config PATH]

        pending: to be requested (again, after LAST ERROR); requested: the provider took it and its
        confirmation is awaited; refunded: confirmed; failed: the provider refused it for good.
        Times are the shop's (China time, UTC+8).
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config", "status", "limit"])
        var status: RefundStatus?
        if let text = arguments.option("status") {
            guard let value = RefundStatus(rawValue: text) else {
                throw UsageError(description: say(zh: "--status 必须是以下之一：", en: "--status must be one of ")
                                 + RefundStatus.allCases.map(\.rawValue).joined(separator: ", "))
            }
            status = value
        }
        let limit = Int(arguments.option("limit") ?? "50") ?? 0
        guard (1...500).contains(limit) else { throw UsageError(description: say(zh: "--limit 必须是 1 到 500", en: "--limit must be 1 to 500")) }
        let config = try ShopEnvironment.config(arguments)
        let shop = try ShopEnvironment.openShop(config, logger: .silent)
        let refunds = try shop.payments.refunds(status: status, limit: limit)
        print(Table.render(header: ["NUMBER", "ORDER", "PROVIDER", "AMOUNT", "STATUS", "TRIES", "CREATED (UTC+8)", "LAST ERROR"],
                           rows: refunds.map(Self.row)))
        print(say(zh: "共 \(refunds.count) 笔退款", en: "\(refunds.count) refund\(refunds.count == 1 ? "" : "s")"))
        return 0
    }

    static func row(_ refund: Refund) -> [String] {
        [refund.number, refund.orderNumber, refund.provider.rawValue, Money.yuan(fromCents: refund.amountCents),
         refund.status.rawValue, String(refund.attempts), ShopTime.minute(refund.createdAt), refund.lastError ?? ""]
    }
}

/// `shop refunds retry NUMBER`: sends one refund to its provider now.
struct RefundsRetryCommand: Command {
    let path = ["refunds", "retry"]
    let valuedOptions: Set<String> = []
    let summary = "send one refund to its provider now (a failed one too)"
    let usage = """
        Usage: shop refunds retry NUMBER [--config PATH]

        Requests (or, once requested, confirms) the refund now instead of at its next scheduled
        try, with the same refund number, so the provider refunds it at most once. Prints the
        refund afterwards; exits 1 unless it is refunded or requested.
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config"], positionals: 1)
        let config = try ShopEnvironment.config(arguments)
        let shop = try ShopEnvironment.openShop(config, logger: .silent)
        let number = arguments.positionals[0]
        guard let refund = try shop.payments.retryRefund(number: number) else {
            // An order number where a refund number belongs: name the order's refunds instead.
            let ofOrder = try shop.payments.refunds(status: nil, limit: 100_000).filter { $0.orderNumber == number }
            if !ofOrder.isEmpty {
                let numbers = ofOrder.map(\.number).joined(separator: ", ")
                throw CommandFailure(description: say(zh: "\(number) 是订单号，不是退款号；它的退款：\(numbers)（shop refunds retry \(ofOrder[0].number)）",
                                                      en: "\(number) is an order number, not a refund number; its refunds: \(numbers) (shop refunds retry \(ofOrder[0].number))"))
            }
            if (try? shop.orders.order(number: number)) != nil {
                throw CommandFailure(description: say(zh: "\(number) 是订单号，不是退款号；这个订单没有退款",
                                                      en: "\(number) is an order number, not a refund number; that order has no refunds"))
            }
            throw CommandFailure(description: say(zh: "没有退款号为 \(number) 的退款（退款号以 R 开头，见 shop refunds list）",
                                                  en: "no refund numbered \(number) (refund numbers start with R: see shop refunds list)"))
        }
        print(Table.render(header: ["NUMBER", "ORDER", "PROVIDER", "AMOUNT", "STATUS", "TRIES", "CREATED (UTC+8)", "LAST ERROR"],
                           rows: [RefundsListCommand.row(refund)]))
        return refund.status == .refunded || refund.status == .requested ? 0 : 1
    }
}
