@testable import HTTP
import Testing

@Suite("Context")
struct ContextTests {
    enum Subject: ContextKey { typealias Value = Int64 }
    enum Tenant: ContextKey { typealias Value = String }

    @Test func aMiddlewareStoresTypedValuesUnderTheirOwnKeys() {
        var context = Context(requestID: "r1")
        #expect(context[Subject.self] == nil)
        context[Subject.self] = 42
        context[Tenant.self] = "flowers"
        #expect(context[Subject.self] == 42)
        #expect(context[Tenant.self] == "flowers")
        context[Subject.self] = nil
        #expect(context[Subject.self] == nil)
        #expect(context[Tenant.self] == "flowers")
        #expect(context.requestID == "r1")
    }
}
