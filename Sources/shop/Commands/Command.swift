import Foundation
import Localization
import ShopBundle

/// One subcommand of `shop`.
protocol Command: Sendable {
    /// The words that select it (`["import", "catalog"]`).
    var path: [String] { get }
    var summary: String { get }
    /// Usage lines and options, shown by `--help` and on a usage error.
    var usage: String { get }
    /// Options that take a value (`--port 8080`); `--config` always does.
    var valuedOptions: Set<String> { get }
    func run(_ arguments: Arguments) throws -> Int32
}

/// A mistake in how the command was called (exit 2).
struct UsageError: Error, CustomStringConvertible {
    let description: String
}

/// A failure the command reports (exit 1).
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
}

/// Finds the command, handles `help` / `--help` / `--version` / `-v`, and turns errors into
/// messages and exit codes.
enum CommandLineTool {
    static let commands: [any Command] = [
        ServeCommand(), MigrateCommand(), SeedCommand(), DatabaseCopyCommand(), ImportCatalogCommand(), ImportArticlesCommand(),
        OrdersListCommand(), OrdersShowCommand(), OrdersShipCommand(), OrdersDeliverCommand(), OrdersCancelCommand(),
        OrdersRefundCommand(), PaySimulateCommand(), PaymentsReconcileCommand(),
        RefundsListCommand(), RefundsRetryCommand(), NotificationsListCommand(), NotificationsRetryCommand(),
        CouponsCreateCommand(), CouponsListCommand(), CouponsDisableCommand(),
        ProductsListCommand(), ProductsSetCommand(), ProductsExportCommand(),
        CategoriesListCommand(), CategoriesRenameCommand(), CategoriesMoveCommand(), CategoriesDeleteCommand(),
        AuthorsCommand(grant: true), AuthorsCommand(grant: false),
        StaffCommand(verb: .add), StaffCommand(verb: .list), StaffCommand(verb: .disable), StaffCommand(verb: .enable),
        StaffCommand(verb: .role), StaffCommand(verb: .password),
        UsersBanCommand(ban: true), UsersBanCommand(ban: false), SalesCommand(),
        ZonesImportCommand(), ZonesListCommand(),
    ]

    static func run(_ arguments: [String]) -> Int32 {
        // `-v` (or `--verbose`) anywhere: say which config and database the command uses.
        Operator.verbose = arguments.contains("-v") || arguments.contains("--verbose")
        let words = arguments.filter { $0 != "-v" && $0 != "--verbose" }
        if words == ["--version"] || words == ["version"] {
            print("shop \(ShopBundle.version)")
            return 0
        }
        guard let first = words.first, first != "help", first != "--help", first != "-h" else {
            let asked = Array(words.dropFirst())
            if asked.isEmpty {
                print(overview)
            } else if let (command, rest) = find(asked), rest.isEmpty {
                print(command.localizedUsage)
            } else if case let group = self.group(asked[0]), asked.count == 1, !group.isEmpty {
                print(group.map(\.localizedUsage).joined(separator: "\n\n"))
            } else {
                standardError(unknown(asked))
                return 2
            }
            return 0
        }
        guard let (command, rest) = find(words) else {
            // A group's name (`shop orders`, `shop pay --help`): the usage of each of its commands.
            let group = self.group(words[0])
            if !group.isEmpty, words.count == 1 || (words.count == 2 && ["--help", "-h"].contains(words[1])) {
                let text = group.map(\.localizedUsage).joined(separator: "\n\n")
                if words.count == 1 {
                    standardError(say(zh: "shop \(words[0])：要运行哪一个？", en: "shop \(words[0]): which one?") + "\n\n" + text)
                    return 2
                }
                print(text)
                return 0
            }
            standardError(unknown(words))
            return 2
        }
        if rest.contains("--help") || rest.contains("-h") {
            print(command.localizedUsage)
            return 0
        }
        let name = "shop " + command.path.joined(separator: " ")
        do {
            return try command.run(Arguments(rest, valued: command.valuedOptions))
        } catch let error as UsageError {
            standardError("\(name): \(error.description)\n\n\(command.localizedUsage)")
            return 2
        } catch {
            standardError("\(name): \(error)")
            return 1
        }
    }

    static func unknown(_ words: [String]) -> String {
        say(zh: "shop：没有“\(words.joined(separator: " "))”这个命令。运行 `shop help` 查看命令列表。",
            en: "shop: unknown command '\(words.joined(separator: " "))'. Run 'shop help' for the list.")
    }

    /// The commands under a first word (`coupons`), in the order of the list.
    static func group(_ word: String) -> [any Command] {
        commands.filter { $0.path.count > 1 && $0.path[0] == word }
    }

    /// The longest command path that prefixes `words`, and the remaining words.
    static func find(_ words: [String]) -> (any Command, [String])? {
        commands
            .filter { words.starts(with: $0.path) }
            .max { $0.path.count < $1.path.count }
            .map { ($0, Array(words.dropFirst($0.path.count))) }
    }

    static var overview: String {
        let width = commands.map { $0.path.joined(separator: " ").count }.max() ?? 10
        let lines = commands.map { command -> String in
            let name = command.path.joined(separator: " ")
            return "  " + name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + command.localizedSummary
        }
        return say(zh: """
            shop \(ShopBundle.version)：运行和管理花店后端。

            用法：shop <命令> [选项]

            命令：
            \(lines.joined(separator: "\n"))

            每个命令都接受 --config PATH（默认为当前目录下的 Config/shop.json，没有则用内置默认值）、
            --help 和 -v（说明所用的配置和数据库）。SHOP_<SECTION>_<KEY> 环境变量可覆盖设置。
            除 migrate、serve、seed 外，命令不会新建数据库：找不到时以退出码 1 报告查找的位置。
            shop help <命令> 查看一个命令的说明；shop --version 显示版本。
            退出码：0 成功，1 失败，2 用法错误。消息语言跟随 LC_ALL / LC_MESSAGES / LANG（zh* 为中文）。
            """, en: """
            shop \(ShopBundle.version): run and operate a Floral Shop backend.

            Usage: shop <command> [options]

            Commands:
            \(lines.joined(separator: "\n"))

            Every command takes --config PATH (default Config/shop.json in the current folder, else
            built-in defaults), --help and -v (say which config and database it uses). Settings can be
            overridden by SHOP_<SECTION>_<KEY> environment variables. No command but migrate, serve
            and seed creates a database: the others exit 1 naming the path they looked for.
            shop help <command> explains one command; shop --version prints the version.
            Exit codes: 0 success, 1 failure, 2 wrong usage. Messages follow LC_ALL / LC_MESSAGES /
            LANG (zh*: Chinese).
            """)
    }
}

extension Command {
    var valuedOptions: Set<String> { [] }

    /// The summary in the operator's language (`ChineseHelp` holds the Chinese).
    var localizedSummary: String {
        Language.ofTerminal == .chinese ? ChineseHelp.summaries[path.joined(separator: " ")] ?? summary : summary
    }

    /// The usage in the operator's language.
    var localizedUsage: String {
        Language.ofTerminal == .chinese ? ChineseHelp.usages[path.joined(separator: " ")] ?? usage : usage
    }
}

func standardError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
