import HTTP
import Localization
import ShopCore

/// The messages of refused staff edits of the catalogue and coupons (nothing was written).
enum AdminCatalogMessage: String, ErrorMessage {
    case unknownField, productCodeTaken, skuCodeTaken, skuNotFound, unknownCategory, categoryExists, categoryNotEmpty, categoryCycle
    case categoryTooDeep, stockBelowZero, stockTwice, couponCodeTaken, couponNotFound, couponRuleRequired

    var status: Status { entry.status }
    var code: String { entry.code }
    var template: LocalizedText { LocalizedText(zh: entry.zh, en: entry.en) }

    private var entry: (status: Status, code: String, zh: String, en: String) {
        switch self {
        case .unknownField:
            (.badRequest, "unknown_field", "请求中有无法识别的字段 {field}。", "The request has a field this route does not take: {field}.")
        case .productCodeTaken:
            (.conflict, "code_taken", "商品编码 {code} 已被其他商品使用。", "Another product has the code {code}.")
        case .skuNotFound: (.notFound, "not_found", "没有这个规格。", "No such SKU.")
        case .skuCodeTaken: (.conflict, "code_taken", "规格编码 {code} 已被使用。", "Another SKU has the code {code}.")
        case .unknownCategory: (.unprocessableEntity, "unknown_category", "没有这个分类。", "No category has this id or path.")
        case .categoryExists: (.conflict, "category_exists", "分类 {path} 已存在。", "A category {path} exists already.")
        case .categoryNotEmpty:
            (.conflict, "category_not_empty", "分类里还有 {products} 个商品、{children} 个子分类和 {coupons} 张优惠券，请先移走。",
             "The category still holds {products} product(s), {children} subcategories and {coupons} coupon(s); move them first.")
        case .categoryCycle:
            (.unprocessableEntity, "category_cycle", "分类不能移到它自己或它的子分类下。", "A category cannot move under itself or one of its subcategories.")
        case .categoryTooDeep:
            (.unprocessableEntity, "category_too_deep", "分类最多 {max} 层。", "Categories are at most {max} levels deep.")
        case .stockBelowZero:
            (.conflict, "stock_below_zero", "库存只有 {stock}，减少 {taken} 后会小于 0。", "Only {stock} in stock: taking {taken} would leave less than 0.")
        case .stockTwice:
            (.badRequest, "validation_failed", "stock 和 stock_delta 只能发送其中一个。", "Send either stock or stock_delta, not both.")
        case .couponRuleRequired:
            (.badRequest, "validation_failed", "percent_off 和 amount_off_cents 必须且只能发送一个。",
             "Send exactly one of percent_off and amount_off_cents.")
        case .couponCodeTaken: (.conflict, "code_taken", "券码 {code} 已存在。", "A coupon with the code {code} exists already.")
        case .couponNotFound: (.notFound, "coupon_not_found", "没有券码为 {code} 的优惠券。", "No coupon has the code {code}.")
        }
    }
}

extension ErrorMapping {
    /// Staff edits of the catalogue: taken codes and non-empty categories 409, unknown SKUs 404,
    /// unknown categories, cycles and depth 422.
    @Sendable static func adminCatalog(_ error: any Error) -> HTTPError? {
        guard let error = error as? CatalogAdminError else { return nil }
        switch error {
        case .productCodeTaken(let code): return HTTPError(AdminCatalogMessage.productCodeTaken, ["code": .verbatim(code)], field: "code")
        case .skuCodeTaken(let code, let field): return HTTPError(AdminCatalogMessage.skuCodeTaken, ["code": .verbatim(code)], field: field)
        case .skuNotFound: return HTTPError(AdminCatalogMessage.skuNotFound)
        case .unknownCategory(let field): return HTTPError(AdminCatalogMessage.unknownCategory, field: field)
        case .categoryExists(let path): return HTTPError(AdminCatalogMessage.categoryExists, ["path": .verbatim(path)], field: "name")
        case .categoryNotEmpty(let products, let children, let coupons):
            return HTTPError(AdminCatalogMessage.categoryNotEmpty, ["products": .verbatim(String(products)),
                                                                   "children": .verbatim(String(children)), "coupons": .verbatim(String(coupons))])
        case .categoryCycle: return HTTPError(AdminCatalogMessage.categoryCycle, field: "parent_id")
        case .categoryTooDeep(let max): return HTTPError(AdminCatalogMessage.categoryTooDeep, ["max": .verbatim(String(max))], field: "parent_id")
        case .stockBelowZero(let stock, let delta):
            return HTTPError(AdminCatalogMessage.stockBelowZero, ["stock": .verbatim(String(stock)), "taken": .verbatim(String(-delta))],
                             field: "stock_delta")
        }
    }

    /// An operator's coupon errors (`/admin/coupons`); buyers' refusals are `coupon`'s.
    static func adminCoupon(_ error: CouponError) -> HTTPError? {
        switch error {
        case .codeTaken(let code): HTTPError(AdminCatalogMessage.couponCodeTaken, ["code": .verbatim(code)], field: "code")
        case .unknownCategory: HTTPError(AdminCatalogMessage.unknownCategory, field: "category_path")
        case .notFound(let code): HTTPError(AdminCatalogMessage.couponNotFound, ["code": .verbatim(code)])
        default: nil
        }
    }
}
