/// The shop's migrations, carried inside the binary (generated from `Migrations/` at build time
/// by the EmbedMigrations plugin), so an installed `shop` migrates without a checkout.
public enum ShopMigrations {
    /// The SQLite migrations (`Migrations/sqlite/`): (file stem `NNNN_name`, SQL text), in order.
    public static var sqlite: [(name: String, sql: String)] { EmbeddedMigrations.files["sqlite"] ?? [] }

    /// The PostgreSQL migrations (`Migrations/postgresql/`), same numbers and meaning.
    public static var postgresql: [(name: String, sql: String)] { EmbeddedMigrations.files["postgresql"] ?? [] }
}
