// swift-tools-version: 6.0
import PackageDescription

// The rules of errtriage's error chains, a package of its own with no dependencies. errtriage's
// root package depends on it by path (TriageModel re-exports ChainRules).
let package = Package(
    name: "ErrorChainKit",
    products: [
        // The rules of a chain's key, for errtriage's model (and anyone who reads keys).
        .library(name: "ChainRules", targets: ["ChainRules"]),
    ],
    targets: [
        // Short names, negative codes, the key and the full form, logic origins. Pure Swift, no Foundation.
        .target(name: "ChainRules"),
    ]
)
