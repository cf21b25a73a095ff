// swift-tools-version: 6.0
import PackageDescription

// The app side of errtriage's error-chain approach, a package of its own with no dependencies, so
// that an app that adds it resolves and builds nothing else of errtriage (Foundation only).
// errtriage's root package depends on it by path: TriageModel uses ChainRules, so the key a
// library builds and the key errtriage reads are made by one implementation.
let package = Package(
    name: "ErrorChainKit",
    products: [
        // For apps: layered errors, their keys, logicError and the reporter to errtriage serve.
        .library(name: "ErrorChainKit", targets: ["ErrorChainKit"]),
        // The rules of a chain's key, for errtriage's model (and anyone who reads keys).
        .library(name: "ChainRules", targets: ["ChainRules"]),
    ],
    targets: [
        // Short names, negative codes, the key and the full form, logic origins. Pure Swift, no Foundation.
        .target(name: "ChainRules"),
        // Layered errors, logicError, the reporter and its on-disk queue. Foundation only.
        .target(name: "ErrorChainKit", dependencies: ["ChainRules"]),
    ]
)
