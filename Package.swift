// swift-tools-version: 6.0
import PackageDescription

// Dependencies point one way: errtriage → (Terminal, DashboardCore, TriageStore, TriageImport) → TriageModel.
let package = Package(
    name: "errtriage",
    products: [
        .executable(name: "errtriage", targets: ["errtriage"]),
        .executable(name: "errtriage-fuzz", targets: ["errtriage-fuzz"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
        .package(url: "https://github.com/yaslab/CSV.swift", exact: "2.5.2"),
    ],
    targets: [
        // Pure domain: chains, short keys, versions, timestamps, the value types every layer shares. No I/O.
        .target(name: "TriageModel"),
        // Reading input files (plain or gzip) and turning lines into events and complaints.
        .target(name: "TriageImport", dependencies: [
            "TriageModel", "CZlib",
            .product(name: "CSV", package: "CSV.swift"),
        ]),
        // Realistic sample data in the native format, deterministic for a seed.
        .target(name: "SampleData", dependencies: ["TriageModel", "TriageImport"]),
        // The SQLite store: migrations, ingest with rollups, every query the app asks.
        .target(name: "TriageStore", dependencies: [
            "TriageModel",
            .product(name: "GRDB", package: "GRDB.swift"),
            // SQLite's C API, for the few statements ingest runs per event (see BoundStatement).
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
            "CLibpq",
        ]),
        // Pure dashboard: state, actions, reducer with effects, views into a screen buffer.
        .target(name: "DashboardCore", dependencies: ["TriageModel"]),
        // The only code that touches curses.
        .target(name: "Terminal", dependencies: ["DashboardCore", "CNcursesw"]),
        .systemLibrary(name: "CNcursesw", pkgConfig: "ncursesw",
                       providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]),
        // PostgreSQL's client library, for the team store.
        .systemLibrary(name: "CLibpq", pkgConfig: "libpq",
                       providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .executableTarget(name: "errtriage", dependencies: [
            "TriageModel", "TriageImport", "TriageStore", "SampleData", "DashboardCore", "Terminal",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "CSV", package: "CSV.swift"),
        ]),
        // The fuzz targets: every importer's line parser, the reader, the chain and version parsers.
        .target(name: "FuzzTargets", dependencies: ["TriageModel", "TriageImport"]),
        // libFuzzer's driver for them (`make fuzz`), or a replayer of saved inputs in a plain build.
        .executableTarget(name: "errtriage-fuzz", dependencies: ["FuzzTargets"]),
        .testTarget(name: "TriageModelTests", dependencies: [
            "TriageModel",
            .product(name: "PropertyBased", package: "swift-property-based"),
        ]),
        .testTarget(name: "TriageStoreTests", dependencies: ["TriageModel", "TriageImport", "TriageStore", "SampleData"]),
        .testTarget(name: "DashboardCoreTests", dependencies: ["DashboardCore", "TriageModel"], exclude: ["Snapshots"]),
        .testTarget(name: "FuzzTests", dependencies: ["FuzzTargets", "TriageImport", "TriageModel"]),
        .testTarget(name: "EndToEndTests", dependencies: ["errtriage"], exclude: ["Golden"]),
    ]
)
