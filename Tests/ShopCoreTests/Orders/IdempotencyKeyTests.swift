import ShopCore
import Testing

@Suite("Idempotency key")
struct IdempotencyKeyTests {
    @Test("1 to 64 visible ASCII characters, inner spaces allowed", arguments: [
        "k", "key-1", "a b", String(repeating: "k", count: 64), "~!@#$%^&*()",
    ])
    func aVisibleASCIIKeyIsTakenAsWritten(_ text: String) throws {
        #expect(try IdempotencyKey(text).rawValue == text)
    }

    @Test("Missing, empty, overlong, padded, non-ASCII or control characters are refused", arguments: [
        nil, "", String(repeating: "k", count: 65), " key", "key ", "钥匙", "tab\there", "nul\u{0}",
    ] as [String?])
    func anyOtherKeyIsRequiredAgain(_ text: String?) {
        #expect(throws: OrderError.idempotencyKeyRequired) { try IdempotencyKey(text) }
    }
}
