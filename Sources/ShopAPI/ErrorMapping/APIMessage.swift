import HTTP
import Localization
import ShopCore

/// Every error message the shop's API sends beyond the HTTP layer's own (`HTTPMessage`) and input
/// validation (`ValidationRule`): one case per message, with its status, stable `code`, and wording in
/// Chinese and English. The `{name}` placeholders are filled where the error is mapped.
enum APIMessage: String, ErrorMessage {
    // Accounts
    case codeCooldown, codeLimitReached, invalidCode, phoneTaken, invalidCredentials, tooManyAttempts, unauthorized
    // Catalogue
    case productNotFound, categoryNotFound, tooManySearches
    // Cart and stock
    case cartLimitExceeded, outOfStock, soldOut, skuNotFound, cartLineNotFound
    // Addresses
    case addressNotFound, addressLimitExceeded, addressRegionUnknown, addressRegionNotALeaf
    // Regions
    case regionNotFound
    // Favourites
    case favoritesLimitExceeded
    // Orders
    case idempotencyKeyRequired, idempotencyKeyReused, orderNotFound, cartEmpty, tooManyUnpaidOrders, orderStateConflict
    case refundExceedsPaid
    // After-sale
    case afterSaleNotFound, afterSaleOpen, afterSaleClosed, afterSaleDecided
    // Delivery
    case deliveryDateUnavailable, deliverySlotUnavailable, noDeliveryDay, outsideDeliveryArea, invalidZones, invalidSynonyms
    // Payments
    case unknownProvider, providerUnavailable, invalidSignature, malformedNotification, amountMismatch, unknownOrder
    case orderNotPayable, providerError, providerTimeout, providerBusy, providerCircuitOpen, paymentAttemptsExceeded
    case channelNotOffered
    // Staying up when something is slow
    case busy
    // Social
    case userNotFound, authorNotFound, articleNotFound, commentNotFound, articleCategoryNotFound, unknownArticleCategory, cannotFollowSelf
    case deleteOthersComment, changeOthersArticle, notAnAuthor, invalidReplyTo, titleTaken, invalidCursor
    case contentBlocked
    // Pictures
    case imageRequired, tooManyPixels, notAnImage, tooManyUploads
    // Staff and the operators' desk
    case forbidden, staffInvalidCredentials, usernameTaken, staffNotFound, lastOwner
    // The database, files
    case databaseUnreachable, databaseBusy, fileNotFound, documentNotDeployed

    var status: Status { entry.status }
    var code: String { entry.code }
    var template: LocalizedText { LocalizedText(zh: entry.zh, en: entry.en) }

    private var entry: (status: Status, code: String, zh: String, en: String) {
        switch self {
        case .codeCooldown:
            (.tooManyRequests, "code_cooldown", "验证码已发送，请 {seconds} 秒后再试。",
             "A code was sent recently; ask again in {seconds} seconds.")
        case .codeLimitReached:
            (.tooManyRequests, "rate_limited", "今天获取验证码的次数太多了，请稍后再试。", "Too many codes requested today; try again later.")
        case .invalidCode:
            (.unprocessableEntity, "invalid_code", "验证码错误、已过期或已使用，请重新获取。",
             "The code is wrong, expired or already used. Ask for a new one.")
        case .phoneTaken:
            (.conflict, "phone_taken", "这个手机号已经注册过了。", "This phone number already has an account.")
        case .invalidCredentials:
            (.unauthorized, "invalid_credentials", "手机号或密码错误。", "Wrong phone number or password.")
        case .tooManyAttempts:
            (.tooManyRequests, "too_many_attempts", "失败次数太多，请 {seconds} 秒后再试。",
             "Too many failed attempts; try again in {seconds} seconds.")
        case .unauthorized:
            (.unauthorized, "unauthorized", "请先登录：登录信息缺失、已过期或已失效。",
             "Sign in first: the token is missing, expired or revoked.")

        case .productNotFound:
            (.notFound, "not_found", "商品不存在或已下架。", "No such product on sale.")
        case .categoryNotFound:
            (.notFound, "not_found", "没有这个分类。", "No such category.")
        case .tooManySearches:
            (.tooManyRequests, "rate_limited", "搜索太频繁了，请 {seconds} 秒后再试。",
             "Too many searches from this address; try again in {seconds} seconds.")

        case .cartLimitExceeded:
            // The Floral client's own words for the cap: enterprise purchases go through customer service.
            (.unprocessableEntity, "cart_limit_exceeded", "亲，企业采购请联系我们客服",
             "Buying for a company? Please contact our customer service.")
        case .outOfStock:
            (.conflict, "out_of_stock", "{sku} 只剩 {available} 件", "{sku} has only {available} in stock.")
        case .soldOut:
            (.conflict, "out_of_stock", "{sku} 已售罄", "{sku} is sold out.")
        case .skuNotFound:
            (.notFound, "not_found", "这件商品不存在或已下架。", "No such SKU on sale.")
        case .cartLineNotFound:
            (.notFound, "not_found", "购物车里没有这件商品。", "No such cart line.")

        case .addressNotFound:
            (.notFound, "not_found", "没有这个地址。", "No such address.")
        case .addressLimitExceeded:
            (.unprocessableEntity, "address_limit_exceeded", "地址簿最多保存 {max} 个地址。",
             "An address book holds at most {max} addresses.")
        case .addressRegionUnknown:
            (.unprocessableEntity, "invalid_region", "没有代码为 {code} 的地区，请重新选择所在地区。",
             "No region has the code {code}; choose the region again.")
        case .addressRegionNotALeaf:
            (.unprocessableEntity, "invalid_region", "{name}下还有下级地区，请选到区县。",
             "{name} has divisions under it; choose down to the district.")

        case .regionNotFound:
            (.notFound, "not_found", "没有代码为 {code} 的地区。", "No region has the code {code}.")
        case .favoritesLimitExceeded:
            (.unprocessableEntity, "favorites_limit_exceeded", "收藏夹最多放 {max} 件，先移出一些再收藏吧。",
             "Favourites hold at most {max} of each kind: remove some first.")

        case .idempotencyKeyRequired:
            (.badRequest, "idempotency_key_required", "请发送 1 到 {max} 个字符的 Idempotency-Key 请求头。",
             "Send an Idempotency-Key header of 1 to {max} characters.")
        case .idempotencyKeyReused:
            (.conflict, "idempotency_key_reused", "这个 Idempotency-Key 已用于另一个订单。",
             "This Idempotency-Key was already used for a different order.")
        case .orderNotFound:
            (.notFound, "not_found", "没有这个订单。", "No such order.")
        case .cartEmpty:
            (.unprocessableEntity, "cart_empty", "请至少选择一件购物车里的商品再结算。", "Select at least one cart line to check out.")
        case .tooManyUnpaidOrders:
            (.unprocessableEntity, "too_many_unpaid_orders", "你已有 {max} 个待付款的订单，请先付款或取消一个再下单。",
             "You already have {max} unpaid orders: pay or cancel one before placing another.")
        case .orderStateConflict:
            (.conflict, "order_state_conflict", "订单{status}，不能{action}。", "Cannot {action} an order that is {status}.")
        case .refundExceedsPaid:
            (.unprocessableEntity, "refund_exceeds_paid", "退款总额不能超过实付金额，最多还能退 {available} 元。",
             "Refunds cannot add up to more than was paid: at most {available} yuan is left to refund.")

        case .afterSaleNotFound:
            (.notFound, "not_found", "没有这个售后申请。", "No such after-sale request.")
        case .afterSaleOpen:
            (.conflict, "after_sale_open", "这个订单已有一个处理中的售后申请，请等它处理完。",
             "This order already has an after-sale request in progress; wait until it is settled.")
        case .afterSaleClosed:
            (.unprocessableEntity, "after_sale_closed", "只能在送达（或发货）后 {hours} 小时内申请售后，这个订单已不能申请。",
             "After-sale can be asked for only within {hours} hours of delivery (or shipping); this order is past that or never shipped.")
        case .afterSaleDecided:
            (.conflict, "after_sale_decided", "这个售后申请{status}，不能再处理。", "This after-sale request is already {status}.")

        case .deliveryDateUnavailable:
            (.unprocessableEntity, "delivery_unavailable", "这一天无法配送，最早可以在 {earliest} 送达。",
             "We cannot deliver on that day; the earliest possible day is {earliest}.")
        case .deliverySlotUnavailable:
            (.unprocessableEntity, "delivery_unavailable", "这个时段已无法配送，请换一个时段；最早可以在 {earliest} 送达。",
             "That time slot is no longer available; pick another one. The earliest possible day is {earliest}.")
        case .noDeliveryDay:
            (.unprocessableEntity, "delivery_unavailable", "近期没有可以配送的日子，请联系客服。",
             "No delivery day is open in the coming weeks; please contact customer service.")
        case .outsideDeliveryArea:
            (.unprocessableEntity, "delivery_unavailable", "这个地址不在本店的配送范围内，请换一个收货地址。",
             "This address is outside the shop's delivery area; choose another address.")
        case .invalidZones:
            (.unprocessableEntity, "invalid_zones", "配送区域未保存，原有区域保持不变：{problems}",
             "The delivery zones were refused and the zones before are kept: {problems}")
        case .invalidSynonyms:
            (.unprocessableEntity, "invalid_synonyms", "同义词词典未保存，原有词典继续生效：{problems}",
             "The synonyms were refused and the dictionary in force is kept: {problems}")

        case .unknownProvider:
            (.notFound, "not_found", "没有这种支付方式。", "No such payment provider.")
        case .providerUnavailable:
            (.unprocessableEntity, "provider_unavailable", "本店还没有开通{provider}。", "{provider} is not configured on this shop.")
        case .invalidSignature:
            (.badRequest, "invalid_signature", "支付通知的签名无效：{reason}。", "The notification is not validly signed: {reason}.")
        case .malformedNotification:
            (.badRequest, "invalid_request", "无法读取支付通知：{reason}。", "The notification could not be read: {reason}.")
        case .amountMismatch:
            (.badRequest, "amount_mismatch", "金额或币种与订单不符。", "Amount or currency differ from the order's.")
        case .unknownOrder:
            (.badRequest, "unknown_order", "没有这个订单号。", "No order has that number.")
        case .orderNotPayable:
            (.conflict, "order_state_conflict", "订单{status}，不能付款。", "An order that is {status} cannot be paid.")
        case .providerError:
            (Status(502), "provider_error", "{provider}暂时无法处理这笔付款：{message}", "{provider} could not take this payment: {message}")
        case .providerTimeout:
            (Status(504), "provider_timeout", "{provider}没有及时响应，请稍后再试。", "{provider} did not answer in time; try again shortly.")
        case .providerBusy:
            (.serviceUnavailable, "provider_busy", "正在等待{provider}响应的付款太多，请稍后再试。",
             "Too many payments are waiting for {provider}; try again shortly.")
        case .providerCircuitOpen:
            (.serviceUnavailable, "provider_unavailable", "{provider}暂时无法使用，请 {seconds} 秒后再试或换一种支付方式。",
             "{provider} is unavailable right now; try again in {seconds} seconds or pay another way.")
        case .channelNotOffered:
            (.badRequest, "validation_failed", "{provider}没有 {channel} 这种付款方式，可选：{channels}。",
             "{provider} has no channel {channel}; choose one of {channels}.")
        case .paymentAttemptsExceeded:
            (.tooManyRequests, "too_many_attempts", "这笔订单发起付款的次数太多了（最多 {max} 次）。",
             "This order has been sent to payment too many times (at most {max}).")
        case .busy:
            (.serviceUnavailable, "busy", "店里正忙，请稍后再试。", "The shop is busy right now; try again shortly.")

        case .imageRequired:
            (.badRequest, "invalid_request", "请上传一张图片：请求内容是空的。", "Send one picture: the request body is empty.")
        case .tooManyPixels:
            (.payloadTooLarge, "payload_too_large", "图片太大（{width} × {height} 像素），最多 {limit} 像素。",
             "The picture is too large ({width} × {height} pixels); at most {limit} pixels.")
        case .notAnImage:
            (.unsupportedMediaType, "unsupported_media_type", "只能上传 JPEG、PNG 或 WebP 图片，这个文件不是或已损坏。",
             "Only JPEG, PNG or WebP pictures can be uploaded; this is none of them or is damaged.")
        case .tooManyUploads:
            (.tooManyRequests, "rate_limited", "上传太频繁了，请 {seconds} 秒后再试。",
             "Too many uploads; try again in {seconds} seconds.")

        case .userNotFound:
            (.notFound, "not_found", "没有这个用户。", "No such user.")
        case .authorNotFound:
            (.notFound, "not_found", "没有这位专栏作者。", "No such column author.")
        case .articleNotFound:
            (.notFound, "not_found", "文章不存在或已删除。", "No such article.")
        case .commentNotFound:
            (.notFound, "not_found", "评论不存在或已删除。", "No such comment.")
        case .articleCategoryNotFound:
            (.notFound, "not_found", "没有这个文章分类。", "No such article category.")
        case .unknownArticleCategory:
            (.conflict, "unknown_category", "没有这个文章分类，请重新选择。", "category_id names no article category.")
        case .cannotFollowSelf:
            (.unprocessableEntity, "cannot_follow_self", "不能关注自己。", "You cannot follow yourself.")
        case .deleteOthersComment:
            (.forbidden, "forbidden", "只有评论者本人可以删除这条评论。", "Only its writer can delete a comment.")
        case .changeOthersArticle:
            (.forbidden, "forbidden", "只有作者本人可以修改这篇文章。", "Only its author can change this article.")
        case .notAnAuthor:
            (.forbidden, "not_an_author", "只有专栏作者可以发布或编辑文章。", "Only column authors can publish or edit articles.")
        case .invalidReplyTo:
            (.unprocessableEntity, "invalid_reply_to", "只能回复同一篇文章下的评论。", "reply_to must be a comment on the same article.")
        case .titleTaken:
            (.conflict, "title_taken", "你已经有一篇同样标题的文章了。", "You already have an article with this title.")
        case .invalidCursor:
            (.badRequest, "validation_failed", "cursor 无效：请使用服务器给出的值。", "cursor is not one this server gave out.")
        case .contentBlocked:
            (.unprocessableEntity, "content_blocked", "内容含有不允许发布的词语，请修改后再发。",
             "The text contains words that may not be posted here; change it and try again.")

        case .forbidden:
            (.forbidden, "forbidden", "你的角色不能做这件事。", "Your role may not do this.")
        case .staffInvalidCredentials:
            (.unauthorized, "invalid_credentials", "用户名或密码错误。", "Wrong username or password.")
        case .usernameTaken:
            (.conflict, "username_taken", "用户名 {username} 已被使用。", "The username {username} is taken.")
        case .staffNotFound:
            (.notFound, "not_found", "没有用户名为 {username} 的员工。", "No staff member is named {username}.")
        case .lastOwner:
            (.conflict, "last_owner", "店里至少要有一位启用的店主。", "The shop must keep at least one enabled owner.")

        case .databaseUnreachable:
            (.serviceUnavailable, "database_unavailable", "暂时连不上数据库，请稍后再试。",
             "The database cannot be reached right now. Try again shortly.")
        case .databaseBusy:
            (.serviceUnavailable, "database_busy", "店里太忙，暂时连不上数据库，请稍后再试。",
             "The shop is too busy to reach its database right now. Try again shortly.")
        case .fileNotFound:
            (.notFound, "not_found", "没有这个文件。", "No such file.")
        case .documentNotDeployed:
            (.notFound, "not_found", "服务器旁没有部署 openapi.json。", "openapi.json is not deployed beside this server.")
        }
    }
}

extension HTTPError {
    /// The error `message` describes, its placeholders filled from `arguments`.
    init(_ message: APIMessage, _ arguments: [String: LocalizedText] = [:], field: String? = nil, retryAfter: Int? = nil) {
        self.init(message.status, code: message.code, message: message.template.filling(arguments), field: field,
                  retryAfter: retryAfter)
    }

    /// A 400 `validation_failed` for input that breaks a rule, worded as `ValidationError` words it.
    init(_ error: ValidationError) {
        self.init(.badRequest, code: "validation_failed", message: error.message, field: error.field)
    }
}
