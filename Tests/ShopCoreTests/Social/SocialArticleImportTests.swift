import Foundation
import ShopTestSupport
import Testing
@testable import ShopCore

@Suite("Social article import: validation, all-or-nothing, upserts, the shipped demo")
struct SocialArticleImportTests {
    @Test func aValidFileCreatesArticlesAndASecondRunChangesNothing() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let lines = [
            socialArticleLine(phone: author.phone, title: "插花入门", publishedAt: "2026-11-01T08:00:00Z", category: "花艺课堂"),
            socialArticleLine(phone: "+86" + author.phone, title: "多肉浇水", publishedAt: "2026-11-02T09:30:00Z", category: "多肉"),
        ]
        let first = try fixture.socialImport(lines)
        #expect(first.counts == ArticleImporter.Counts(created: 2, updated: 0, unchanged: 0, invalid: 0))
        #expect(first.issues.isEmpty)
        let second = try fixture.socialImport(lines)
        #expect(second.counts == ArticleImporter.Counts(created: 0, updated: 0, unchanged: 2, invalid: 0))
        #expect(try fixture.shop.articles.categories().map(\.name) == ["花艺课堂", "多肉"])

        let listed = try fixture.shop.articles.articles(by: author.id, page: PageRequest(), viewer: nil).items
        #expect(listed.map(\.title) == ["多肉浇水", "插花入门"])
        #expect(listed.last?.publishedAt == Date(timeIntervalSince1970: 1_793_520_000))

        var changed = lines
        changed[0] = socialArticleLine(phone: author.phone, title: "插花入门", publishedAt: "2026-11-01T08:00:00Z",
                                       category: "花艺课堂", summary: "新的摘要")
        #expect(try fixture.socialImport(changed).counts == ArticleImporter.Counts(created: 0, updated: 1, unchanged: 1, invalid: 0))
    }

    @Test func anUnknownOrNonAuthorPhoneIsReportedByLineAndNothingIsWritten() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let plain = try fixture.socialMember("13800000002")
        let lines = [
            socialArticleLine(phone: author.phone, title: "好文章", category: "花艺课堂"),
            socialArticleLine(phone: "13900000009", title: "无名氏", category: "新分类"),
            socialArticleLine(phone: plain.phone, title: "不是作者", category: "新分类"),
        ]
        do {
            _ = try fixture.socialImport(lines)
            Issue.record("a file with an unknown author was imported")
        } catch ImportError.invalidRows(let issues) {
            #expect(issues.map(\.description) == [
                "line 2: author_phone: no column author has this phone",
                "line 3: author_phone: no column author has this phone",
            ])
        }
        #expect(try fixture.socialCount("articles") == 0)
        #expect(try fixture.socialCount("article_categories") == 0)
    }

    @Test func aBadPublishedAtIsReportedOnItsLine() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let lines = [
            socialArticleLine(phone: author.phone, title: "一", publishedAt: "2026-11-01T08:00:00Z"),
            socialArticleLine(phone: author.phone, title: "二", publishedAt: "yesterday"),
            "",
            socialArticleLine(phone: author.phone, title: "三", publishedAt: "2026-13-45T08:00:00Z"),
        ]
        do {
            _ = try fixture.socialImport(lines)
            Issue.record("a file with a bad published_at was imported")
        } catch ImportError.invalidRows(let issues) {
            #expect(issues.map(\.line) == [2, 4])
            #expect(issues.allSatisfy { $0.column == "published_at" })
            #expect(issues.first?.description.hasPrefix("line 2: published_at: ") == true)
        }
        #expect(try fixture.socialCount("articles") == 0)
    }

    @Test func anInvalidFieldIsReportedUnderItsOwnKey() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let lines = [
            socialArticleLine(phone: author.phone, title: "   "),
            socialArticleLine(phone: author.phone, title: "无正文", content: ""),
            socialArticleLine(phone: author.phone, title: "坏封面", coverURL: "javascript:alert(1)"),
            socialArticleLine(phone: author.phone, title: "无分类", category: ""),
            socialArticleLine(phone: "12345", title: "坏手机"),
        ]
        do {
            _ = try fixture.socialImport(lines)
            Issue.record("a file with invalid fields was imported")
        } catch ImportError.invalidRows(let issues) {
            #expect(issues.map(\.line) == [1, 2, 3, 4, 5])
            #expect(issues.map(\.column) == ["title", "content", "cover_url", "category", "author_phone"])
        }
        #expect(try fixture.socialCount("articles") == 0)
    }

    @Test func skipInvalidImportsTheValidLinesAndCountsTheRest() throws {
        let fixture = try TestShop()
        let author = try fixture.socialAuthor("13800000001")
        let lines = [
            socialArticleLine(phone: author.phone, title: "一"),
            socialArticleLine(phone: "13900000009", title: "二"),
            socialArticleLine(phone: author.phone, title: "三", publishedAt: "not a time"),
            socialArticleLine(phone: author.phone, title: "四"),
        ]
        let outcome = try fixture.socialImport(lines, skipInvalid: true)
        #expect(outcome.counts == ArticleImporter.Counts(created: 2, updated: 0, unchanged: 0, invalid: 2))
        #expect(outcome.issues.map(\.line) == [2, 3])
        #expect(outcome.issues.map(\.column) == ["author_phone", "published_at"])
        let titles = try fixture.shop.articles.articles(by: author.id, page: PageRequest(), viewer: nil).items.map(\.title)
        #expect(Set(titles) == ["一", "四"])
    }

    @Test func theShippedDemoAuthorsAndArticlesLoadWithNoInvalidLine() throws {
        let fixture = try TestShop()
        let examples = Repository.root().appendingPathComponent("Examples")
        let authorsPath = examples.appendingPathComponent("authors.jsonl").path
        let articlesPath = examples.appendingPathComponent("articles.jsonl").path
        let authorLines = try String(contentsOfFile: authorsPath, encoding: .utf8).split(separator: "\n").count
        let articleLines = try String(contentsOfFile: articlesPath, encoding: .utf8).split(separator: "\n").count

        #expect(try fixture.shop.demoAuthors.seed(fileAt: authorsPath) == authorLines)
        let first = try fixture.shop.articleImporter.importFile(at: articlesPath, options: .init())
        #expect(first.issues.isEmpty, "\(first.issues)")
        #expect(first.counts == ArticleImporter.Counts(created: articleLines, updated: 0, unchanged: 0, invalid: 0))
        #expect(articleLines >= 20)

        #expect(try fixture.shop.demoAuthors.seed(fileAt: authorsPath) == 0)
        let second = try fixture.shop.articleImporter.importFile(at: articlesPath, options: .init())
        #expect(second.counts == ArticleImporter.Counts(created: 0, updated: 0, unchanged: articleLines, invalid: 0))
        let authors = try fixture.shop.social.authors(sort: .newest, page: PageRequest(), viewer: nil)
        #expect(authors.total == authorLines)
        #expect(authors.items.allSatisfy { $0.isAuthor && $0.articlesCount > 0 })
        #expect(try !fixture.shop.articles.top(viewer: nil).isEmpty)
    }
}
