import HTTP
import ShopCore

/// `GET /share/products/{id}` and `/share/articles/{id}`: the small HTML page a chat app fetches
/// for a link preview (Open Graph tags: title, description, image, price) and a person lands on,
/// with a link into the storefront. Unknown, off-sale and unpublished items are 404 (an HTML page
/// for a client that accepts HTML, else the API's error shape). Every text
/// from the catalogue is HTML-escaped; every link and image is absolute (previews need that),
/// under `app.public_url` (in development without it, the address the request came to).
struct ShareController {
    let catalog: CatalogService
    let articles: ArticleService
    let origin: ShopOrigin
    /// Whether `/media/` draws PNGs from the shop's SVG pictures (libvips is there).
    var drawsSVG = false

    /// Previews are fetched by chat apps' crawlers, again and again: a few minutes' copy is fine
    /// (a price moves the body, so the tag, too). Shared caches may keep it only when its links
    /// are `app.public_url`'s, not ones a request's `Host` chose.
    var cacheControl: String { origin.followsRequests ? "private, max-age=300" : "public, max-age=300" }
    static let siteName = "花田小憩"
    /// A description is cut here (chat apps show two lines at most).
    static let descriptionLength = 120

    func register(_ routes: RouteGroup) {
        routes.get("/share/products/:id", use: product).get("/share/articles/:id", use: article)
    }

    func product(_ request: Request, _ context: Context) throws -> Response {
        guard let id = try? request.idParameter() else { return try notFound(request, CatalogError.productNotFound) }
        let detail: ProductDetail
        do { detail = try catalog.product(ProductID(id)) } catch CatalogError.productNotFound {
            return try notFound(request, CatalogError.productNotFound)
        }
        let base = baseURL(request)
        let summary = detail.summary
        let description = summary.subtitle.isEmpty ? detail.description : summary.subtitle
        return page(request, Page(
            kind: "product", title: summary.title, description: description,
            image: absolute(previewable(summary.coverURL), base), url: "\(base)/share/products/\(id)",
            target: "/#/product/\(id)", price: Money.yuan(fromCents: summary.priceCents), byline: nil))
    }

    func article(_ request: Request, _ context: Context) throws -> Response {
        guard let id = try? request.idParameter() else { return try notFound(request, SocialError.articleNotFound) }
        let article: Article
        do { article = try articles.preview(ArticleID(id)) } catch SocialError.articleNotFound {
            return try notFound(request, SocialError.articleNotFound)
        }
        let base = baseURL(request)
        return page(request, Page(
            kind: "article", title: article.title, description: article.summary,
            image: absolute(previewable(article.coverURL), base), url: "\(base)/share/articles/\(id)",
            target: "/#/article/\(id)", price: nil, byline: article.author.nickname))
    }

    /// A picture messengers show: an SVG of the shop's own as the PNG `/media/` draws from it (when
    /// pictures can be drawn), anything else as it is.
    func previewable(_ url: String) -> String {
        guard drawsSVG, url.hasPrefix(MediaPath.prefix), url.hasSuffix(".svg"), MediaPath.segments(of: url) != nil else { return url }
        return String(url.dropLast(4)) + ".png"
    }

    /// What one preview shows.
    struct Page {
        let kind: String
        let title: String
        let description: String
        let image: String?
        let url: String
        let target: String
        let price: String?
        let byline: String?
    }

    static func html(_ page: Page) -> String {
        let title = HTMLText.escape(page.title)
        let description = HTMLText.escape(String(page.description.prefix(descriptionLength)))
        var meta = [
            ("og:type", page.kind == "product" ? "product" : "article"), ("og:site_name", siteName),
            ("og:title", page.title), ("og:description", String(page.description.prefix(descriptionLength))),
            ("og:url", page.url),
        ]
        if let image = page.image { meta.append(("og:image", image)) }
        if let price = page.price { meta += [("product:price:amount", price), ("product:price:currency", "CNY")] }
        let tags = meta.map { "<meta property=\"\($0.0)\" content=\"\(HTMLText.escape($0.1))\">" }.joined(separator: "\n")
        let image = page.image.map { "<img src=\"\(HTMLText.escape($0))\" alt=\"\">" } ?? ""
        let price = page.price.map { "<p class=\"price\">¥\(HTMLText.escape($0))</p>" } ?? ""
        let byline = page.byline.map { "<p class=\"byline\">\(HTMLText.escape($0))</p>" } ?? ""
        return """
            <!doctype html>
            <html lang="zh-CN">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title) · \(siteName)</title>
            <meta name="description" content="\(description)">
            \(tags)
            <link rel="canonical" href="\(HTMLText.escape(page.url))">
            <link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
            <link rel="stylesheet" href="/assets/share.css">
            </head>
            <body>
            <main class="share">
            \(image)
            <h1>\(title)</h1>
            \(byline)<p class="description">\(description)</p>
            \(price)<a class="open" href="\(HTMLText.escape(page.target))">在\(siteName)打开</a>
            </main>
            </body>
            </html>

            """
    }

    private func page(_ request: Request, _ page: Page) -> Response {
        let representation = Representation(body: Array(Self.html(page).utf8))
        var headers = Self.headers
        headers.set("Cache-Control", cacheControl)
        origin.addVary(to: &headers)
        return .conditional(Response(status: .ok, headers: headers, body: representation.body),
                            etag: representation.etag, for: request)
    }

    /// A browser (or a crawler) that asks for HTML gets a small page pointing to the shop; any
    /// other client the API's error shape, by throwing `error`.
    private func notFound(_ request: Request, _ error: any Error) throws -> Response {
        guard request.headers["Accept"]?.contains("text/html") == true else { throw error }
        let body = """
            <!doctype html>
            <html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>找不到了 · \(Self.siteName)</title><link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
            <link rel="stylesheet" href="/assets/share.css"></head>
            <body><main class="share"><h1>找不到了</h1><p class="description">这件商品或文章已下架或不存在。</p>
            <a class="open" href="/#/shop">去\(Self.siteName)逛逛</a></main></body></html>

            """
        var headers = Self.headers
        headers.set("Cache-Control", "no-cache")
        return Response(status: .notFound, headers: headers, body: Array(body.utf8))
    }

    private static var headers: Headers {
        var headers = Headers()
        headers.set("Content-Type", "text/html; charset=utf-8")
        headers.set("X-Content-Type-Options", "nosniff")
        headers.set("Content-Security-Policy", "default-src 'none'; img-src 'self' https: data:; style-src 'self'; frame-ancestors 'none'")
        return headers
    }

    /// The shop's origin (see `ShopOrigin`), else `http://localhost`.
    private func baseURL(_ request: Request) -> String {
        origin.origin(for: request) ?? "http://localhost"
    }

    /// An image URL as a preview needs it: absolute; nil when there is none.
    private func absolute(_ url: String, _ base: String) -> String? {
        if url.isEmpty { return nil }
        if url.hasPrefix("https://") || url.hasPrefix("http://") { return url }
        if url.hasPrefix("/") && !url.hasPrefix("//") { return base + url }
        return nil
    }
}

/// Text made safe inside HTML elements and double-quoted attributes.
enum HTMLText {
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
