import Testing
@testable import ShopAPI

@Suite("Bearer tokens in the Authorization header")
struct BearerTokenTests {
    @Test(arguments: [
        ("Bearer abc_DEF-123", "abc_DEF-123"),
        ("bearer abc", "abc"),
        ("BEARER abc", "abc"),
        ("Bearer   abc \t", "abc"),
        ("Bearer \tabc", "abc"),
        ("Bearer a b", "a b"),
    ])
    func theTokenAfterTheSchemeIsTakenWithoutTheBlanksAroundIt(header: String, token: String) {
        #expect(AuthMiddleware.bearerToken(in: header) == token)
    }

    @Test(arguments: ["Bearer", "Bearer ", "Bearer  \t ", "Basic abc", "Bearerx abc", "Beare abc", "abc", "", " Bearer abc",
                      "Bëarer abc", "Token abc"])
    func anythingElseHasNoToken(header: String) {
        #expect(AuthMiddleware.bearerToken(in: header) == nil)
    }
}
