#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TriageModel

/// What the latest release of the sample brings, added after the rest of the sample (its own
/// random numbers, so every other line stays as it was): a new crash, one issue worse and one
/// better than in the version before, and a chain that gained a layer in a refactor (the old
/// chain is gone, the new one is new: one problem, two keys, for `merge`).
enum ReleaseStory {
    static let repository: ChainCatalog.Entry = ("RepositoryError", "RE", [(3, "reserveFailed")])
    static let paymentSDK: ChainCatalog.Entry = ("PaymentSDKError", "PS", [(7, "tokenizationFailed")])

    /// Before the refactor: `actionFailed - reserveTask - skills - no429TooManyRequests`.
    static let beforeRefactor = ChainCatalog.chain([(ChainCatalog.user, 9), (ChainCatalog.interactor, 240),
                                                    (ChainCatalog.tolokaAPI, 120), (ChainCatalog.http, 429)])
    /// After it: the repository layer sits between the interactor and the API.
    static let afterRefactor = ChainCatalog.chain([(ChainCatalog.user, 9), (ChainCatalog.interactor, 240), (repository, 3),
                                                   (ChainCatalog.tolokaAPI, 120), (ChainCatalog.http, 429)])
    static let worse = ChainCatalog.chain([(ChainCatalog.user, 12), (ChainCatalog.interactor, 500), (ChainCatalog.geo, 5)])
    static let better = ChainCatalog.chain([(ChainCatalog.user, 3), (ChainCatalog.logic, 44), (ChainCatalog.api, 7),
                                            (ChainCatalog.http, 401)])
    static let newCrash = ChainCatalog.chain([(ChainCatalog.user, 21), (ChainCatalog.interactor, 330), (paymentSDK, 7)])
}

extension SampleGenerator {
    /// Writes the release story's events (numbered after the sample's own).
    func writeReleaseStory(_ emit: (String) throws -> Void) rethrows {
        guard versions.count >= 3 else { return }
        var random = SplitMix(seed: settings.seed ^ 0x5E1E_A5E5)
        let latest = versions.count - 1, previous = latest - 1
        let week = settings.end.adding(millis: -7 * Timestamp.millisPerDay)
        var number = settings.events
        func write(_ chain: ErrorChain, kind: String, count: Int, version: Int?, from: Timestamp) throws {
            for _ in 0..<count {
                var time: Timestamp, v: Int
                if let version {
                    let start = max(from, versions[version].released)
                    time = start.adding(millis: Int64(random.unit() * Double(settings.end.millis - start.millis)))
                    v = version
                } else {
                    repeat {
                        time = pickTime(random: &random)
                        v = pickVersion(at: time, random: &random)
                    } while v > previous
                }
                try emit(line(number: number, chain: chain, kind: kind, version: v, time: time, random: &random))
                number += 1
            }
        }
        try write(ReleaseStory.beforeRefactor, kind: "non-fatal", count: 160, version: nil, from: start)
        try write(ReleaseStory.afterRefactor, kind: "non-fatal", count: 45, version: latest, from: start)
        try write(ReleaseStory.newCrash, kind: "crash", count: 60, version: latest, from: start)
        try write(ReleaseStory.worse, kind: "non-fatal", count: 45, version: previous, from: start)
        try write(ReleaseStory.worse, kind: "non-fatal", count: 110, version: latest, from: week)
        try write(ReleaseStory.better, kind: "non-fatal", count: 330, version: previous, from: start)
        try write(ReleaseStory.better, kind: "non-fatal", count: 8, version: latest, from: week)
    }

    /// The sample's adoption, as an analytics console exports it: per day and version, the active
    /// users (the versions' shares as the events draw them, of 30,000 to 40,000 a day) and sessions.
    public func writeAdoption(_ emit: (String) throws -> Void) rethrows {
        try emit("date,version,users,sessions")
        let span = Double(settings.end.millis - start.millis)
        for day in start.day...settings.end.day {
            let noon = Timestamp.startOf(day: day).adding(millis: 12 * Timestamp.millisPerHour)
            let daily = 30_000 + 10_000 * max(0, min(1, Double(noon.millis - start.millis) / span))
            var shares: [(Int, Double)] = []
            for (i, v) in versions.enumerated() where v.released <= noon {
                let age = Double(noon.millis - v.released.millis) / Double(Timestamp.millisPerDay)
                shares.append((i, min(1, (age + 0.2) / 5) * exp(Double(i) * log(3.0))))
            }
            let total = shares.reduce(0) { $0 + $1.1 }
            for (i, share) in shares {
                let users = Int(daily * share / total)
                guard users > 0 else { continue }
                try emit("\(noon.dateText),\(versions[i].name),\(users),\(users * 3 + users / 7)")
            }
        }
    }
}
