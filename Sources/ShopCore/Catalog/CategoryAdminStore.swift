import SQL

/// SQL of the staff's category edits; every statement runs in a caller's transaction.
struct CategoryAdminStore {
    func find(_ id: CategoryID, _ db: any SQLConnection) throws -> AdminCategory? {
        try db.queryOne("SELECT id, name, parent_id, path FROM categories WHERE id = \(id)").map(Self.category)
    }

    func find(path: String, _ db: any SQLConnection) throws -> AdminCategory? {
        try db.queryOne("SELECT id, name, parent_id, path FROM categories WHERE path = \(path)").map(Self.category)
    }

    /// The category and every category under it, the category first, each with its depth below it.
    func subtree(of id: CategoryID, _ db: any SQLConnection) throws -> [(category: AdminCategory, depth: Int)] {
        try db.query("""
            WITH RECURSIVE tree (id, depth) AS (
                SELECT id, 0 FROM categories WHERE id = \(id)
                UNION ALL
                SELECT c.id, t.depth + 1 FROM categories c JOIN tree t ON c.parent_id = t.id
            )
            SELECT c.id, c.name, c.parent_id, c.path, t.depth FROM categories c JOIN tree t ON t.id = c.id ORDER BY t.depth, c.id
            """).map { (try Self.category($0), Int(try $0.decode("depth", as: Int64.self))) }
    }

    func insert(name: String, parent: CategoryID?, path: String, _ db: any SQLConnection) throws -> CategoryID {
        try db.insert("""
            INSERT INTO categories (name, parent_id, path, position)
            VALUES (\(name), \(parent), \(path), \(try nextPosition(under: parent, db)))
            """, returning: CategoryID.self)
    }

    /// After the last of the parent's children.
    func nextPosition(under parent: CategoryID?, _ db: any SQLConnection) throws -> Int64 {
        try db.scalarInt("SELECT COALESCE(MAX(position) + 1, 0) FROM categories WHERE parent_id IS NOT DISTINCT FROM \(parent)") ?? 0
    }

    func update(_ id: CategoryID, name: String, parent: CategoryID?, position: Int64, _ db: any SQLConnection) throws {
        try db.run("UPDATE categories SET name = \(name), parent_id = \(parent), position = \(position) WHERE id = \(id)")
    }

    func setPath(_ path: String, of id: CategoryID, _ db: any SQLConnection) throws {
        try db.run("UPDATE categories SET path = \(path) WHERE id = \(id)")
    }

    func delete(_ id: CategoryID, _ db: any SQLConnection) throws {
        try db.run("DELETE FROM categories WHERE id = \(id)")
    }

    /// What still refers to the category: its products (any status), child categories and coupons.
    func contents(of id: CategoryID, _ db: any SQLConnection) throws -> (products: Int, children: Int, coupons: Int) {
        let row = try db.queryOne("""
            SELECT (SELECT COUNT(*) FROM products WHERE category_id = \(id)) AS products,
                   (SELECT COUNT(*) FROM categories WHERE parent_id = \(id)) AS children,
                   (SELECT COUNT(*) FROM coupons WHERE category_id = \(id)) AS coupons
            """)
        return (Int(try row?.decode("products", as: Int64.self) ?? 0), Int(try row?.decode("children", as: Int64.self) ?? 0),
                Int(try row?.decode("coupons", as: Int64.self) ?? 0))
    }

    static func category(_ row: Row) throws -> AdminCategory {
        AdminCategory(id: try row.decode("id"), name: try row.decode("name"), parentID: try row.decode("parent_id"),
                      path: try row.decode("path"))
    }
}
