import Localization

extension OrderStatus {
    /// The status as shoppers and florists read it: the word in Chinese (`待付款`), the wire value in English.
    public var displayName: LocalizedText {
        let zh = switch self {
        case .pendingPayment: "待付款"
        case .paid: "已付款"
        case .shipped: "已发货"
        case .delivered: "已送达"
        case .completed: "已完成"
        case .cancelled: "已取消"
        case .refunding: "退款中"
        case .refunded: "已退款"
        }
        return LocalizedText(zh: zh, en: rawValue)
    }
}
