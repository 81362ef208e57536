import SQL

/// The staff's category edits (`/admin/categories`, `shop categories …`): a category's path
/// (`花束/玫瑰`, what the import names it by) follows its name and place, down its whole subtree.
extension CatalogAdminService {
    /// Every category, by path.
    public func categories() throws -> [AdminCategory] {
        try pool.read { db in try db.query("SELECT id, name, parent_id, path FROM categories ORDER BY path").map(CategoryAdminStore.category) }
    }

    /// The category at `path` (`花束/郁金相`); unknown: `categoryNotFound`.
    public func category(path: String) throws -> AdminCategory {
        guard let category = try pool.read({ db in try categoryStore.find(path: path, db) }) else { throw CatalogError.categoryNotFound }
        return category
    }

    /// A new category at the end of its parent's (`category.create`).
    public func createCategory(name rawName: String, parent: CategoryID?, by actor: StaffActor) throws -> AdminCategory {
        let name = try CatalogAdminRules.categoryName(rawName)
        let now = clock.unixNow
        return try pool.write { db in
            var path = name
            if let parent {
                guard let above = try categoryStore.find(parent, db) else { throw CatalogAdminError.unknownCategory(field: "parent_id") }
                guard Self.depth(of: above.path) < CatalogAdminRules.maxCategoryDepth else {
                    throw CatalogAdminError.categoryTooDeep(max: CatalogAdminRules.maxCategoryDepth)
                }
                path = above.path + "/" + name
            }
            if try categoryStore.find(path: path, db) != nil { throw CatalogAdminError.categoryExists(path: path) }
            let id = try categoryStore.insert(name: name, parent: parent, path: path, db)
            guard let after = try categoryStore.find(id, db) else { throw CatalogError.categoryNotFound }
            try audit.record(actor, "category.create", target: "category:\(id)", after: after, at: now, db)
            return after
        }
    }

    /// Renames and/or moves a category (`category.update`); the paths of everything under it follow.
    /// It cannot move under itself or a descendant, nor deeper than the import allows.
    public func updateCategory(_ id: CategoryID, _ changes: CategoryChanges, by actor: StaffActor) throws -> AdminCategory {
        let name = try changes.name.map(CatalogAdminRules.categoryName)
        let now = clock.unixNow
        return try pool.write { db in
            guard let before = try categoryStore.find(id, db) else { throw CatalogError.categoryNotFound }
            let subtree = try categoryStore.subtree(of: id, db)
            let parent = changes.parent ?? before.parentID
            var prefix = ""
            if let parent {
                if subtree.contains(where: { $0.category.id == parent }) { throw CatalogAdminError.categoryCycle }
                guard let above = try categoryStore.find(parent, db) else { throw CatalogAdminError.unknownCategory(field: "parent_id") }
                prefix = above.path + "/"
            }
            let newName = name ?? before.name
            let newPath = prefix + newName
            let deepest = subtree.map(\.depth).max() ?? 0
            guard Self.depth(of: newPath) + deepest <= CatalogAdminRules.maxCategoryDepth else {
                throw CatalogAdminError.categoryTooDeep(max: CatalogAdminRules.maxCategoryDepth)
            }
            let inSubtree = Set(subtree.map(\.category.id))
            let paths = subtree.map { node in (node.category.id, newPath + node.category.path.dropFirst(before.path.count)) }
            for (_, path) in paths {
                if let holder = try categoryStore.find(path: path, db), !inSubtree.contains(holder.id) {
                    throw CatalogAdminError.categoryExists(path: path)
                }
            }
            let moved = parent != before.parentID
            let position = moved ? try categoryStore.nextPosition(under: parent, db) : try db.scalarInt(
                "SELECT position FROM categories WHERE id = \(id)") ?? 0
            try categoryStore.update(id, name: newName, parent: parent, position: position, db)
            for (node, path) in paths { try categoryStore.setPath(path, of: node, db) }
            guard let after = try categoryStore.find(id, db) else { throw CatalogError.categoryNotFound }
            try audit.record(actor, "category.update", target: "category:\(id)", before: before, after: after, at: now, db)
            return after
        }
    }

    /// Deletes an empty category (`category.delete`): one that still holds products (on sale or
    /// not), categories or coupons is `categoryNotEmpty`.
    public func deleteCategory(_ id: CategoryID, by actor: StaffActor) throws {
        let now = clock.unixNow
        try pool.write { db in
            guard let before = try categoryStore.find(id, db) else { throw CatalogError.categoryNotFound }
            let contents = try categoryStore.contents(of: id, db)
            guard contents == (0, 0, 0) else {
                throw CatalogAdminError.categoryNotEmpty(products: contents.products, children: contents.children, coupons: contents.coupons)
            }
            try categoryStore.delete(id, db)
            try audit.record(actor, "category.delete", target: "category:\(id)", before: before, at: now, db)
        }
    }

    /// Levels of a path: `花束/玫瑰` is 2.
    static func depth(of path: String) -> Int {
        path.split(separator: "/", omittingEmptySubsequences: false).count
    }
}
