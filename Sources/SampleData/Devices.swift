import TriageModel

/// Devices and OS versions, fixed per user so that breakdowns stay consistent.
enum Devices {
    static let models: [(String, Double)] = [
        ("iPhone14,5", 0.18), ("iPhone15,2", 0.14), ("iPhone16,1", 0.12), ("iPhone13,2", 0.11), ("iPhone12,1", 0.1),
        ("iPhone14,7", 0.09), ("iPhone15,4", 0.08), ("iPhone11,8", 0.06), ("iPhone17,3", 0.05), ("iPad13,18", 0.04),
        ("iPhone10,4", 0.03),
    ]
    static let systems: [(String, Double)] = [
        ("18.1", 0.28), ("18.0.1", 0.18), ("17.6.1", 0.17), ("17.5", 0.1), ("17.4.1", 0.09), ("16.7.10", 0.1), ("15.8.3", 0.08),
    ]

    static func device(forUser user: Int) -> (model: String, os: String) {
        var random = SplitMix(seed: UInt64(user) &* 0x9E37_79B9 &+ 17)
        return (random.weighted(models), random.weighted(systems))
    }
}

/// The screen an error happens on and what the user was doing, from the chain's layers.
enum Screens {
    static func screen(for chain: ErrorChain) -> String {
        let names = chain.links.compactMap(\.name).joined(separator: " ")
        if names.contains("MapPins") || chain.links.contains(where: { $0.short == "GE" }) { return "map" }
        if names.contains("withdraw") || names.contains("payment") { return "wallet" }
        if names.contains("signIn") || names.contains("login") || names.contains("Token") { return "login" }
        return "tasks"
    }

    static func action(for chain: ErrorChain) -> String {
        switch screen(for: chain) {
        case "map": "open the map"
        case "wallet": "withdraw my earnings"
        case "login": "log in"
        default: "take a task"
        }
    }
}
