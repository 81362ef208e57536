import Foundation

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

/// Finds the command, handles `help` / `--help`, and turns errors into messages and exit codes.
enum CommandLineTool {
    static let commands: [any Command] = [
        ServeCommand(), MigrateCommand(), DatabaseCopyCommand(), ImportCatalogCommand(), SeedCommand(), OrdersListCommand(), OrdersShowCommand(), OrdersShipCommand(), PaySimulateCommand(), PaymentsReconcileCommand(), RefundsListCommand(), RefundsRetryCommand(),
        CouponsCreateCommand(), CouponsListCommand(), CouponsDisableCommand(),
        AuthorsCommand(grant: true), AuthorsCommand(grant: false), ImportArticlesCommand(),
        CouponsCreateCommand(), CouponsListCommand(), CouponsDisableCommand(),
    ]

    static func run(_ words: [String]) -> Int32 {
        guard let first = words.first, first != "help", first != "--help", first != "-h" else {
            if words.count > 1, let command = find(Array(words.dropFirst())) {
                print(command.0.usage)
            } else if words.count > 1, case let group = commands.filter({ $0.path.count > 1 && $0.path[0] == words[1] }), !group.isEmpty {
                print(group.map(\.usage).joined(separator: "\n\n"))
            } else {
                print(overview)
            }
            return 0
        }
        guard let (command, rest) = find(words) else {
            // A group's name (`shop orders`, `shop pay --help`): the usage of each of its commands.
            let group = commands.filter { $0.path.count > 1 && $0.path[0] == words[0] }
            if !group.isEmpty, words.count == 1 || (words.count == 2 && ["--help", "-h"].contains(words[1])) {
                let text = group.map(\.usage).joined(separator: "\n\n")
                if words.count == 1 {
                    standardError("shop \(words[0]): which one?\n\n" + text)
                    return 2
                }
                print(text)
                return 0
            }
            standardError("shop: unknown command '\(words.joined(separator: " "))'. Run 'shop help' for the list.")
            return 2
        }
        if rest.contains("--help") || rest.contains("-h") {
            print(command.usage)
            return 0
        }
        do {
            return try command.run(Arguments(rest, valued: command.valuedOptions))
        } catch let error as UsageError {
            standardError("shop \(command.path.joined(separator: " ")): \(error.description)\n\n\(command.usage)")
            return 2
        } catch {
            standardError("shop \(command.path.joined(separator: " ")): \(error)")
            return 1
        }
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
            return "  " + name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + command.summary
        }
        return """
            shop: run and operate a Floral Shop backend.

            Usage: shop <command> [options]

            Commands:
            \(lines.joined(separator: "\n"))

            Every command takes --config PATH (default Config/shop.json) and --help.
            Settings can be overridden by SHOP_<SECTION>_<KEY> environment variables.
            """
    }
}

extension Command {
    var valuedOptions: Set<String> { [] }
}

func standardError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
