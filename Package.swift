// swift-tools-version:6.0
import PackageDescription

// Floral Shop: only the toolchain and Debian's C libraries (see ../shared/DESIGN.md).
let package = Package(
    name: "FloralShop",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "shop", targets: ["shop"]),
    ],
    targets: [
        // Thin C bindings: a module map and a shim header each, nothing else.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CArgon2", pkgConfig: "libargon2", providers: [.apt(["libargon2-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),

        // Swift wrappers: the only targets that import a C module.
        .target(name: "Crypto", dependencies: ["COpenSSL", "CArgon2"]),
        // libcurl for the one call URLSession on Linux cannot make: WeChat Pay's refund, with the merchant's client certificate.
        .target(name: "CurlClient", dependencies: ["CCurl"]),
        // The engine-neutral face of storage: the SQL value (interpolation binds), values and rows.
        // Bounded executors for slow work and the request thread's "offload me" signal: no dependencies,
        // so the HTTP server, the database pools and the shop's services share them.
        .target(name: "Bulkheads"),
        .target(name: "SQL", dependencies: ["Crypto", "Bulkheads"]),
        // The FTS5 tokenizer behind product search (one C file): every substring findable, from one character.
        .target(name: "CSQLiteGrams", dependencies: ["CSQLite"]),
        .target(name: "SQLite", dependencies: ["CSQLite", "CSQLiteGrams", "SQL", "Crypto", "Bulkheads"]),
        .target(name: "PostgreSQL", dependencies: ["CLibPQ", "SQL", "Bulkheads"]),
        // Counters and histograms in the Prometheus text format: no dependencies, so any target may count.
        .target(name: "Metrics"),
        // Messages in Simplified Chinese and English, and the language a request asks for: no dependencies.
        .target(name: "Localization"),
        .target(name: "HTTP", dependencies: ["CMicroHTTPD", "Metrics", "Localization", "Bulkheads"]),

        // The migrations inside the binary: Migrations/*.sql turned into Swift source at build time.
        .executableTarget(name: "EmbedMigrationsTool"),
        .plugin(name: "EmbedMigrationsPlugin", capability: .buildTool(), dependencies: ["EmbedMigrationsTool"],
                path: "Sources/EmbedMigrationsPlugin"),
        .target(name: "ShopMigrations", plugins: ["EmbedMigrationsPlugin"]),
        // openapi.json and the demo shop (Examples/) inside the binary, the same way, and the version.
        .executableTarget(name: "EmbedFilesTool"),
        .plugin(name: "EmbedFilesPlugin", capability: .buildTool(), dependencies: ["EmbedFilesTool"],
                path: "Sources/EmbedFilesPlugin"),
        .target(name: "ShopBundle", plugins: ["EmbedFilesPlugin"]),

        // The shop: plain Swift services and SQL stores, then the HTTP API over them.
        // Regions/china.tsv (China's administrative divisions) is built into it by the EmbedFiles plugin.
        .target(name: "ShopCore", dependencies: ["SQL", "Crypto", "CurlClient", "Localization", "Bulkheads"],
                plugins: ["EmbedFilesPlugin"]),
        // Product search per engine (FTS5; pg_trgm and a gram table), behind ShopCore's `SearchEngine`.
        .target(name: "SQLiteSearch", dependencies: ["ShopCore", "SQL"]),
        .target(name: "PostgreSQLSearch", dependencies: ["ShopCore", "SQL"]),
        // libvips behind ShopCore's ImageProcessor: uploads and imported photos decoded with limits, re-encoded without metadata.
        .target(name: "Images", dependencies: ["CVips", "ShopCore"]),
        .target(name: "ShopAPI", dependencies: ["ShopCore", "HTTP", "Metrics", "SQL", "Localization", "Bulkheads"], resources: [.copy("Public"), .copy("Media"), .copy("DocsPage"), .copy("AdminPage")]),
        // `shop db copy`: a SQLite shop's tables into an empty PostgreSQL database, engine-neutral SQL only.
        .target(name: "DatabaseCopy", dependencies: ["SQL"]),
        .executableTarget(name: "shop", dependencies: ["ShopAPI", "ShopCore", "ShopMigrations", "ShopBundle", "SQL", "SQLite", "PostgreSQL", "SQLiteSearch", "PostgreSQLSearch", "HTTP", "DatabaseCopy", "Metrics", "Localization", "Bulkheads", "Images"]),
        // WeChat Pay and Alipay on loopback, as the tests and `fake-payments` (development only, never
        // linked into `shop`) play them: they check our signatures by their own reading of the rules.
        .target(name: "FakePaymentGateways", dependencies: ["HTTP", "Crypto"]),
        .executableTarget(name: "fake-payments", dependencies: ["FakePaymentGateways", "HTTP", "Crypto"]),

        // Threads released together and a locked box, shared by the engine and HTTP test targets.
        .target(name: "ThreadTestSupport", path: "Tests/ThreadTestSupport"),
        .testTarget(name: "SQLTests", dependencies: ["SQL", "Bulkheads"]),
        .testTarget(name: "SQLiteTests", dependencies: ["SQL", "SQLite", "ThreadTestSupport"]),
        .testTarget(name: "PostgreSQLTests", dependencies: ["SQL", "PostgreSQL", "ThreadTestSupport"]),
        .testTarget(name: "CryptoTests", dependencies: ["Crypto"]),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP", "Metrics", "Localization", "Bulkheads", "ThreadTestSupport"]),
        .testTarget(name: "MetricsTests", dependencies: ["Metrics"]),
        .testTarget(name: "LocalizationTests", dependencies: ["Localization"]),
        // Fixtures shared by the shop's test targets (a regular target, so tests can import it).
        .target(name: "ShopTestSupport", dependencies: ["FakePaymentGateways", "ShopCore", "ShopAPI", "ShopMigrations", "HTTP", "SQL", "SQLite", "PostgreSQL", "SQLiteSearch", "PostgreSQLSearch", "Crypto", "Images"],
                path: "Tests/ShopTestSupport"),
        .testTarget(name: "ImagesTests", dependencies: ["Images", "ShopCore"]),
        .testTarget(name: "ShopCoreTests", dependencies: ["ShopCore", "Bulkheads", "ShopMigrations", "SQL", "SQLite", "Crypto", "Localization", "ShopTestSupport"]),
        .testTarget(name: "DatabaseCopyTests", dependencies: ["DatabaseCopy", "ShopCore", "ShopMigrations", "SQL", "SQLite", "PostgreSQL", "PostgreSQLSearch", "ShopTestSupport"]),
        .testTarget(name: "ShopAPITests", dependencies: ["ShopAPI", "ShopCore", "HTTP", "SQL", "SQLite", "Localization", "Bulkheads", "ShopTestSupport", "Images"]),
    ],
    swiftLanguageModes: [.v6]
)
