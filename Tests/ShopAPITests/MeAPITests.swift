import Foundation
import HTTP
@testable import ShopAPI
import ShopTestSupport
import Testing

@Suite("API: /me")
struct MeAPITests {
    let phone = "13800138000"

    @Test func meAnswersExactlyTheDocumentedUserFields() throws {
        let app = try TestAPI()
        let registered = try app.register(phone, nickname: "小花")
        let session = try registered.decode(SessionResponse.self)
        let token = session.token
        let response = try app.send("GET", "/api/v1/me", token: token)
        #expect(response.status == 200)
        #expect(response.keys == ["id", "phone", "nickname", "avatar_url", "signature", "gender", "is_author", "created_at"])
        let user = try response.decode(UserResponse.self)
        #expect(user.id == session.user.id)
        #expect(user.phone == "138****8000")
        #expect(user.nickname == "小花")
        #expect(user.avatarURL == "")
        #expect(user.signature == "")
        #expect(user.gender == .unknown)
        #expect(user.isAuthor == false)
        #expect(user.createdAt == rfc3339("2026-11-30T08:00:00Z"))
        #expect(response.text.contains("\"created_at\":\"2026-11-30T08:00:00Z\""))
        #expect(response.text.contains("\"is_author\":false"))
    }

    @Test func patchMeChangesOnlyTheAllowListedFields() throws {
        let app = try TestAPI()
        let token = try app.token(for: phone)
        let before = try app.send("GET", "/api/v1/me", token: token).decode(UserResponse.self)

        let response = try app.send("PATCH", "/api/v1/me", json: [
            "id": 999, "phone": "13900139000", "is_author": true, "created_at": "2000-01-01T00:00:00Z",
            "password_hash": "x", "nickname": "新名字",
        ], token: token)
        #expect(response.status == 200)
        let after = try app.send("GET", "/api/v1/me", token: token).decode(UserResponse.self)
        let answered = try response.decode(UserResponse.self)
        #expect(after.nickname == "新名字")
        #expect(answered.nickname == "新名字")
        for (user, place) in [(answered, "the answer"), (after, "the database")] {
            #expect(user.id == before.id, "id changed in \(place)")
            #expect(user.phone == before.phone, "phone changed in \(place)")
            #expect(user.isAuthor == before.isAuthor, "is_author changed in \(place)")
            #expect(user.createdAt == before.createdAt, "created_at changed in \(place)")
            #expect(user.avatarURL == before.avatarURL, "avatar_url changed in \(place)")
            #expect(user.signature == before.signature, "signature changed in \(place)")
            #expect(user.gender == before.gender, "gender changed in \(place)")
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
        let me = try app.send("GET", "/api/v1/me", token: token).decode(UserResponse.self)
        #expect(me.nickname == "花匠")
        #expect(me.avatarURL == "https://cdn.example.com/a.png")
        #expect(me.signature == "爱花的人")
        #expect(me.gender == .female)
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
        // Untyped on purpose: the request body is the test's raw text, a field of the wrong type included.
        let response = try app.send("PATCH", "/api/v1/me", json: try JSONSerialization.jsonObject(with: Data(body.utf8)), token: token)
        expectError(response, 400, "validation_failed")
        #expect(response.error?.field == field)
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
