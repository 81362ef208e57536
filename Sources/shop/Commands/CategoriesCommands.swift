import Foundation
import Localization
import ShopCore

/// `shop categories list`: every category by path, with its id.
struct CategoriesListCommand: Command {
    let path = ["categories", "list"]
    let summary = "list the categories by path, with their ids"
    let usage = """
        Usage: shop categories list [--config PATH]

        The paths are what `shop import catalog` and the other categories commands name a category by.
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config"])
        let shop = try ShopEnvironment.openShop(try ShopEnvironment.config(arguments), logger: .silent)
        let categories = try shop.catalogAdmin.categories()
        print(Table.render(header: ["ID", "PATH"], rows: categories.map { [String($0.id.rawValue), $0.path] }))
        return 0
    }
}

/// `shop categories rename PATH NAME`: a new name (the paths under it follow); audited.
struct CategoriesRenameCommand: Command {
    let path = ["categories", "rename"]
    let summary = "rename a category (the paths of the categories under it follow)"
    let usage = """
        Usage: shop categories rename PATH NAME [--config PATH]

        PATH names the category as the import does (花束/郁金相); NAME is its new last level (郁金香),
        up to 30 characters without a /. Products keep their category. Written to the audit log as cli:$USER.
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config"], positionals: 2)
        let shop = try ShopEnvironment.openShop(try ShopEnvironment.config(arguments), logger: .silent)
        let admin = shop.catalogAdmin
        let changed = try CatalogFailure.reporting {
            let category = try admin.category(path: arguments.positionals[0])
            return try admin.updateCategory(category.id, CategoryChanges(name: arguments.positionals[1]), by: Operator.actor)
        }
        print(say(zh: "分类现在是 \(changed.path)", en: "the category is now \(changed.path)"))
        return 0
    }
}

/// `shop categories move PATH (PARENT_PATH | --top)`: a new place in the tree; audited.
struct CategoriesMoveCommand: Command {
    let path = ["categories", "move"]
    let summary = "move a category under another one, or to the top level"
    let usage = """
        Usage: shop categories move PATH PARENT_PATH [--config PATH]
               shop categories move PATH --top [--config PATH]

        Moves the category (and everything under it) under PARENT_PATH, or to the top level with
        --top. It cannot move under itself or a category under it, nor deeper than 5 levels.
        Written to the audit log as cli:$USER.
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        let top = arguments.flag("top")
        try arguments.allow(options: ["config"], flags: ["top"], positionals: top ? 1 : 2)
        let shop = try ShopEnvironment.openShop(try ShopEnvironment.config(arguments), logger: .silent)
        let admin = shop.catalogAdmin
        let changed = try CatalogFailure.reporting {
            let category = try admin.category(path: arguments.positionals[0])
            let parent = top ? nil : try admin.category(path: arguments.positionals[1]).id
            return try admin.updateCategory(category.id, CategoryChanges(parent: .some(parent)), by: Operator.actor)
        }
        print(say(zh: "分类现在是 \(changed.path)", en: "the category is now \(changed.path)"))
        return 0
    }
}

/// `shop categories delete PATH`: an empty category; audited.
struct CategoriesDeleteCommand: Command {
    let path = ["categories", "delete"]
    let summary = "delete an empty category"
    let usage = """
        Usage: shop categories delete PATH [--config PATH]

        Refused while the category holds products (on sale or not), categories or coupons: move or
        delete them first. Written to the audit log as cli:$USER.
        """

    func run(_ arguments: Arguments) throws -> Int32 {
        try arguments.allow(options: ["config"], positionals: 1)
        let shop = try ShopEnvironment.openShop(try ShopEnvironment.config(arguments), logger: .silent)
        let admin = shop.catalogAdmin
        try CatalogFailure.reporting {
            try admin.deleteCategory(try admin.category(path: arguments.positionals[0]).id, by: Operator.actor)
        }
        print(say(zh: "已删除分类 \(arguments.positionals[0])", en: "deleted the category \(arguments.positionals[0])"))
        return 0
    }
}
