import HTTP
import Localization

/// The messages of the operators' desk about buyers: a banned buyer's sign-in.
enum BuyerBanMessage: String, ErrorMessage {
    case accountBanned

    var status: Status { .forbidden }
    var code: String { "account_banned" }

    var template: LocalizedText {
        switch self {
        case .accountBanned:
            LocalizedText(zh: "这个账号已被封禁，无法登录；如有疑问请联系客服。",
                          en: "This account has been banned and cannot sign in; contact customer service if you think this is wrong.")
        }
    }
}

extension HTTPError {
    init(_ message: BuyerBanMessage) {
        self.init(message.status, code: message.code, message: message.template)
    }
}
