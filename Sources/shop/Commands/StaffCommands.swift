import Foundation
import ShopCore

/// `shop staff add|list|disable|enable|role|password`: the accounts of the operators' desk.
struct StaffCommand: Command {
    enum Verb: String, CaseIterable { case add, list, disable, enable, role, password }
    let verb: Verb
    var path: [String] { ["staff", verb.rawValue] }
    var valuedOptions: Set<String> { verb == .add ? ["role"] : verb == .list ? ["format"] : [] }

    var summary: String {
        switch verb {
        case .add: "create a staff account (owner, manager, florist or service) and print its password"
        case .list: "list staff accounts with their roles"
        case .disable: "disable a staff account: its sign-ins stop working at once"
        case .enable: "enable a disabled staff account again"
        case .role: "change a staff account's role"
        case .password: "set a new password for a staff account (signs it out everywhere)"
        }
    }

    var usage: String {
        switch verb {
        case .add:
            """
            Usage: shop staff add USERNAME --role owner|manager|florist|service [--password-stdin] [--config PATH]

            USERNAME: 3 to 32 lower-case letters, digits, ., - or _, starting with a letter. Prints a
            one-time password (20 characters) to hand over; with --password-stdin the first line of
            standard input is the password instead (10 to 128 characters). Staff sign in at /admin.
            Roles: owner (everything, staff included), manager (catalogue, orders, refunds,
            after-sale, coupons, moderation, reports), florist (orders and deliveries), service
            (orders, cancels and refunds, after-sale, buyers, moderation).
            """
        case .list: "Usage: shop staff list [--format table|csv|json] [--config PATH]"
        case .disable:
            """
            Usage: shop staff disable USERNAME [--config PATH]

            Every token of the account stops working at once; the last enabled owner cannot be disabled.
            """
        case .enable: "Usage: shop staff enable USERNAME [--config PATH]"
        case .role: "Usage: shop staff role USERNAME owner|manager|florist|service [--config PATH]"
        case .password:
            """
            Usage: shop staff password USERNAME [--password-stdin] [--config PATH]

            Prints a new one-time password (or takes the first line of standard input with
            --password-stdin) and signs the account out everywhere.
            """
        }
    }

    func run(_ arguments: Arguments) throws -> Int32 {
        let positionals = [Verb.list: 0, .role: 2][verb] ?? 1
        try arguments.allow(options: valuedOptions.union(["config"]), flags: verb == .add || verb == .password ? ["password-stdin"] : [],
                            positionals: positionals)
        let role = try Self.role(verb == .add ? arguments.option("role") : verb == .role ? arguments.positionals[1] : "owner",
                                 option: verb == .add ? "--role" : "ROLE")
        let format = try OutputFormat(arguments.option("format"))
        let password = arguments.flag("password-stdin") ? try Self.readPassword() : nil
        let config = try ShopEnvironment.config(arguments)
        let shop = try ShopEnvironment.openShop(config, logger: .silent)
        let name = arguments.positionals.first ?? ""
        try StaffFailure.reporting {
            switch verb {
            case .add:
                let added = try shop.staff.add(username: name, role: role, password: password, by: Operator.actor)
                print(Self.table([added.member]))
                if password == nil {
                    print(say(zh: "一次性密码（只显示这一次）：\(added.password)", en: "one-time password (shown once): \(added.password)"))
                }
            case .list:
                let members = try shop.staff.list()
                print(format.render(header: ["USERNAME", "ROLE", "STATE", "CREATED"], rows: members.map(Self.row)), terminator: "")
            case .disable, .enable:
                print(Self.table([try shop.staff.setDisabled(name, verb == .disable, by: Operator.actor)]))
            case .role:
                print(Self.table([try shop.staff.setRole(name, to: role, by: Operator.actor)]))
            case .password:
                let chosen = try shop.staff.setPassword(name, password, by: Operator.actor)
                if password == nil {
                    print(say(zh: "新的一次性密码（只显示这一次）：\(chosen)", en: "new one-time password (shown once): \(chosen)"))
                } else {
                    print(say(zh: "已设置 \(name.lowercased()) 的新密码", en: "new password set for \(name.lowercased())"))
                }
            }
        }
        return 0
    }

    static func role(_ text: String?, option: String) throws -> StaffRole {
        guard let text, let role = StaffRole(rawValue: text) else {
            throw UsageError(description: say(zh: "\(option) 必须是 owner、manager、florist 或 service",
                                              en: "\(option) must be owner, manager, florist or service"))
        }
        return role
    }

    /// The first line of standard input, without its line break.
    static func readPassword() throws -> String {
        guard let line = readLine(strippingNewline: true), !line.isEmpty else {
            throw UsageError(description: say(zh: "--password-stdin：标准输入没有密码", en: "--password-stdin: standard input held no password"))
        }
        return line
    }

    static func row(_ member: StaffMember) -> [String] {
        [member.username, member.role.rawValue, member.isDisabled ? "disabled" : "active",
         ShopTime.minute(Date(timeIntervalSince1970: TimeInterval(member.createdAt)))]
    }

    static func table(_ members: [StaffMember]) -> String {
        Table.render(header: ["USERNAME", "ROLE", "STATE", "CREATED"], rows: members.map(row))
    }
}

/// Staff errors worded for an operator (exit 1).
enum StaffFailure {
    static func reporting<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ValidationError {
            throw CommandFailure(description: error.message[.ofTerminal])
        } catch let error as StaffError {
            switch error {
            case .usernameTaken(let name): throw CommandFailure(description: say(zh: "用户名 \(name) 已被使用", en: "the username \(name) is taken"))
            case .notFound(let name): throw CommandFailure(description: say(zh: "没有用户名为 \(name) 的员工", en: "no staff member is named \(name)"))
            case .lastOwner: throw CommandFailure(description: say(zh: "店里至少要有一位启用的店主", en: "the shop must keep at least one enabled owner"))
            case .forbidden, .invalidCredentials: throw CommandFailure(description: "\(error)")
            }
        }
    }
}
