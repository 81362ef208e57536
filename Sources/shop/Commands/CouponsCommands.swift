import Foundation
import Localization
import ShopCore

/// `shop coupons create CODE ...`: a new coupon.
struct CouponsCreateCommand: Command {
    let path = ["coupons", "create"]
    let valuedOptions: Set<String> = ["percent-off", "amount-off", "min-spend", "starts", "ends", "max-uses", "per-user",
                                      "category", "description"]
    let summary = "create a coupon (percent or amount off, limits, dates, category)"
    let usage = """
        Usage: shop coupons create CODE (--percent-off N | --amount-off YUAN) [--min-spend YUAN]
                                   [--starts TIME] [--ends TIME] [--max-uses N] [--per-user N]
                                   [--category PATH] [--description TEXT] [--config PATH]

        CODE: 3 to 32 letters, digits, - or _; buyers may type it in any case.
        --percent-off N (1 to 99) takes floor(eligible × N / 100) cents; --amount-off YUAN takes that
        much, never more than the eligible lines cost. The eligible lines are all of them, or with
        --category PATH (花束/玫瑰) those of that category and the categories under it; --min-spend
        is compared with what they cost. No discount leaves an order below 0.01 yuan.
        TIME: 2026-12-01 (China time; --ends means the end of that day), 2026-12-01 18:00 (China
        time) or RFC 3339 (2026-12-01T10:00:00Z). --max-uses counts orders across all buyers,
        --per-user orders per buyer; an order cancelled before it ships gives its use back.
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: valuedOptions.union(["config"]), positionals: 1)
        let rule: CouponRule
        switch (arguments.option("percent-off"), arguments.option("amount-off")) {
        case (let percent?, nil):
            guard let value = Int(percent), CouponService.percentRange.contains(value) else {
                throw UsageError(description: say(zh: "--percent-off 必须是 1 到 99 的整数", en: "--percent-off must be a whole number from 1 to 99"))
            }
            rule = .percentOff(value)
        case (nil, let amount?):
            guard let cents = Money.cents(fromYuan: amount), cents > 0 else {
                throw UsageError(description: say(zh: "--amount-off 必须是大于 0、最多两位小数的元金额，如 20 或 19.90",
                                                  en: "--amount-off must be an amount of yuan above 0 with at most 2 decimals, e.g. 20 or 19.90"))
            }
            rule = .amountOff(cents: cents)
        default:
            throw UsageError(description: say(zh: "--percent-off N 和 --amount-off YUAN 必须且只能给一个", en: "give exactly one of --percent-off N or --amount-off YUAN"))
        }
        var minSpend: Int64 = 0
        if let text = arguments.option("min-spend") {
            guard let cents = Money.cents(fromYuan: text) else {
                throw UsageError(description: say(zh: "--min-spend 必须是最多两位小数的元金额，如 100 或 99.90",
                                                  en: "--min-spend must be an amount of yuan with at most 2 decimals, e.g. 100 or 99.90"))
            }
            minSpend = cents
        }
        let new = NewCoupon(
            code: arguments.positionals[0], rule: rule, description: arguments.option("description"), minSpendCents: minSpend,
            startsAt: try arguments.option("starts").map { try Self.time($0, option: "starts", endOfDay: false) },
            endsAt: try arguments.option("ends").map { try Self.time($0, option: "ends", endOfDay: true) },
            maxUses: try Self.count(arguments.option("max-uses"), option: "max-uses"),
            perUserLimit: try Self.count(arguments.option("per-user"), option: "per-user"),
            categoryPath: arguments.option("category"))
        let config = try ShopEnvironment.config(arguments)
        let shop = try ShopEnvironment.openShop(config, logger: .silent)
        let coupon = try CouponsFailure.reporting { try shop.coupons.create(new, by: Operator.actor) }
        print(CouponsListCommand.table([coupon], now: shop.clock.now))
        return 0
    }

    static func count(_ text: String?, option: String) throws -> Int? {
        guard let text else { return nil }
        guard let value = Int(text), value > 0 else { throw UsageError(description: say(zh: "--\(option) 必须是大于 0 的整数", en: "--\(option) must be a whole number above 0")) }
        return value
    }

    /// `2026-12-01`, `2026-12-01 18:00` (China time) or RFC 3339.
    static func time(_ text: String, option: String, endOfDay: Bool) throws -> Date {
        let iso = ISO8601DateFormatter()
        if let date = iso.date(from: text) { return date }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = ShopTime.zone
        formatter.calendar = ShopTime.calendar
        formatter.isLenient = false
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        if text.count == 16, let date = formatter.date(from: text) { return date }
        formatter.dateFormat = "yyyy-MM-dd"
        if text.count == 10, let date = formatter.date(from: text) {
            return endOfDay ? date.addingTimeInterval(86_400) : date
        }
        throw UsageError(description: say(zh: "--\(option) 必须是日期（2026-12-01）、北京时间（2026-12-01 18:00）或 RFC 3339",
                                          en: "--\(option) must be a date (2026-12-01), a China time (2026-12-01 18:00) or RFC 3339"))
    }
}

/// `shop coupons list`: every coupon with its rule, limits, uses and state.
struct CouponsListCommand: Command {
    let path = ["coupons", "list"]
    let valuedOptions: Set<String> = ["limit"]
    let summary = "list coupons as a table, newest first"
    let usage = """
        Usage: shop coupons list [--limit N] [--config PATH]

        STATE is active, scheduled (not started), expired, used_up or disabled. USES counts orders
        holding a use (cancelled ones gave theirs back). Times are China time (UTC+8).
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config", "limit"])
        let limit = Int(arguments.option("limit") ?? "200") ?? 0
        guard (1...1_000).contains(limit) else { throw UsageError(description: say(zh: "--limit 必须是 1 到 1000", en: "--limit must be 1 to 1000")) }
        let config = try ShopEnvironment.config(arguments)
        let shop = try ShopEnvironment.openShop(config, logger: .silent)
        let coupons = try shop.coupons.list(limit: limit)
        print(Self.table(coupons, now: shop.clock.now))
        print(say(zh: "共 \(coupons.count) 张优惠券", en: "\(coupons.count) coupon\(coupons.count == 1 ? "" : "s")"))
        return 0
    }

    static func table(_ coupons: [Coupon], now: Date) -> String {
        let rows = coupons.map { coupon -> [String] in
            let rule = switch coupon.rule {
            case .percentOff(let percent): "\(percent)% off"
            case .amountOff(let cents): "\(Money.yuan(fromCents: cents)) off"
            }
            return [coupon.code, rule, coupon.minSpendCents > 0 ? Money.yuan(fromCents: coupon.minSpendCents) : "",
                    coupon.startsAt.map(ShopTime.minute) ?? "", coupon.endsAt.map(ShopTime.minute) ?? "",
                    "\(coupon.uses)/\(coupon.maxUses.map(String.init) ?? "∞")", coupon.perUserLimit.map(String.init) ?? "",
                    coupon.categoryPath ?? "", coupon.state(at: now), coupon.description]
        }
        return Table.render(header: ["CODE", "RULE", "MIN SPEND", "STARTS", "ENDS", "USES", "PER USER", "CATEGORY", "STATE",
                                     "DESCRIPTION"], rows: rows)
    }
}

/// `shop coupons disable CODE`: no new uses from now on.
struct CouponsDisableCommand: Command {
    let path = ["coupons", "disable"]
    let summary = "stop new uses of a coupon (orders that used it keep it)"
    let usage = """
        Usage: shop coupons disable CODE [--config PATH]

        Checkouts and carts refuse the code from now on (422 coupon_invalid); orders that already
        used it keep their discount. Disabling it again changes nothing.
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config"], positionals: 1)
        let config = try ShopEnvironment.config(arguments)
        let shop = try ShopEnvironment.openShop(config, logger: .silent)
        let coupon = try CouponsFailure.reporting { try shop.coupons.disable(code: arguments.positionals[0], by: Operator.actor) }
        print(CouponsListCommand.table([coupon], now: shop.clock.now))
        return 0
    }
}

/// Coupon errors worded for an operator (exit 1).
enum CouponsFailure {
    static func reporting<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ValidationError {
            throw CommandFailure(description: error.message[.ofTerminal])
        } catch let error as CouponError {
            switch error {
            case .codeTaken(let code): throw CommandFailure(description: say(zh: "券码 \(code) 已存在", en: "a coupon with the code \(code) exists already"))
            case .unknownCategory(let path): throw CommandFailure(description: say(zh: "没有路径为 \(path) 的分类", en: "no category has the path \(path)"))
            case .notFound(let code), .unknown(let code): throw CommandFailure(description: say(zh: "没有券码为 \(code) 的优惠券", en: "no coupon has the code \(code)"))
            default: throw CommandFailure(description: "\(error)")
            }
        }
    }
}
