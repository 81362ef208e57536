import Foundation
@testable import ShopAPI
import Testing

/// The served document is the file with only its top-level `servers` value replaced.
@Suite("OpenAPIDocument")
struct OpenAPIDocumentTests {
    private func served(_ text: String, _ origin: String?) -> String {
        String(decoding: OpenAPIDocument(Array(text.utf8)).bytes(serving: origin), as: UTF8.self)
    }

    @Test func onlyTheTopLevelServersValueIsReplaced() throws {
        let text = #"""
        {"info": {"description": "not \"servers\": [1], nor ] or } in text", "servers": "nested"},
         "paths": {"/a": {"servers": [{"url": "http://path.example"}]}},
         "servers" : [ {"url": "http://127.0.0.1:8080", "description": "[x]"} ],
         "tags": []}
        """#
        let result = served(text, "https://shop.example")
        let servers = try JSONDecoder().decode(OpenAPIServers.self, from: Data(result.utf8)).servers
        #expect(servers.first?.url == "https://shop.example")
        #expect(servers.count == 1)
        #expect(result.contains(#""servers": "nested""#))
        #expect(result.contains(#"{"/a": {"servers": [{"url": "http://path.example"}]}}"#))
        #expect(result.hasSuffix("\"tags\": []}"))
    }

    @Test func aScalarOrLastServersValueIsFoundToo() {
        #expect(served(#"{"a": 1, "servers": "x"}"#, "http://h") == "{\"a\": 1, \"servers\": [\n    {\n      \"url\": \"http://h\"\n    }\n  ]}")
        #expect(served(#"{"servers":7,"b":2}"#, "http://h").hasSuffix(",\"b\":2}"))
    }

    @Test func withoutServersOrAnOriginTheDocumentIsUnchanged() {
        let text = #"{"openapi": "3.1.0", "info": {"servers": []}}"#
        #expect(served(text, "http://h") == text)
        let withServers = #"{"servers": [{"url": "http://127.0.0.1:8080"}]}"#
        #expect(served(withServers, nil) == withServers)
        #expect(served("not json [", "http://h") == "not json [")
    }
}
