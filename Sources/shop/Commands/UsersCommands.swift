import Foundation
import Localization
import ShopCore

/// `shop users ban|unban PHONE [--reason TEXT]`: what `POST /admin/users/{id}/ban|unban` does.
struct UsersBanCommand: Command {
    let ban: Bool
    var path: [String] { ["users", ban ? "ban" : "unban"] }
    var valuedOptions: Set<String> { ban ? ["reason"] : [] }
    var summary: String { ban ? "ban a buyer: their tokens stop working at once, sign-in answers account_banned" : "lift a buyer's ban" }
    var usage: String {
        ban ? """
            Usage: shop users ban PHONE [--reason TEXT] [--config PATH]

            Bans the buyer with this phone: every token they hold stops working at once (their
            signed-in requests answer 401) and signing in answers 403 account_banned until
            `shop users unban`. Banning again keeps the first ban's time and takes the new reason
            (at most 200 characters). Recorded in the audit log as cli:$USER.
            """ : """
            Usage: shop users unban PHONE [--config PATH]

            Lifts the ban: the buyer can sign in again (their old tokens stay revoked). Recorded in
            the audit log as cli:$USER.
            """
    }

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ban ? ["config", "reason"] : ["config"], positionals: 1)
        let phone = arguments.positionals[0]
        guard (try? PhoneNumber.normalize(phone)) != nil else {
            throw UsageError(description: say(zh: "PHONE 必须是中国大陆手机号（以 1 开头的 11 位数字）",
                                              en: "PHONE must be a mainland mobile number (11 digits starting with 1)"))
        }
        let config = try ShopEnvironment.config(arguments)
        let shop = try ShopEnvironment.openShop(config, logger: .silent)
        let buyer: Buyer
        do {
            buyer = ban ? try shop.buyers.ban(phone: phone, reason: arguments.option("reason") ?? "", by: Operator.actor)
                        : try shop.buyers.unban(phone: phone, by: Operator.actor)
        } catch SocialError.userNotFound {
            throw CommandFailure(description: say(zh: "没有手机号为 \(phone) 的用户", en: "no user has the phone \(phone)"))
        } catch let error as ValidationError {
            throw UsageError(description: error.message[.ofTerminal])
        }
        let name = TerminalText.escaped(buyer.nickname)
        if ban {
            let reason = TerminalText.escaped(buyer.banReason ?? "")
            print(say(zh: "已封禁 \(buyer.phone)（\(name)）\(reason.isEmpty ? "" : "，原因：\(reason)")；其登录已全部失效",
                      en: "\(buyer.phone) (\(name)) is banned\(reason.isEmpty ? "" : ": \(reason)"); their sign-ins are revoked"))
        } else {
            print(say(zh: "已解除 \(buyer.phone)（\(name)）的封禁，可以重新登录", en: "\(buyer.phone) (\(name)) is no longer banned and may sign in again"))
        }
        return 0
    }
}
