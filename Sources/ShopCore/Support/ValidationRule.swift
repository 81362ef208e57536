import Localization

/// The limits input can break, each worded in Chinese and English. `{field}` is the field's name as
/// a person knows it; the other placeholders are the limits a `ValidationError` carries.
public enum ValidationRule: String, CaseIterable, Sendable {
    case required, empty, length, tooLong, controlCharacters, url
    case range, wholeNumber, wholeNumberInRange, notNegative, notAbove, oneOf, lineCount
    case mobilePhone, verificationCode, passwordMD5, passwordTwice, passwordMissing, postalCode, date
    case couponCode, username
    case catalogCode, categoryName
    case regionCode
    case tooMany, uploadedPicture, refundOnly

    public var template: LocalizedText {
        switch self {
        case .required: LocalizedText(zh: "请填写{field}。", en: "{field} is required.")
        case .empty: LocalizedText(zh: "{field}不能为空。", en: "{field} must not be empty.")
        case .length: LocalizedText(zh: "{field}应为 {min} 到 {max} 个字。", en: "{field} must be {min} to {max} characters.")
        case .tooLong: LocalizedText(zh: "{field}最多 {max} 个字。", en: "{field} must be at most {max} characters.")
        case .controlCharacters: LocalizedText(zh: "{field}不能含有控制字符。", en: "{field} must not contain control characters.")
        case .url: LocalizedText(zh: "{field}应为 http(s) 网址或 /media/ 路径。", en: "{field} must be an http(s) URL or a /media/ path.")
        case .range: LocalizedText(zh: "{field}应在 {min} 到 {max} 之间。", en: "{field} must be {min} to {max}.")
        case .wholeNumber: LocalizedText(zh: "{field}应为整数。", en: "{field} must be a whole number.")
        case .wholeNumberInRange:
            LocalizedText(zh: "{field}应为 {min} 到 {max} 之间的整数。", en: "{field} must be a whole number from {min} to {max}.")
        case .notNegative: LocalizedText(zh: "{field}不能小于 0。", en: "{field} must be 0 or more.")
        case .notAbove: LocalizedText(zh: "{field}不能高于{other}。", en: "{field} must not be more than {other}.")
        case .oneOf: LocalizedText(zh: "{field}应为以下之一：{choices}。", en: "{field} must be one of: {choices}.")
        case .lineCount: LocalizedText(zh: "{field}应有 {min} 到 {max} 行。", en: "{field} must hold {min} to {max} lines.")
        case .mobilePhone:
            LocalizedText(zh: "{field}应为中国大陆手机号（以 1 开头的 11 位数字）。",
                          en: "{field} must be a mainland mobile number (11 digits starting with 1).")
        case .verificationCode:
            LocalizedText(zh: "{field}应为短信里的 6 位数字。", en: "{field} must be the 6 digits from the message.")
        case .passwordMD5:
            LocalizedText(zh: "{field}应为 32 位十六进制字符（密码的 MD5）。",
                          en: "{field} must be 32 hex characters (the MD5 of the password).")
        case .passwordTwice:
            LocalizedText(zh: "password_md5 和 password 只能发送其中一个。", en: "Send either password_md5 or password, not both.")
        case .passwordMissing: LocalizedText(zh: "请填写密码。", en: "password_md5 (or password) is required.")
        case .postalCode: LocalizedText(zh: "{field}应为 6 位数字。", en: "{field} must be 6 digits.")
        case .couponCode:
            LocalizedText(zh: "{field}应为 {min} 到 {max} 位字母、数字、- 或 _。",
                          en: "{field} must be {min} to {max} letters, digits, - or _.")
        case .username:
            LocalizedText(zh: "{field}应为 {min} 到 {max} 位小写字母、数字、.、- 或 _，以字母开头。",
                          en: "{field} must be {min} to {max} lower-case letters, digits, ., - or _, starting with a letter.")
        case .catalogCode:
            LocalizedText(zh: "{field}只能含英文字母、数字和 - _ . 这几个字符。", en: "{field} may hold only ASCII letters, digits and the characters - _ .")
        case .categoryName:
            LocalizedText(zh: "{field}应为 1 到 {max} 个字，且不含 /。", en: "{field} must be 1 to {max} characters without a /.")
        case .regionCode:
            LocalizedText(zh: "{field}应为 6 位数字的行政区划代码，如 110105。", en: "{field} must be a six-digit region code, such as 110105.")
        case .tooMany: LocalizedText(zh: "{field}最多 {max} 个。", en: "{field} holds at most {max} entries.")
        case .uploadedPicture:
            LocalizedText(zh: "{field}只能是在本店上传的图片（POST /media 返回的地址）。",
                          en: "{field} must be pictures uploaded to this shop (the URLs POST /media answers).")
        case .refundOnly: LocalizedText(zh: "{field}只适用于退款申请。", en: "{field} applies to refund requests only.")
        case .date: LocalizedText(zh: "{field}应为 YYYY-MM-DD 格式的日期，如 2026-12-01。", en: "{field} must be a day written YYYY-MM-DD, such as 2026-12-01.")
        }
    }

    /// A field as the message names it: its Chinese name where a shopper sees one, its wire name in English.
    public static func name(of field: String) -> LocalizedText {
        LocalizedText(zh: chineseNames[field] ?? field, en: field)
    }

    /// The fields a shopper fills in or sees in the storefront, by wire name.
    public static let chineseNames: [String: String] = [
        "phone": "手机号", "username": "用户名", "code": "验证码", "password": "密码", "password_md5": "密码",
        "nickname": "昵称", "signature": "个性签名", "avatar_url": "头像地址",
        "recipient": "收货人", "province": "省份", "city": "城市", "district": "区县", "detail": "详细地址",
        "postal_code": "邮政编码", "region_code": "所在地区", "parent": "上级地区",
        "quantity": "数量", "items": "商品", "note": "订单备注", "carrier": "快递公司", "tracking": "快递单号",
        "q": "搜索词", "page": "页码", "per_page": "每页数量", "limit": "每页数量", "sort": "排序方式",
        "min_price_cents": "最低价", "max_price_cents": "最高价", "category_id": "分类", "status": "状态",
        "title": "标题", "summary": "摘要", "content": "内容", "cover_url": "封面地址", "category": "分类",
        "author_phone": "作者手机号",
        "coupon_code": "优惠码",
        "delivery_date": "送达日期", "delivery_slot": "送达时段", "card_message": "贺卡留言", "card_signature": "贺卡署名",
        "sku_ids": "商品规格",
        "tracking_number": "快递单号", "photo_url": "送达照片", "reason": "原因", "text": "备注内容", "amount_cents": "退款金额",
        "from": "开始日期", "to": "结束日期",
        "kind": "售后类型", "photo_urls": "售后照片",
    ]
}

extension [String: LocalizedText] {
    /// The `min` and `max` limits of a range.
    static func range(_ range: ClosedRange<some BinaryInteger>) -> Self {
        ["min": .verbatim(String(range.lowerBound)), "max": .verbatim(String(range.upperBound))]
    }
}

extension ValidationError {
    /// Longer than `max` characters.
    public static func tooLong(_ field: String, max: Int) -> ValidationError {
        ValidationError(field, .tooLong, ["max": .verbatim(String(max))])
    }

    /// Greater than the field `other` allows.
    static func notAbove(_ field: String, _ other: String) -> ValidationError {
        ValidationError(field, .notAbove, ["other": ValidationRule.name(of: other)])
    }

    /// Not one of `choices` (wire values, shown as they are).
    public static func oneOf(_ field: String, _ choices: [String]) -> ValidationError {
        ValidationError(field, .oneOf, ["choices": .verbatim(choices.joined(separator: ", "))])
    }
}
