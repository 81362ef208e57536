import Localization
import Testing

@Suite("Localized text")
struct LocalizedTextTests {
    @Test func placeholdersAreFilledLanguageByLanguage() {
        let template = LocalizedText(zh: "{sku} 只剩 {available} 件", en: "{sku} has only {available} in stock.")
        let filled = template.filling(["sku": .verbatim("红玫瑰花束·热恋 19枝"), "available": .verbatim("86")])
        #expect(filled == LocalizedText(zh: "红玫瑰花束·热恋 19枝 只剩 86 件", en: "红玫瑰花束·热恋 19枝 has only 86 in stock."))
        let status = LocalizedText(zh: "订单{status}", en: "an order that is {status}")
            .filling(["status": LocalizedText(zh: "已取消", en: "cancelled")])
        #expect(status == LocalizedText(zh: "订单已取消", en: "an order that is cancelled"))
    }

    @Test func anArgumentIsNeverReadAsATemplate() {
        let filled = LocalizedText(zh: "{a}{b}", en: "{a} {b}").filling(["a": .verbatim("{b}"), "b": .verbatim("x")])
        #expect(filled == LocalizedText(zh: "{b}x", en: "{b} x"))
    }

    @Test func bracesThatAreNotPlaceholdersStayAsTheyAre() {
        let text = LocalizedText(zh: "{} {中} {a b} {x", en: "{{n}} }")
        #expect(text.filling(["n": .verbatim("1"), "x": .verbatim("2")]) == LocalizedText(zh: "{} {中} {a b} {x", en: "{1} }"))
        #expect(LocalizedText.placeholders(in: "{sku} 只剩 {available} 件 {} {a b}") == ["sku", "available"])
    }

    @Test func aPlaceholderWithoutAnArgumentIsLeftVisible() {
        #expect(LocalizedText(zh: "{max} 个", en: "{max} items").filling(["min": .verbatim("1")])
                == LocalizedText(zh: "{max} 个", en: "{max} items"))
    }

    @Test func eachLanguageIsReadBySubscript() {
        let text = LocalizedText(zh: "没有这个订单。", en: "No such order.")
        #expect(text[.chinese] == "没有这个订单。")
        #expect(text[.english] == "No such order.")
        #expect(LocalizedText.verbatim("19枝")[.english] == "19枝")
    }
}
