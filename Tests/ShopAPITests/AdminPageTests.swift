import Foundation
import HTTP
import ShopAPI
import ShopTestSupport
import Testing

/// `GET /admin`, the operators' page: HTML under a strict CSP that no site may frame, its scripts
/// and stylesheet served from `/admin/assets/`, every module it imports present, no inline code.
@Suite("Admin page")
struct AdminPageTests {
    static let policy = ["default-src 'self'", "img-src 'self' data:", "script-src 'self'", "style-src 'self'",
                         "frame-ancestors 'none'", "base-uri 'none'", "form-action 'self'"]

    func directives(_ response: TestResponse) -> [String] {
        (response.headers["Content-Security-Policy"] ?? "").split(separator: ";")
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Every `/admin/assets/…` file the page or a module names (`src=`, `href=`, `from './x.js'`).
    func references(in text: String) throws -> Set<String> {
        var names = Set<String>()
        for pattern in [#"/admin/assets/([A-Za-z0-9._-]+)"#, #"from '\./([A-Za-z0-9._-]+)'"#] {
            let regex = try NSRegularExpression(pattern: pattern)
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let range = Range(match.range(at: 1), in: text) { names.insert(String(text[range])) }
            }
        }
        return names
    }

    @Test func thePageIsHTMLUnderAStrictPolicyThatNoSiteMayFrame() throws {
        let app = try TestAPI()
        let page = try app.send("GET", "/admin")
        #expect(page.status == 200)
        #expect(page.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(directives(page) == Self.policy)
        #expect(page.headers["X-Frame-Options"] == "DENY")
        #expect(page.headers["Referrer-Policy"] == "no-referrer")
        #expect(page.headers["X-Content-Type-Options"] == "nosniff")
        #expect(page.headers["Cache-Control"] == "no-cache")
        #expect(page.text.contains(#"<script type="module" src="/admin/assets/app.js"></script>"#))
        #expect(page.text.contains(#"href="/admin/assets/admin.css""#))
    }

    @Test func thePageCarriesNoInlineScriptOrStyleAndNamesNoOtherHost() throws {
        let app = try TestAPI()
        let html = try app.send("GET", "/admin").text
        let scripts = html.components(separatedBy: "<script").dropFirst()
        #expect(!scripts.isEmpty)
        for script in scripts {
            #expect(script.hasPrefix(" type=\"module\" src=\"/admin/assets/"), "an inline script: <script\(script.prefix(60))")
        }
        #expect(!html.contains("<style"))
        #expect(!html.contains(" style="))
        #expect(!html.contains(" onclick=") && !html.contains(" onload="))
        #expect(!html.contains("http://") && !html.contains("https://"), "the page needs no other host")
    }

    @Test func everyAssetThePageAndItsModulesNameIsServedWithItsTypeAndThePolicy() throws {
        let app = try TestAPI()
        var pending = try references(in: try app.send("GET", "/admin").text)
        var served = Set<String>()
        while let name = pending.popFirst() {
            guard served.insert(name).inserted else { continue }
            let asset = try app.send("GET", "/admin/assets/\(name)")
            #expect(asset.status == 200, "\(name)")
            let ext = (name as NSString).pathExtension
            let type = ["js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8", "svg": "image/svg+xml"][ext]
            #expect(asset.headers["Content-Type"] == type, "\(name)")
            #expect(directives(asset) == Self.policy, "\(name)")
            #expect(asset.headers["X-Frame-Options"] == "DENY", "\(name)")
            if ext == "js" { pending.formUnion(try references(in: asset.text).subtracting(served)) }
        }
        #expect(served.isSuperset(of: ["app.js", "admin.css", "api.js", "i18n.js", "strings.js", "favicon.svg"]))
        #expect(served.count >= 10, "the modules reached from app.js: \(served.sorted())")
    }

    @Test func unknownFilesTraversalAndTheStorefrontsFilesAre404() throws {
        let app = try TestAPI()
        #expect(try app.send("GET", "/admin/assets/nothing.js").status == 404)
        #expect(try app.send("GET", "/admin/assets/..%2F..%2Fopenapi.json").status == 404)
        #expect(try app.send("GET", "/admin/assets/shop.js").status == 404, "the storefront's files are not the desk's")
        #expect(try app.send("GET", "/assets/admin.js").status == 404, "nor the desk's the storefront's")
    }

    @Test func anUnchangedPageAnswers304ToItsETag() throws {
        let app = try TestAPI()
        let page = try app.send("GET", "/admin/assets/app.js")
        let etag = try #require(page.headers["ETag"])
        let again = try app.send("GET", "/admin/assets/app.js", headers: [("If-None-Match", etag)])
        #expect(again.status == 304)
        #expect(again.headers["ETag"] == etag)
        #expect(again.headers["Content-Type"] == nil)
    }

    /// Text from the server (names, comments, reasons) only ever enters the page as text nodes.
    @Test func noScriptWritesHTMLFromStringsOrKeepsTheTokenBeyondTheTab() throws {
        let app = try TestAPI()
        let names = try references(in: try app.send("GET", "/admin").text).filter { $0.hasSuffix(".js") }
        var scripts = [String: String]()
        var pending = Set(names)
        while let name = pending.popFirst() {
            guard scripts[name] == nil else { continue }
            let text = try app.send("GET", "/admin/assets/\(name)").text
            scripts[name] = text
            pending.formUnion(try references(in: text).filter { $0.hasSuffix(".js") && scripts[$0] == nil })
        }
        for (name, script) in scripts {
            for sink in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "setAttribute('style'"] {
                #expect(!script.contains(sink), "\(name) uses \(sink)")
            }
            #expect(!script.contains("localStorage.setItem(TOKEN"), "\(name) keeps the token beyond the tab")
        }
        let api = try #require(scripts["api.js"])
        #expect(api.contains("window.sessionStorage"))
    }

    /// Every label the scripts ask for exists in Chinese and in English.
    @Test func everyLabelTheScriptsUseIsInBothLanguages() throws {
        let app = try TestAPI()
        let strings = try app.send("GET", "/admin/assets/strings.js").text
        let parts = strings.components(separatedBy: "export const en")
        try #require(parts.count == 2)
        func keys(_ text: String) throws -> Set<String> {
            let regex = try NSRegularExpression(pattern: #"(?:^|[\s{,])'?([a-z][a-z0-9_-]*)'?: '"#, options: [.anchorsMatchLines])
            return Set(regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
                Range($0.range(at: 1), in: text).map { String(text[$0]) }
            })
        }
        let chinese = try keys(parts[0]), english = try keys(parts[1])
        #expect(chinese == english, "only in zh: \((chinese.subtracting(english)).sorted()), only in en: \((english.subtracting(chinese)).sorted())")
        let usage = try NSRegularExpression(pattern: #"\bt\('([a-z][a-z0-9_-]*)'"#)
        for name in ["app.js", "dashboard.js", "products.js", "orders.js", "order-detail.js", "service.js", "people.js", "staff.js", "dom.js", "api.js"] {
            let script = try app.send("GET", "/admin/assets/\(name)").text
            for match in usage.matches(in: script, range: NSRange(script.startIndex..., in: script)) {
                guard let range = Range(match.range(at: 1), in: script) else { continue }
                #expect(chinese.contains(String(script[range])), "\(name) asks for the label \(script[range])")
            }
        }
    }
}
