import Foundation
import HTTP
import ShopAPI
import ShopTestSupport
import Testing

/// `openapi.json` at the repository root is the contract: it must describe every route the
/// router serves, and nothing it does not, in a shape tools and clients can rely on.
@Suite("OpenAPI contract")
struct OpenAPIContractTests {
    static let methods = ["get", "put", "post", "delete", "options", "patch", "trace"]
    /// Non-2xx answers that are a status report, not an error: `/readyz` says 503 `{"status": "unavailable"}` or `{"status": "draining"}`.
    static let statusReports: Set<String> = ["GET /readyz 503"]

    struct Operation: Hashable, CustomStringConvertible {
        let method: String
        let path: String
        var description: String { "\(method) \(path)" }
    }

    func document() throws -> [String: Any] {
        let url = Repository.root().appendingPathComponent("openapi.json")
        let data = try Data(contentsOf: url)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "openapi.json is not a JSON object")
    }

    /// Every (method, path) the document describes, HEAD left out.
    func documentedOperations(_ doc: [String: Any]) -> [Operation: [String: Any]] {
        var operations: [Operation: [String: Any]] = [:]
        for (path, item) in doc["paths"] as? [String: Any] ?? [:] {
            for (method, operation) in item as? [String: Any] ?? [:] where Self.methods.contains(method) {
                operations[Operation(method: method.uppercased(), path: path)] = operation as? [String: Any] ?? [:]
            }
        }
        return operations
    }

    /// Every route of the router, `:name` written as OpenAPI's `{name}`, HEAD left out.
    func servedOperations(_ app: TestAPI) -> Set<Operation> {
        Set(app.api.router.routeTable.filter { $0.method != "HEAD" }.map { route in
            let path = route.pattern.split(separator: "/", omittingEmptySubsequences: false).map { segment in
                segment.hasPrefix(":") ? "{\(segment.dropFirst())}" : String(segment)
            }.joined(separator: "/")
            return Operation(method: route.method, path: path)
        })
    }

    /// Follows local `$ref`s (`#/components/...`); nil when one does not resolve.
    func resolve(_ value: Any?, in doc: [String: Any]) -> [String: Any]? {
        var current = value as? [String: Any]
        var hops = 0
        while let ref = current?["$ref"] as? String {
            guard ref.hasPrefix("#/"), hops < 16 else { return nil }
            var target: Any? = doc
            for key in ref.dropFirst(2).split(separator: "/") {
                target = (target as? [String: Any])?[String(key)]
            }
            current = target as? [String: Any]
            hops += 1
        }
        return current
    }

    @Test func theDocumentIsOpenAPI31ForTheFloralShopAPI() throws {
        let doc = try document()
        #expect(doc["openapi"] as? String == "3.1.0")
        let info = try #require(doc["info"] as? [String: Any])
        #expect(info["title"] as? String == "Floral Shop API")
        #expect(info["version"] as? String == "1.0.0")
        let servers = try #require(doc["servers"] as? [[String: Any]])
        #expect(servers.first?["url"] as? String == "http://127.0.0.1:8080")
        let schemes = (doc["components"] as? [String: Any])?["securitySchemes"] as? [String: Any]
        let bearer = try #require(schemes?["bearerAuth"] as? [String: Any])
        #expect(bearer["type"] as? String == "http")
        #expect(bearer["scheme"] as? String == "bearer")
    }

    @Test func everyServedRouteIsDocumentedAndEveryDocumentedOperationIsServed() throws {
        let app = try TestAPI()
        let served = servedOperations(app)
        let documented = Set(documentedOperations(try document()).keys)
        #expect(!served.isEmpty)
        let undocumented = served.subtracting(documented).map(\.description).sorted()
        let unserved = documented.subtracting(served).map(\.description).sorted()
        #expect(undocumented.isEmpty, "routes missing from openapi.json: \(undocumented)")
        #expect(unserved.isEmpty, "operations in openapi.json with no route: \(unserved)")
    }

    @Test func everyOperationIsComplete() throws {
        let doc = try document()
        var operationIDs: [String] = []
        for (operation, body) in documentedOperations(doc) {
            if let id = body["operationId"] as? String { operationIDs.append(id) } else {
                Issue.record("\(operation) has no operationId")
            }
            let responses = body["responses"] as? [String: Any] ?? [:]
            #expect(responses.keys.contains { $0.hasPrefix("2") }, "\(operation) documents no success response")
            for (status, response) in responses {
                guard let response = resolve(response, in: doc) else {
                    Issue.record("\(operation) \(status): unresolvable response")
                    continue
                }
                let headers = response["headers"] as? [String: Any] ?? [:]
                #expect(headers["X-Request-Id"] != nil, "\(operation) \(status) does not declare X-Request-Id")
                guard status.hasPrefix("4") || status.hasPrefix("5"),
                      !Self.statusReports.contains("\(operation) \(status)") else { continue }
                let schema = ((response["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"] as? [String: Any]
                #expect(schema?["$ref"] as? String == "#/components/schemas/Error", "\(operation) \(status) is not the shared Error schema")
            }
            if let requestBody = body["requestBody"] {
                let contents = resolve(requestBody, in: doc)?["content"] as? [String: Any] ?? [:]
                if contents.keys.allSatisfy({ $0.hasPrefix("image/") }) && !contents.isEmpty {
                    // A raw picture (POST /media): each type has a binary schema, no JSON example.
                    #expect(contents.values.allSatisfy { ($0 as? [String: Any])?["schema"] != nil }, "\(operation) request body has no schema")
                } else {
                    let content = contents["application/json"] as? [String: Any]
                    #expect(content?["schema"] != nil, "\(operation) request body has no JSON schema")
                    #expect(content?["example"] != nil || content?["examples"] != nil, "\(operation) request body has no example")
                }
            }
            // Every `{name}` of the path is a declared, required path parameter.
            let declared = (body["parameters"] as? [Any] ?? []).compactMap { resolve($0, in: doc) }
                .filter { $0["in"] as? String == "path" && $0["required"] as? Bool == true }
                .compactMap { $0["name"] as? String }
            for segment in operation.path.split(separator: "/") where segment.hasPrefix("{") {
                #expect(declared.contains(String(segment.dropFirst().dropLast())), "\(operation): \(segment) is not declared")
            }
        }
        #expect(Set(operationIDs).count == operationIDs.count, "operationIds must be unique")
    }

    @Test func theErrorSchemaIsTheDocumentedShape() throws {
        let doc = try document()
        let error = try #require(resolve(["$ref": "#/components/schemas/Error"], in: doc))
        #expect(error["required"] as? [String] == ["error"])
        let inner = try #require((error["properties"] as? [String: Any])?["error"] as? [String: Any])
        #expect(Set(inner["required"] as? [String] ?? []) == ["code", "message"])
        #expect(Set((inner["properties"] as? [String: Any] ?? [:]).keys) == ["code", "message", "field", "retry_after"])
    }

    @Test func everyLocalReferenceResolves() throws {
        let doc = try document()
        var refs: [String] = []
        func collect(_ value: Any) {
            if let object = value as? [String: Any] {
                if let ref = object["$ref"] as? String { refs.append(ref) }
                object.values.forEach(collect)
            } else if let array = value as? [Any] {
                array.forEach(collect)
            }
        }
        collect(doc)
        #expect(!refs.isEmpty)
        for ref in refs {
            #expect(resolve(["$ref": ref], in: doc) != nil, "\(ref) does not resolve")
        }
    }

    /// A route that answers 401 `unauthorized` to a request without a token must say it needs the
    /// bearer token, and an operation that says so must answer 401 without one.
    @Test func theSignedInOperationsAreExactlyThoseThatDeclareBearerAuth() throws {
        let app = try TestAPI()
        let doc = try document()
        for (operation, body) in documentedOperations(doc) where servedOperations(app).contains(operation) {
            let path = operation.path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
                segment.hasPrefix("{") ? "1" : String(segment)
            }.joined(separator: "/")
            // from loopback, unforwarded: development-only routes answer no one else
            let answer = try app.send(operation.method, path, json: [String: Any](), from: "127.0.0.1")
            let refusesAnonymous = answer.status == 401 && answer.errorCode == "unauthorized"
            let security = body["security"] as? [[String: Any]] ?? doc["security"] as? [[String: Any]] ?? []
            // buyers' routes name bearerAuth, the operators' desk staffAuth (a staff token)
            let requiresBearer = !security.isEmpty && security.allSatisfy { $0["bearerAuth"] != nil || $0["staffAuth"] != nil }
            #expect(refusesAnonymous == requiresBearer,
                    "\(operation): anonymous answer \(answer.status) \(answer.errorCode ?? "-"), documented security \(security)")
            if requiresBearer {
                let responses = body["responses"] as? [String: Any] ?? [:]
                #expect(responses["401"] != nil, "\(operation) needs a token but documents no 401")
            }
        }
    }
}
