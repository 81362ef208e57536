import Foundation
import ShopCore

/// `shop notifications list [--failed]`: the newest order notices of the outbox.
struct NotificationsListCommand: Command {
    let path = ["notifications", "list"]
    let valuedOptions: Set<String> = ["limit", "format"]
    let summary = "list order notices (the outbox), newest first"
    let usage = """
        Usage: shop notifications list [--failed] [--limit N] [--format table|csv|json] [--config PATH]

        One row per message: pending (due at NEXT TRY), sending (claimed by a dispatcher), sent, or
        failed (its tries used up: see shop notifications retry). --failed lists only those.
        Times are the shop's (China time, UTC+8).
        """

    static let header = ["ID", "ORDER", "EVENT", "AUDIENCE", "TO", "STATUS", "TRIES", "NEXT TRY (UTC+8)", "SENT (UTC+8)",
                         "LAST ERROR"]

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config", "limit", "format"], flags: ["failed"])
        let format = try OutputFormat(arguments.option("format"))
        let limit = Int(arguments.option("limit") ?? "50") ?? 0
        guard (1...NoticeOutbox.maxListed).contains(limit) else {
            throw UsageError(description: say(zh: "--limit 必须是 1 到 \(NoticeOutbox.maxListed)", en: "--limit must be 1 to \(NoticeOutbox.maxListed)"))
        }
        let config = try ShopEnvironment.config(arguments)
        let shop = try ShopEnvironment.openShop(config, logger: .silent)
        let notices = try shop.noticeOutbox.list(failedOnly: arguments.flag("failed"), limit: limit)
        print(format.render(header: Self.header, rows: notices.map(Self.row)), terminator: "")
        if format == .table {
            print(say(zh: "共 \(notices.count) 条通知", en: "\(notices.count) notice\(notices.count == 1 ? "" : "s")"))
        }
        return 0
    }

    static func row(_ notice: Notice) -> [String] {
        [notice.id.description, notice.orderNumber, notice.event.rawValue, notice.audience.rawValue, notice.to,
         notice.status.rawValue, String(notice.attempts),
         notice.status == .pending ? ShopTime.minute(notice.nextAttemptAt) : "", notice.sentAt.map(ShopTime.minute) ?? "",
         notice.lastError ?? ""]
    }
}

/// `shop notifications retry ID`: a failed notice due again now.
struct NotificationsRetryCommand: Command {
    let path = ["notifications", "retry"]
    let valuedOptions: Set<String> = ["format"]
    let summary = "send a failed order notice again (its tries counted afresh)"
    let usage = """
        Usage: shop notifications retry ID [--format table|csv|json] [--config PATH]

        Makes the notice due now with its tries counted from zero; a running shop serve sends it
        within seconds. A notice already sent is never sent again (exit 1). Recorded in the audit
        log as cli:$USER.
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config", "format"], positionals: 1)
        let format = try OutputFormat(arguments.option("format"))
        guard let raw = Int64(arguments.positionals[0]), raw > 0 else {
            throw UsageError(description: say(zh: "ID 必须是通知的编号（见 shop notifications list）",
                                              en: "ID must be a notice's number (see shop notifications list)"))
        }
        let config = try ShopEnvironment.config(arguments)
        let shop = try ShopEnvironment.openShop(config, logger: .silent)
        let notice: Notice
        do {
            notice = try shop.noticeOutbox.retry(NoticeID(raw), by: Operator.actor)
        } catch NoticeError.notFound {
            throw CommandFailure(description: say(zh: "没有编号为 \(raw) 的通知", en: "no notice numbered \(raw)"))
        } catch NoticeError.notRetryable(let status) {
            throw CommandFailure(description: say(zh: "通知 \(raw) 的状态是 \(status.rawValue)，不能重发",
                                                  en: "notice \(raw) is \(status.rawValue): it cannot be retried"))
        }
        print(format.render(header: NotificationsListCommand.header, rows: [NotificationsListCommand.row(notice)]), terminator: "")
        return 0
    }
}
