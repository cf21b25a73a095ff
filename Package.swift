// swift-tools-version: 6.0
import PackageDescription

// Dependencies point one way: errtriage → (TriageServer, DashboardRuntime, Terminal) → (TriageIngest, DashboardCore, CodeCheckout) →
// (TriageStore, TriageImport, Presentation) → TriageModel. TriageIngest joins TriageImport (formats) to TriageStore (storage),
// which know nothing of each other; TriageServer puts HTTP in front of TriageIngest.
let package = Package(
    name: "errtriage",
    // macOS 15 for the standard library's Synchronization (Mutex, Atomic), which the server's shared state uses.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "errtriage", targets: ["errtriage"]),
        .executable(name: "errtriage-fuzz", targets: ["errtriage-fuzz"]),
        .executable(name: "errtriage-bench", targets: ["errtriage-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
        .package(url: "https://github.com/yaslab/CSV.swift", exact: "2.5.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        // Resolved through Hummingbird already; named for what the server uses of them directly.
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras", exact: "1.35.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        // The app side (ErrorChainKit) and the rules of a chain's key (ChainRules): a package of its own,
        // with no dependencies, so that an app adding it resolves and builds nothing else.
        .package(path: "Packages/ErrorChainKit"),
    ],
    targets: [
        // Pure domain: chains, short keys, versions, timestamps, the value types every layer shares. No I/O.
        // The rules of a chain's key come from ChainRules (Packages/ErrorChainKit), which it re-exports.
        .target(name: "TriageModel", dependencies: [.product(name: "ChainRules", package: "ErrorChainKit")]),
        // A reporting app for the kill tests and the bench: reports numbered errors through ErrorChainKit.
        .executableTarget(name: "chain-probe", dependencies: [.product(name: "ErrorChainKit", package: "ErrorChainKit")]),
        // Reading input files (plain or gzip) and turning lines into events and complaints.
        .target(name: "TriageImport", dependencies: [
            "TriageModel", "CZlib",
            .product(name: "CSV", package: "CSV.swift"),
        ]),
        // The ingest pipeline: inputs (files, stdin, request bodies) decoded on a second thread into batched transactions;
        // the sample's decisions file.
        .target(name: "TriageIngest", dependencies: ["TriageModel", "TriageImport", "TriageStore"]),
        // Realistic sample data in the native format, deterministic for a seed.
        .target(name: "SampleData", dependencies: ["TriageModel", "TriageImport"]),
        // The SQLite store: migrations, ingest with rollups, every query the app asks.
        .target(name: "TriageStore", dependencies: [
            "TriageModel", "CZlib",
            // Kept payloads: zstd with a dictionary trained on the store's own first payloads of each source.
            "CZstd",
            .product(name: "GRDB", package: "GRDB.swift"),
            // SQLite's C API, for the few statements ingest runs per event (see BoundStatement).
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
            "CLibpq",
        ]),
        // The bench's baseline: the dashboard's questions asked straight over the events table, as a
        // store without rollups would. Linked by errtriage-bench only, never by the app.
        .target(name: "TriageStoreNaive", dependencies: ["TriageModel", "TriageStore"]),
        // A local git checkout of a project's code, read through the git command line and never
        // written: which file a frame names, a line's last commit, CODEOWNERS, source lines; the
        // editor's command line. Its rules (mapping, CODEOWNERS, blame, editors) are pure.
        .target(name: "CodeCheckout", dependencies: ["TriageModel", "ChildProcess"]),
        // Model values as display text for every output: sanitiser, cell widths, sparkline, formatters.
        .target(name: "Presentation", dependencies: ["TriageModel"]),
        // Pure dashboard: state, actions, reducer with effects, views into a screen buffer.
        .target(name: "DashboardCore", dependencies: ["TriageModel", "Presentation"]),
        // The dashboard's loop on any screen: input to actions, effects off the input loop, against the store.
        .target(name: "DashboardRuntime", dependencies: ["CodeCheckout", "DashboardCore", "Presentation", "TriageIngest", "TriageModel", "TriageStore"]),
        // The only code that touches curses.
        .target(name: "Terminal", dependencies: ["DashboardCore", "CNcursesw"]),
        .systemLibrary(name: "CNcursesw", pkgConfig: "ncursesw",
                       providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]),
        // PostgreSQL's client library, for the team store.
        .systemLibrary(name: "CLibpq", pkgConfig: "libpq",
                       providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        .systemLibrary(name: "CZstd", pkgConfig: "libzstd",
                       providers: [.apt(["libzstd-dev"]), .brew(["zstd"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        // Brotli's decoder, for request bodies sent with `Content-Encoding: br`.
        .systemLibrary(name: "CBrotli", pkgConfig: "libbrotlidec",
                       providers: [.apt(["libbrotli-dev"]), .brew(["brotli"])]),
        // `errtriage serve`: Sentry's intake protocol, the ELK reporter and native NDJSON over HTTP
        // (Hummingbird), group commit into the store, rate limits, metrics and alerts as they happen.
        .target(name: "TriageServer", dependencies: [
            "TriageModel", "TriageImport", "TriageIngest", "TriageStore", "Presentation", "CZlib", "CBrotli",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "Prometheus", package: "swift-prometheus"),
            // The thread pool the bodies are decoded on, off the event loops; HTTP/1's connection rules.
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            // The server's services (writer, alerts, upkeep, log, HTTP) in one group, stopped in order.
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        .executableTarget(name: "errtriage", dependencies: [
            "CodeCheckout", "TriageModel", "TriageImport", "TriageIngest", "TriageStore", "TriageServer", "SampleData", "Presentation", "DashboardCore",
            "DashboardRuntime", "Terminal",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // The fuzz targets: every importer's line parser, the reader, the chain and version parsers.
        .target(name: "FuzzTargets", dependencies: ["TriageModel", "TriageImport", "Presentation"]),
        // libFuzzer's driver for them (`make fuzz`), or a replayer of saved inputs in a plain build.
        .executableTarget(name: "errtriage-fuzz", dependencies: ["FuzzTargets"]),
        // Spawning and timing child processes (wait4: exit status and peak memory), for the bench and the tests.
        .target(name: "ChildProcess"),
        // Plain HTTP/1.1 to `errtriage serve` on loopback, on SwiftNIO's codec: the bench's load and the
        // end-to-end tests' requests (no TLS: nothing of theirs leaves the machine).
        .target(name: "LoopbackHTTP", dependencies: [
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
        // A PostgreSQL cluster in a temporary folder, stopped when the process ends: the tests' and the bench's server.
        .target(name: "ThrowawayPostgres", dependencies: ["ChildProcess"]),
        // `make bench`: every performance goal against a baseline measured in the same run; a
        // measuring tool outside the app (it holds the baseline's sqlite3 script, see ARCHITECTURE.md).
        .executableTarget(name: "errtriage-bench", dependencies: [
            "ChildProcess", "ThrowawayPostgres", "DashboardCore", "SampleData", "TriageImport", "TriageIngest", "TriageModel", "TriageStore",
            "TriageStoreNaive", "CZlib",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            // The serve section's load generator: keep-alive HTTP/1 to errtriage serve on loopback.
            "LoopbackHTTP",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            // The app side's section: report(_:) timed in this process.
            .product(name: "ErrorChainKit", package: "ErrorChainKit"),
        ]),
        // What the test targets share: temporary folders and stores, golden files, chain generators.
        // Used by test targets only; never a dependency of a product.
        .target(name: "TestSupport", dependencies: [
            "ChildProcess", "ThrowawayPostgres", "SampleData", "TriageImport", "TriageIngest", "TriageModel", "TriageStore",
            .product(name: "PropertyBased", package: "swift-property-based"),
        ], path: "Tests/TestSupport"),
        .testTarget(name: "TriageModelTests", dependencies: [
            "TriageModel", "SampleData", "TestSupport",
            .product(name: "ChainRules", package: "ErrorChainKit"),
            .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        // ErrorChainKit (Packages/ErrorChainKit) through its public API and its parts: chains, the queue, delivery.
        .testTarget(name: "ErrorChainKitTests", dependencies: [
            "ChildProcess", "TestSupport",
            .product(name: "ErrorChainKit", package: "ErrorChainKit"),
            .product(name: "ChainRules", package: "ErrorChainKit"),
        ]),
        .testTarget(name: "TriageImportTests", dependencies: [
            "TriageImport", "TriageModel", "TriageStore", "TestSupport", "Presentation",
            .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        .testTarget(name: "TriageStoreTests", dependencies: [
            "TriageModel", "TriageImport", "TriageStore", "SampleData", "TestSupport", "ThrowawayPostgres",
            // The migrator, to make a store as an earlier errtriage left it (OldSQLiteStore).
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .testTarget(name: "TriageIngestTests", dependencies: ["TriageIngest", "TriageImport", "TriageModel", "TriageStore", "TestSupport"]),
        // The routes in process (`RouterClient`): Hummingbird's router with a test channel of NIO's.
        .testTarget(name: "TriageServerTests", dependencies: [
            "TriageServer", "TriageIngest", "TriageImport", "TriageModel", "TriageStore", "TestSupport", "CZlib",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
        ]),
        .testTarget(name: "PresentationTests", dependencies: ["Presentation", "TriageModel"]),
        // The checkout's rules on their own, and its git reads on throwaway repositories made in the test.
        .testTarget(name: "CodeCheckoutTests", dependencies: ["CodeCheckout", "ChildProcess", "TestSupport", "TriageModel"]),
        .testTarget(name: "DashboardCoreTests", dependencies: ["DashboardCore", "Presentation", "TriageModel", "TestSupport"], exclude: ["Snapshots"]),
        .testTarget(name: "DashboardRuntimeTests", dependencies: [
            "DashboardRuntime", "DashboardCore", "TriageModel", "TriageStore", "TestSupport",
        ]),
        .testTarget(name: "FuzzTests", dependencies: ["FuzzTargets", "TriageImport", "TriageModel", "SampleData"]),
        // The built binary as a user runs it; the store and dashboard core in process, to compare the dashboard's screens with the CLI's text.
        .testTarget(name: "EndToEndTests", dependencies: [
            "errtriage", "chain-probe", "ChildProcess", "SampleData", "TestSupport", "ThrowawayPostgres", "TriageModel", "TriageStore", "DashboardCore",
            "DashboardRuntime",
            // The load and the requests of `serve`'s tests.
            "LoopbackHTTP",
        ], exclude: ["Golden"]),
    ]
)
