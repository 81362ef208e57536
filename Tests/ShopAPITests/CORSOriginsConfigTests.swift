import Foundation
import ShopAPI
import ShopCore
import Testing

@Suite("Config: server.cors_origins")
struct CORSOriginsConfigTests {
    private func origins(_ text: String) throws -> [String] {
        try ShopSettings.load(path: nil, environment: ["SHOP_SERVER_CORS_ORIGINS": text]).server.corsOrigins
    }

    @Test func emptyByDefault() throws {
        #expect(ServerSettings().corsOrigins.isEmpty)
        #expect(try ShopSettings.load(path: ServerSettingsTests.shopJSON, environment: [:]).server.corsOrigins.isEmpty)
    }

    @Test func originsAreKeptAsBrowsersSendThem() throws {
        #expect(try origins("https://Shop.Example/, http://127.0.0.1:3000 ,https://shop.example:443, http://[::1]:8080, http://a.example:80")
                == ["https://shop.example", "http://127.0.0.1:3000", "http://[::1]:8080", "http://a.example"])
        #expect(try origins("*") == ["*"])
        #expect(try origins(" , ") == [])
    }

    @Test("An entry that is not an origin names the key", arguments: [
        "shop.example", "ftp://shop.example", "https://shop.example/path", "https://user@shop.example", "https://",
        "https://shop.example:99999", "https://shop.example:", "null", "https://*.shop.example", "https://shop.example?x=1",
        "https://[::1", "**",
    ])
    func aBadOriginIsRefused(_ text: String) {
        let error = #expect(throws: ConfigError.self) { try origins("https://ok.example, " + text) }
        #expect(error?.key == "server.cors_origins")
    }

    @Test func theFileMayListOriginsAsAnArray() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("floral-cors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("shop.json").path
        try #"{"server": {"cors_origins": ["https://a.example", "http://localhost:5173"]}}"#.write(toFile: path, atomically: true, encoding: .utf8)
        let settings = try ShopSettings.load(path: path, environment: [:])
        #expect(settings.server.corsOrigins == ["https://a.example", "http://localhost:5173"])
    }
}
