import Foundation
import ShopTestSupport
import Testing

/// Checks the documented error shape `{"error": {"code", "message", "field"?, "retry_after"?}}`
/// and that `retry_after` travels in the `Retry-After` header too.
func expectError(_ response: TestResponse, _ status: Int, _ code: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(response.status == status, "\(response.text)", sourceLocation: sourceLocation)
    #expect(response.headers["Content-Type"]?.hasPrefix("application/json") == true, sourceLocation: sourceLocation)
    #expect(Set(response.json.keys) == ["error"], "\(response.text)", sourceLocation: sourceLocation)
    let error = response.error
    #expect(Set(error.keys).isSubset(of: ["code", "message", "field", "retry_after"]), "\(response.text)", sourceLocation: sourceLocation)
    #expect(error["code"] as? String == code, "\(response.text)", sourceLocation: sourceLocation)
    #expect((error["message"] as? String)?.isEmpty == false, "\(response.text)", sourceLocation: sourceLocation)
    if let field = error["field"] { #expect(field is String, sourceLocation: sourceLocation) }
    let retryAfter = (error["retry_after"] as? NSNumber)?.intValue
    #expect(response.headers["Retry-After"] == retryAfter.map(String.init), sourceLocation: sourceLocation)
}
