import Localization
import ShopCore

/// `shop authors grant|revoke PHONE`: the column-author role.
struct AuthorsCommand: Command {
    let grant: Bool
    var path: [String] { ["authors", grant ? "grant" : "revoke"] }
    var summary: String { grant ? "make the user with this phone a column author (专栏作家)" : "take the column-author role away" }
    var usage: String {
        grant ? """
            Usage: shop authors grant PHONE [--config PATH]

            Makes the registered user with this phone a column author (专栏作家): they may publish
            articles (which `shop import articles` can also load). Granting it again changes nothing.
            Recorded in the audit log as cli:$USER.
            """ : """
            Usage: shop authors revoke PHONE [--config PATH]

            Takes the column-author role away from the user with this phone; their published
            articles stay. Recorded in the audit log as cli:$USER.
            """
    }

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config"], positionals: 1)
        let config = try ShopEnvironment.config(arguments)
        let shop = try ShopEnvironment.openShop(config, logger: .silent)
        do {
            try shop.moderation.setAuthor(grant, phone: arguments.positionals[0], by: Operator.actor)
        } catch SocialError.userNotFound {
            throw CommandFailure(description: say(zh: "没有手机号为 \(arguments.positionals[0]) 的用户",
                                                  en: "no user has the phone \(arguments.positionals[0])"))
        } catch let error as ValidationError {
            throw UsageError(description: error.message[.ofTerminal])
        }
        let phone = arguments.positionals[0]
        print(grant ? say(zh: "\(phone) 现在是专栏作家", en: "\(phone) is now a column author")
                    : say(zh: "\(phone) 不再是专栏作家", en: "\(phone) is no longer a column author"))
        return 0
    }
}

/// `shop import articles FILE [--dry-run] [--skip-invalid]`.
struct ImportArticlesCommand: Command {
    let path = ["import", "articles"]
    let summary = "import articles from a .jsonl file (upsert by author and title)"
    let usage = """
        Usage: shop import articles FILE [--dry-run] [--skip-invalid] [--config PATH]

        One JSON object per line: author_phone (a column author), title, summary, cover_url,
        content (HTML or Markdown, stored as given), category (created if new), published_at
        (RFC 3339). Every line is checked first; a file with an invalid line writes nothing.
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config"], flags: ["dry-run", "skip-invalid"], positionals: 1)
        let config = try ShopEnvironment.config(arguments)
        let shop = try ShopEnvironment.openShop(config, logger: .silent)
        let options = CatalogImporter.Options(dryRun: arguments.flag("dry-run"), skipInvalid: arguments.flag("skip-invalid"))
        let outcome: ArticleImporter.Outcome
        do {
            outcome = try shop.articleImporter.importFile(at: arguments.positionals[0], options: options)
        } catch ImportError.invalidRows(let issues) {
            issues.forEach { standardError($0.description) }
            throw CommandFailure(description: ImportError.invalidRows(issues).description)
        }
        outcome.issues.forEach { standardError($0.description) }
        Self.printSummary(outcome.counts, dryRun: options.dryRun)
        return 0
    }

    static func printSummary(_ c: ArticleImporter.Counts, dryRun: Bool) {
        if dryRun { print(say(zh: "试运行：未写入任何内容", en: "dry run: nothing was written")) }
        print("articles: created=\(c.created) updated=\(c.updated) unchanged=\(c.unchanged) invalid=\(c.invalid)")
    }
}
