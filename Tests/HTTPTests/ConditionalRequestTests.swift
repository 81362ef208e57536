import HTTP
import Testing

@Suite("Conditional requests: entity tags and If-None-Match (RFC 9110)")
struct ConditionalRequestTests {
    private let tag = EntityTag("a1b2")

    private func request(_ method: String = "GET", ifNoneMatch values: [String]) -> Request {
        var headers = Headers()
        for value in values { headers.add("if-none-match", value) }
        return Request(method: method, path: "/thing", headers: headers)
    }

    private func ok() -> Response {
        var headers = Headers()
        headers.set("Content-Type", "application/json; charset=utf-8")
        headers.set("Cache-Control", "no-cache")
        headers.set("Vary", "Authorization")
        headers.set("Content-Location", "/thing")
        return Response(headers: headers, body: Array("{}".utf8))
    }

    @Test func entityTagsAreSentQuotedAndWeakOnesPrefixed() {
        #expect(EntityTag("xyz").description == "\"xyz\"")
        #expect(EntityTag("xyz", weak: true).description == "W/\"xyz\"")
        #expect(EntityTag("", weak: false).description == "\"\"")
    }

    @Test func aFieldIsParsedAsAListOfTagsOrAStarAlone() {
        #expect(IfNoneMatch(fieldValues: ["\"a\""]) == .tags([EntityTag("a")]))
        #expect(IfNoneMatch(fieldValues: ["W/\"a\", \"b\""]) == .tags([EntityTag("a", weak: true), EntityTag("b")]))
        #expect(IfNoneMatch(fieldValues: [" ,\t\"a\" ,, \"b\" , "]) == .tags([EntityTag("a"), EntityTag("b")]))
        #expect(IfNoneMatch(fieldValues: ["\"a\"", "\"b\""]) == .tags([EntityTag("a"), EntityTag("b")]), "lines combine")
        #expect(IfNoneMatch(fieldValues: ["*"]) == .any)
        #expect(IfNoneMatch(fieldValues: [" * "]) == .any)
        #expect(IfNoneMatch(fieldValues: ["\"a,b\""]) == .tags([EntityTag("a,b")]), "a comma inside quotes is part of the tag")
        #expect(IfNoneMatch(fieldValues: [""]) == .tags([]))
        #expect(IfNoneMatch(fieldValues: ["\"\u{00E9}\""]) == .tags([EntityTag("\u{00E9}")]), "obs-text is allowed")
    }

    @Test func aMalformedFieldIsNotACondition() {
        for malformed in ["a1b2", "\"a1b2", "w/\"a1b2\"", "W/a1b2", "*, \"a1b2\"", "\"a1b2\", *", "\"a1b2\" \"c\"",
                          "\"a1b2\"x", "\"a b\"", "**", "\"a\u{7F}\""] {
            #expect(IfNoneMatch(fieldValues: [malformed]) == nil, "\(malformed)")
        }
    }

    @Test func matchingIsWeakComparison() {
        #expect(IfNoneMatch.tags([EntityTag("a1b2", weak: true)]).matches(tag))
        #expect(IfNoneMatch.tags([EntityTag("a1b2")]).matches(EntityTag("a1b2", weak: true)))
        #expect(IfNoneMatch.tags([EntityTag("zz"), EntityTag("a1b2")]).matches(tag))
        #expect(!IfNoneMatch.tags([EntityTag("A1B2")]).matches(tag), "tags are compared octet by octet")
        #expect(!IfNoneMatch.tags([]).matches(tag))
        #expect(IfNoneMatch.any.matches(tag))
    }

    @Test func aMatchOnGetOrHeadIsA304KeepingValidatorsAndCachingFieldsButNoContentType() {
        for method in ["GET", "HEAD"] {
            let response = Response.conditional(ok(), etag: tag, for: request(method, ifNoneMatch: ["\"zz\", W/\"a1b2\""]))
            #expect(response.status == .notModified)
            #expect(response.body == ok().body, "kept for Content-Length; the server sends none (see the test over a socket)")
            #expect(response.headers["ETag"] == "\"a1b2\"")
            #expect(response.headers["Cache-Control"] == "no-cache")
            #expect(response.headers["Vary"] == "Authorization")
            #expect(response.headers["Content-Location"] == "/thing")
            #expect(response.headers["Content-Type"] == nil)
        }
    }

    @Test func overASocketA304HasNoBodyAndTheContentLengthOfThe200() throws {
        let routes = Routes()
        let body = Array("{\"stock\":5}".utf8)
        routes.group("").get("/thing") { request, _ in
            var headers = Headers()
            headers.set("Content-Type", "application/json")
            headers.set("Cache-Control", "no-cache")
            return Response.conditional(Response(headers: headers, body: body), etag: EntityTag("s5"), for: request)
        }
        try withServer(router: Router(routes)) { server in
            let connection = try RawConnection(port: server.port)
            let full = try connection.request("GET", "/thing")
            #expect(full.status == 200 && full.body == body)
            #expect(full.header("ETag") == "\"s5\"")
            for method in ["GET", "HEAD"] {
                let notModified = try connection.request(method, "/thing", headers: [("If-None-Match", "W/\"s5\"")])
                #expect(notModified.status == 304)
                #expect(notModified.header("ETag") == "\"s5\"")
                #expect(notModified.header("Cache-Control") == "no-cache")
                #expect(notModified.header("Content-Type") == nil)
                #expect(notModified.header("Content-Length") == String(body.count))
                // Had a body followed the 304, this next answer on the same connection would be garbled.
                let next = try connection.request("GET", "/thing")
                #expect(next.status == 200 && next.body == body)
            }
        }
    }

    @Test func otherwiseTheFullResponseGoesOutWithItsETag() {
        let cases: [Request] = [
            request(ifNoneMatch: []),
            request(ifNoneMatch: ["\"other\""]),
            request(ifNoneMatch: ["a1b2"]),
            request("POST", ifNoneMatch: ["\"a1b2\""]),
        ]
        for request in cases {
            let response = Response.conditional(ok(), etag: tag, for: request)
            #expect(response.status == .ok)
            #expect(response.body == Array("{}".utf8))
            #expect(response.headers["ETag"] == "\"a1b2\"")
            #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
        }
        var created = ok()
        created.status = .created
        #expect(Response.conditional(created, etag: tag, for: request(ifNoneMatch: ["*"])).status == .created,
                "only a 200 becomes a 304")
    }
}
