import Foundation
import ShopTestSupport
import Testing

/// Checks the documented error shape `{"error": {"code", "message", "field"?, "retry_after"?}}`
/// and that `retry_after` travels in the `Retry-After` header too.
func expectError(_ response: TestResponse, _ status: Int, _ code: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(response.status == status, "\(response.text)", sourceLocation: sourceLocation)
    #expect(response.headers["Content-Type"]?.hasPrefix("application/json") == true, sourceLocation: sourceLocation)
    // The key sets themselves are the contract: nothing beside the documented keys.
    #expect(response.keys == ["error"], "\(response.text)", sourceLocation: sourceLocation)
    #expect(response.keys(of: "error").isSubset(of: ["code", "message", "field", "retry_after"]), "\(response.text)",
            sourceLocation: sourceLocation)
    // Decoding checks the types: `code` and `message` strings, `field` a string, `retry_after` an integer.
    let error = response.error
    #expect(error != nil, "not the error shape: \(response.text)", sourceLocation: sourceLocation)
    #expect(error?.code == code, "\(response.text)", sourceLocation: sourceLocation)
    #expect(error?.message.isEmpty == false, "\(response.text)", sourceLocation: sourceLocation)
    #expect(response.headers["Retry-After"] == error?.retryAfter.map(String.init), sourceLocation: sourceLocation)
}
