// swift-tools-version: 6.0
import PackageDescription

// An app that reports through ErrorChainKit. It depends on errtriage's app package alone
// (Packages/ErrorChainKit, which depends on nothing), so it resolves and builds nothing else of
// errtriage: no store, server or terminal, and none of their packages.
let package = Package(
    name: "ChainApp",
    dependencies: [
        .package(path: "../../Packages/ErrorChainKit"),
    ],
    targets: [
        .executableTarget(name: "chain-app", dependencies: [
            .product(name: "ErrorChainKit", package: "ErrorChainKit"),
        ]),
    ]
)
