import Foundation
import HTTP
import ShopTestSupport
import Testing

@Suite("API: /me")
struct MeAPITests {
    let phone = "13800138000"

    @Test func meAnswersExactlyTheDocumentedUserFields() throws {
        let app = try TestAPI()
        let registered = try app.register(phone, nickname: "小花")
        let token = try #require(registered["token"] as? String)
        let response = try app.send("GET", "/api/v1/me", token: token)
        #expect(response.status == 200)
        let user = response.json
        #expect(Set(user.keys) == ["id", "phone", "nickname", "avatar_url", "signature", "gender", "is_author", "created_at"])
        #expect(user["id"] as? Int == (registered["user"] as? [String: Any])?["id"] as? Int)
        #expect(user["phone"] as? String == "138****8000")
        #expect(user["nickname"] as? String == "小花")
        #expect(user["avatar_url"] as? String == "")
        #expect(user["signature"] as? String == "")
        #expect(user["gender"] as? String == "unknown")
        #expect(user["is_author"] as? Bool == false)
        #expect(user["created_at"] as? String == "2026-11-30T08:00:00Z")
        #expect(response.text.contains("\"is_author\":false"))
    }

    @Test func patchMeChangesOnlyTheAllowListedFields() throws {
        let app = try TestAPI()
        let token = try app.token(for: phone)
        let before = try app.send("GET", "/api/v1/me", token: token).json

        let response = try app.send("PATCH", "/api/v1/me", json: [
            "id": 999, "phone": "13900139000", "is_author": true, "created_at": "2000-01-01T00:00:00Z",
            "password_hash": "x", "nickname": "新名字",
        ], token: token)
        #expect(response.status == 200)
        let after = try app.send("GET", "/api/v1/me", token: token).json
        #expect(after["nickname"] as? String == "新名字")
        #expect(response.json["nickname"] as? String == "新名字")
        for key in ["id", "phone", "is_author", "created_at", "avatar_url", "signature", "gender"] {
            #expect("\(response.json[key] ?? "nil")" == "\(before[key] ?? "nil")", "\(key) changed in the answer")
            #expect("\(after[key] ?? "nil")" == "\(before[key] ?? "nil")", "\(key) changed in the database")
        }
        // Still the same phone: the account signs in with it, and the other number has no account.
        #expect(try app.send("POST", "/api/v1/auth/login", json: ["phone": phone, "password": TestAPI.password]).status == 200)
        #expect(try app.send("POST", "/api/v1/auth/login", json: ["phone": "13900139000", "password": TestAPI.password]).status == 401)
    }

    @Test func patchMeSavesEveryWritableField() throws {
        let app = try TestAPI()
        let token = try app.token(for: phone)
        let response = try app.send("PATCH", "/api/v1/me", json: [
            "nickname": "花匠", "avatar_url": "https://cdn.example.com/a.png", "signature": "爱花的人", "gender": "female",
        ], token: token)
        #expect(response.status == 200)
        let me = try app.send("GET", "/api/v1/me", token: token).json
        #expect(me["nickname"] as? String == "花匠")
        #expect(me["avatar_url"] as? String == "https://cdn.example.com/a.png")
        #expect(me["signature"] as? String == "爱花的人")
        #expect(me["gender"] as? String == "female")
    }

    @Test(arguments: [
        (#"{"nickname": 5}"#, "nickname"),
        (#"{"avatar_url": 5}"#, "avatar_url"),
        (#"{"signature": ["a"]}"#, "signature"),
        (#"{"gender": "alien"}"#, "gender"),
        (#"{"nickname": "\#(String(repeating: "花", count: 21))"}"#, "nickname"),
        (#"{"signature": "\#(String(repeating: "s", count: 141))"}"#, "signature"),
        (#"{"avatar_url": "not a url"}"#, "avatar_url"),
    ])
    func aBadFieldIs400NamingIt(_ body: String, _ field: String) throws {
        let app = try TestAPI()
        let token = try app.token(for: phone)
        let before = try app.send("GET", "/api/v1/me", token: token).text
        let response = try app.send("PATCH", "/api/v1/me", json: try JSONSerialization.jsonObject(with: Data(body.utf8)), token: token)
        expectError(response, 400, "validation_failed")
        #expect(response.error["field"] as? String == field)
        #expect(try app.send("GET", "/api/v1/me", token: token).text == before)
    }

    @Test func aMissingGarbageOrRevokedBearerIs401() throws {
        let app = try TestAPI()
        let token = try app.token(for: phone)
        let revoked = try app.token(for: "13900139000")
        #expect(try app.send("POST", "/api/v1/auth/logout", token: revoked).status == 204)

        let attempts: [[(String, String)]] = [
            [],
            [("Authorization", "Bearer garbage")],
            [("Authorization", "Bearer \(revoked)")],
            [("Authorization", "Basic \(token)")],
            [("Authorization", "Bearer")],
            [("Authorization", token)],
        ]
        for headers in attempts {
            for (method, path) in [("GET", "/api/v1/me"), ("PATCH", "/api/v1/me"), ("POST", "/api/v1/auth/logout")] {
                let body: Any? = method == "PATCH" ? ["nickname": "x"] : nil
                expectError(try app.send(method, path, json: body, headers: headers), 401, "unauthorized")
            }
        }
        // Header names are matched whatever their case; the scheme too.
        #expect(try app.send("GET", "/api/v1/me", headers: [("authorization", "bearer \(token)")]).status == 200)
    }
}
