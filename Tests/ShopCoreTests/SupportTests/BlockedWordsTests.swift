import Testing
@testable import ShopCore

@Suite("Blocked words: found whatever the width, case, spacing or invisible characters")
struct BlockedWordsTests {
    @Test func spellingsOfABlockedWordAreAllFound() {
        let words = BlockedWords(["加微信", "QQ"])
        for text in ["加微信买花便宜", "加 微\t信", "加\u{200B}微\u{FEFF}信", "ＱＱ号", "qq", "Qq群", "ｑ ｑ"] {
            #expect(words.occur(in: text), "\(text)")
        }
        for text in ["微信支付", "花很新鲜", "q", ""] {
            #expect(!words.occur(in: text), "\(text)")
        }
        #expect(!BlockedWords([]).occur(in: "加微信"))
        #expect(!BlockedWords(["  "]).occur(in: "加微信"), "an empty word blocks nothing")
    }
}
