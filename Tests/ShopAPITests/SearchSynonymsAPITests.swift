import Foundation
import HTTP
@testable import ShopAPI
@testable import ShopCore
import ShopTestSupport
import Testing

/// The search synonyms over HTTP (issue 34): staff read and replace them, a change applies to the
/// next search (and to kept search pages), a bad dictionary is 422 naming its lines.
@Suite("API: search synonyms")
struct SearchSynonymsAPITests {
    static let examples = Repository.root().appendingPathComponent("Examples").path

    func titles(_ api: TestAPI, _ query: String) throws -> [String] {
        let response = try api.send("GET", "/api/v1/products", query: ["q": query, "per_page": "100"])
        #expect(response.status == 200, "\(response.text)")
        guard let object = try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any],
              let items = object["items"] as? [[String: Any]] else { return [] }
        return items.compactMap { $0["title"] as? String }
    }

    @Test func aManagerReplacesTheSynonymsAndTheNextSearchUsesThem() throws {
        let api = try TestAPI()
        _ = try api.shop.demo.seed(from: Self.examples)
        let manager = try api.staffToken(.manager)
        let shipped = try api.send("GET", "/api/v1/admin/search/synonyms", token: manager)
        #expect(shipped.status == 200 && shipped.text.contains("\"source\":\"configuration\"") && shipped.text.contains("\"updated_at\":null"),
                "\(shipped.text)")
        #expect(try titles(api, "dahlia").isEmpty)
        #expect(try titles(api, "rose").first?.contains("玫瑰") == true)
        let put = try api.send("PUT", "/api/v1/admin/search/synonyms", json: ["text": "dahlia, 大丽花 => 郁金香\n"], token: manager)
        #expect(put.status == 200 && put.text.contains("\"source\":\"database\""), "\(put.text)")
        #expect(try titles(api, "dahlia").first?.contains("郁金香") == true)
        #expect(try titles(api, "rose").isEmpty, "the shipped dictionary is replaced whole")
        let audit = try api.send("GET", "/api/v1/admin/audit", query: ["target": "search_synonyms"], token: manager)
        #expect(audit.text.contains("\"action\":\"search.synonyms\""), "\(audit.text)")
    }

    @Test func aBadDictionaryIs422NamingTheLineAndTheOldOneStays() throws {
        let api = try TestAPI()
        let owner = try api.staffToken(.owner)
        #expect(try api.send("PUT", "/api/v1/admin/search/synonyms", json: ["text": "a => b\n"], token: owner).status == 200)
        let refused = try api.send("PUT", "/api/v1/admin/search/synonyms", json: ["text": "ok, fine\nb => c\nc => b\n , \n"], token: owner,
                                   headers: [("Accept-Language", "en")])
        expectError(refused, 422, "invalid_synonyms")
        #expect(refused.error?.field == "text")
        let message = refused.error?.message ?? ""
        #expect(message.contains("line 3: the rewrites form a cycle"), "\(message)")
        #expect(message.contains("line 4: the group has no terms"), "\(message)")
        let kept = try api.send("GET", "/api/v1/admin/search/synonyms", token: owner)
        #expect(kept.text.contains("\"text\":\"a => b\\n\""), "\(kept.text)")
        expectError(try api.send("PUT", "/api/v1/admin/search/synonyms", json: ["text": "a,b", "colour": "red"], token: owner),
                    400, "unknown_field")
        expectError(try api.send("PUT", "/api/v1/admin/search/synonyms", json: ["words": "a,b"], token: owner), 400, "unknown_field")
        expectError(try api.send("PUT", "/api/v1/admin/search/synonyms", json: ["text": NSNull()], token: owner), 400, "validation_failed")
        expectError(try api.send("PUT", "/api/v1/admin/search/synonyms", json: [String: Any](), token: owner), 400, "validation_failed")
    }

    @Test func floristsAndServiceStaffMayNotEditTheSynonyms() throws {
        let api = try TestAPI()
        for role in [StaffRole.florist, .service] {
            let token = try api.staffToken(role)
            expectError(try api.send("PUT", "/api/v1/admin/search/synonyms", json: ["text": "a,b"], token: token), 403, "forbidden")
        }
    }

    @Test(arguments: [String(repeating: "玫", count: 64) + "x", String(repeating: "m", count: 65)])
    func aQueryPastSixtyFourCharactersIs400(_ query: String) throws {
        let api = try TestAPI()
        expectError(try api.send("GET", "/api/v1/products", query: ["q": query]), 400, "validation_failed")
    }

    @Test(arguments: ["!!!", "。。。", "meigui玫瑰", "mg rose 开业", "%_\\", "\u{301}"])
    func oddQueriesAreAnsweredNotFailed(_ query: String) throws {
        let api = try TestAPI()
        _ = try api.shop.demo.seed(from: Self.examples)
        #expect(try api.send("GET", "/api/v1/products", query: ["q": query]).status == 200)
    }
}
