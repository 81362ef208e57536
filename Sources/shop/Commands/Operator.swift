import Foundation
import Localization
import ShopCore

/// The operator's side of a command: the language of its messages (`LC_ALL`, `LC_MESSAGES`,
/// `LANG`: Chinese for `zh*`) and whether `-v` asked what it uses.
enum Operator {
    /// Set once by `CommandLineTool.run` before any command runs.
    nonisolated(unsafe) static var verbose = false
}

/// `zh` under a Chinese locale, else `en`.
func say(zh: String, en: String) -> String {
    Language.ofTerminal == .chinese ? zh : en
}

/// A line on standard error when `-v` was given.
func verbose(_ line: String) {
    if Operator.verbose { standardError(line) }
}

extension Operator {
    /// Who the audit log names for a write from the command line: `cli:` and the system user.
    static var actor: StaffActor {
        let environment = ProcessInfo.processInfo.environment
        return .commandLine(user: environment["SUDO_USER"] ?? environment["USER"] ?? environment["LOGNAME"] ?? "operator")
    }
}
