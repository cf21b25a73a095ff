#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TriageImport
import TriageModel

/// Writes realistic native NDJSON: a power-law spread of issues over a layered app's chains,
/// versions rolling out with old ones lingering, a daily rhythm, devices and networks, one issue
/// that spikes, one that comes back after its fix, and complaints that cite codes.
/// Deterministic for a seed; streams, so memory does not grow with the number of events.
public struct SampleGenerator {
    public struct Settings: Sendable {
        public var events: Int
        public var issues: Int
        public var days: Int
        public var seed: UInt64
        public var end: Timestamp
        /// Adds the release story (`ReleaseStory`) after the rest: the sample's, not every test's.
        public var releaseStory: Bool
        /// The order the events come in (complaints follow them).
        public var order: EventOrder
        public init(events: Int, issues: Int, days: Int, seed: UInt64, end: Timestamp, releaseStory: Bool = false,
                    order: EventOrder = .day) {
            self.events = events
            self.issues = issues
            self.days = days
            self.seed = seed
            self.end = end
            self.releaseStory = releaseStory
            self.order = order
        }
    }

    /// A decision the sample's team took, applied by `demo` as marks (TriageModel's `DecisionRecord`).
    public typealias Decision = DecisionRecord

    let settings: Settings
    let chains: [ErrorChain]
    let profiles: [IssueProfile]
    let versions: [(name: String, build: Int, released: Timestamp)]
    let cumulativeWeights: [Double]
    let userCount: Int
    let start: Timestamp

    /// The issue that is fixed in an older version and comes back in a newer one.
    static let regressionIndex = 3
    /// The issue whose last 24 hours burst.
    static let spikeIndex = 4

    /// What an issue is to its users, fixed per issue and drawing no random number (so the rest of
    /// the sample stays as it was): the docs' examples and most chains are handled errors
    /// (`non-fatal`); in the long tail, one issue in five is a `crash` and one in twenty-three an `anr`.
    static func kind(ofIssue i: Int) -> String {
        if i < 5 { return "non-fatal" }
        if i % 23 == 6 { return "anr" }
        return i % 5 == 2 ? "crash" : "non-fatal"
    }

    struct IssueProfile {
        var weight: Double
        var introduced: Int
        var fixed: Int?
        var returns: Int?
        var complaintRate: Double
    }

    public init(_ settings: Settings) {
        self.settings = settings
        var random = SplitMix(seed: settings.seed)
        let days = max(1, settings.days)
        let startTime = settings.end.adding(millis: -Int64(days) * Timestamp.millisPerDay)
        start = startTime
        chains = ChainCatalog.chains(count: max(1, settings.issues), random: &random)
        let names = ["1.7", "1.8", "1.9", "1.10", "1.11", "1.12", "1.13"]
        versions = names.enumerated().map { i, name in
            // The first version predates the window; the last ships six days before its end.
            let fraction = i == 0 ? -0.3 : Double(i) / Double(names.count - 1) * 0.93
            let offset = Int64(fraction * Double(days) * Double(Timestamp.millisPerDay))
            return (name, 300 + i * 17, startTime.adding(millis: offset))
        }
        var profiles: [IssueProfile] = []
        for (i, chain) in chains.enumerated() {
            // Power law: the examples lead, then a shuffled long tail.
            let rank = i < 5 ? i : 5 + Int(random.next() % UInt64(max(1, chains.count)))
            var profile = IssueProfile(weight: 1 / pow115(Double(rank + 1)), introduced: 0, fixed: nil, returns: nil,
                                       complaintRate: chain.links.first?.short == "US" ? 0.06 : 0.01)
            if i >= 5 {
                let roll = random.unit()
                if roll < 0.15 { profile.introduced = 1 + Int(random.next() % 5) }
                else if roll < 0.20 { profile.introduced = names.count - 1 }  // new in the latest release
                else if roll < 0.38 { profile.fixed = 1 + Int(random.next() % UInt64(names.count - 1)) }
            }
            profiles.append(profile)
        }
        profiles[SampleGenerator.regressionIndex].fixed = 2       // fixed in 1.9…
        profiles[SampleGenerator.regressionIndex].returns = 5     // …back in 1.12
        profiles[SampleGenerator.regressionIndex].weight *= 0.6
        profiles[SampleGenerator.spikeIndex].weight *= 0.15
        var running = 0.0
        cumulativeWeights = profiles.map { running += $0.weight; return running }
        self.profiles = profiles
        userCount = max(50, settings.events / 12)
    }

    /// The decisions that go with the sample: the fix of the issue that later regresses, and the
    /// last week's meeting (a note and tracker link, a fix that holds, a mute until more events).
    public var decisions: [Decision] {
        guard chains.count > SampleGenerator.spikeIndex else { return [] }
        let day = Timestamp.millisPerDay
        let fixed = versions[2]
        var result = [Decision(key: chains[SampleGenerator.regressionIndex].shortKey, status: .resolved, version: fixed.name,
                               at: fixed.released.adding(millis: 2 * day), by: "maria", note: "withdrawal retries fixed in \(fixed.name)")]
        result.append(Decision(key: chains[1].shortKey, status: nil, at: settings.end.adding(millis: -4 * day), by: "ivan",
                               note: "backend rejects out-of-range coordinates; asked the API team",
                               tracker: "https://tracker.example.com/MOB-1423"))
        let latest = versions.count - 1
        if let done = profiles.indices.first(where: { profiles[$0].fixed == latest && profiles[$0].returns == nil }) {
            result.append(Decision(key: chains[done].shortKey, status: .resolved, version: versions[latest].name,
                                   at: settings.end.adding(millis: -3 * day), by: "maria", note: "fixed in \(versions[latest].name)"))
        }
        if let quiet = profiles.indices.last(where: { profiles[$0].fixed == nil && $0 > SampleGenerator.spikeIndex }) {
            result.append(Decision(key: chains[quiet].shortKey, status: .muted, at: settings.end.adding(millis: -2 * day), by: "olga",
                                   note: "rare; wait for more data", muteEvents: 50))
        }
        return result
    }

    /// Writes every event, then the complaints, one NDJSON line per call.
    public func write(_ emit: (String) throws -> Void) rethrows {
        var random = SplitMix(seed: settings.seed ^ 0x5EED_5EED)
        switch settings.order {
        case .shuffled:
            for n in 0..<settings.events {
                try emit(eventLine(number: n, random: &random))
            }
        case .day, .time:
            try writeByDay(sorted: settings.order == .time, random: &random, emit)
        }
        let complaints = settings.events == 0 ? 0 : max(1, settings.events / 40)
        for n in 0..<complaints {
            try emit(complaintLine(number: n, random: &random))
        }
        if settings.releaseStory { try writeReleaseStory(emit) }
    }

    func eventLine(number: Int, random: inout SplitMix) -> String {
        var time: Timestamp
        var issue: Int
        var version: Int
        if chains.count > SampleGenerator.spikeIndex, random.unit() < 0.012 {
            issue = SampleGenerator.spikeIndex
            time = settings.end.adding(millis: -Int64(random.unit() * Double(Timestamp.millisPerDay)))
            version = pickVersion(at: time, random: &random)
        } else {
            repeat {
                time = pickTime(random: &random)
                version = pickVersion(at: time, random: &random)
                issue = random.pick(cumulative: cumulativeWeights)
            } while !isActive(issue, version: version)
        }
        return eventLine(number: number, time: time, issue: issue, version: version, random: &random)
    }

    /// One event of an issue in a version at a time.
    func eventLine(number: Int, time: Timestamp, issue: Int, version: Int, random: inout SplitMix) -> String {
        line(number: number, chain: chains[issue], kind: SampleGenerator.kind(ofIssue: issue), version: version, time: time,
             random: &random)
    }

    /// One event of a chain in a version at a time; the rest of its fields drawn from `random`.
    func line(number: Int, chain: ErrorChain, kind: String, version: Int, time: Timestamp, random: inout SplitMix) -> String {
        let user = pickUser(random: &random)
        let device = Devices.device(forUser: user)
        let root = chain.links.last!
        let networkRoot = root.short == "NE" || root.short == "NS"
        let network = random.weighted(networkRoot ? [("cellular", 0.5), ("offline", 0.2), ("wifi", 0.3)]
                                                  : [("wifi", 0.64), ("cellular", 0.34), ("offline", 0.02)])
        let background = root.short == "GE" || root.short == "CD" ? 0.45 : 0.12
        let lowDisk = root.short == "CD" || root.short == "CA"
        let v = versions[version]
        var out = "{\"event_id\":\"\(random.hexID())\",\"timestamp\":\"\(time.iso8601)\""
        switch number % 10 {
        case 0..<7:
            out += ",\"codes\":\"\(chain.shortKey)\",\"chain\":"
            JSONString.write(chain.links.map(\.fullName).joined(separator: number % 2 == 0 ? " - " : "-"), to: &out)
        case 7, 8:
            out += ",\"chain\":" + JSONValue.array(chain.links.map { link in
                .object([("domain", .string(link.domain ?? "")), ("short", .string(link.short)),
                         ("code", .number(String(link.code))), ("name", .string(link.name ?? ""))])
            }).serialized
        default:
            out += ",\"codes\":\"\(chain.shortKey)\""
        }
        out += ",\"app\":{\"version\":\"\(v.name)\",\"build\":\"\(v.build + Int(random.next() % 3))\"}"
        out += ",\"os\":{\"name\":\"iOS\",\"version\":\"\(device.os)\"}"
        out += ",\"device\":{\"model\":\"\(device.model)\""
        out += ",\"orientation\":\"\(random.unit() < 0.88 ? "portrait" : "landscape")\""
        out += ",\"app_state\":\"\(random.unit() < background ? "background" : "foreground")\""
        out += ",\"free_ram\":\(40_000_000 + Int(random.next() % 1_900_000_000))"
        out += ",\"free_disk\":\(lowDisk && random.unit() < 0.7 ? 20_000_000 + Int(random.next() % 300_000_000) : 500_000_000 + Int(random.next() % 60_000_000_000))"
        out += ",\"jailbroken\":\(random.unit() < 0.015)}"
        out += ",\"network\":\"\(network)\",\"user_id\":\"u\(pad5(user))\",\"session_id\":\"s-\(pad5(user))-\(time.day % 1000)\""
        out += ",\"environment\":\"production\",\"kind\":\"\(kind)\",\"message\":"
        JSONString.write("\(root.fullName) while \(chain.links.first!.name ?? "?")", to: &out)
        out += ",\"keys\":{\"screen\":\"\(Screens.screen(for: chain))\",\"locale\":\"\(random.weighted([("ru_RU", 0.5), ("en_US", 0.35), ("tr_TR", 0.15)]))\"}}"
        return out
    }

    func complaintLine(number: Int, random: inout SplitMix) -> String {
        let time = pickTime(random: &random)
        let user = pickUser(random: &random)
        let channel = random.weighted([("email", 0.45), ("in-app chat", 0.4), ("app store review", 0.15)])
        var category: String? = nil
        var text: String
        let roll = random.unit()
        if roll < 0.14 {
            let topics = [("feedback_disapointment_slow_loading", "The task list takes forever to load, please fix"),
                          ("feedback_disapointment_withdraw_issues", "I cannot withdraw my money for three days now"),
                          ("feedback_disapointment_rejected_tasks", "All my tasks were rejected and I do not understand why")]
            let topic = topics[Int(random.next() % UInt64(topics.count))]
            category = topic.0
            text = topic.1
        } else {
            var weights = [(Int, Double)]()
            for (i, p) in profiles.enumerated() { weights.append((i, p.weight * p.complaintRate)) }
            let issue = random.weighted(weights)
            let key = chains[issue].shortKey
            let templates = ["The app shows error \(key) every time I open the map.",
                             "Got \"\(key)\" again, what should I do? Support asked me to send the code.",
                             "Error code: \(key)\nThe app says to contact support.",
                             "Cannot finish my task, the screen says \(key). Very annoying!!",
                             "Hello, \(key) appears when I try to \(Screens.action(for: chains[issue])). Thanks"]
            text = templates[Int(random.next() % UInt64(templates.count))]
            if roll > 0.95 {
                let other = chains[random.pick(cumulative: cumulativeWeights)].shortKey
                text += " Earlier I also saw \(other)."
            } else if roll > 0.93 {
                text += " Also once US99-IN999 but I am not sure."
            }
            category = "bug_report"
        }
        var out = "{\"complaint_id\":\"T-\(100_000 + number)\",\"timestamp\":\"\(time.iso8601)\",\"channel\":\"\(channel)\""
        if let category { out += ",\"category\":\"\(category)\"" }
        out += ",\"user_id\":\"u\(pad5(user))\",\"text\":"
        JSONString.write(text, to: &out)
        return out + "}"
    }

    func isActive(_ issue: Int, version: Int) -> Bool {
        let p = profiles[issue]
        guard version >= p.introduced else { return false }
        if let fixed = p.fixed, version >= fixed { return p.returns.map { version >= $0 } ?? false }
        return true
    }

    /// A time in the window: growing slightly toward the end, with a daily rhythm peaking in the evening (UTC).
    func pickTime(random: inout SplitMix) -> Timestamp {
        pickTime(from: 0, to: Double(settings.end.millis - start.millis), random: &random)
    }

    /// A time between two offsets (milliseconds after the start), with the same rhythm and growth.
    func pickTime(from low: Double, to high: Double, random: inout SplitMix) -> Timestamp {
        let span = Double(settings.end.millis - start.millis)
        while true {
            let offset = low + random.unit() * (high - low)
            let t = start.adding(millis: Int64(offset))
            let hour = Double((t.millis / Timestamp.millisPerHour) % 24)
            let rhythm = 0.55 + 0.45 * sin((hour - 9) / 24 * 2 * Double.pi)
            let growth = 0.7 + 0.3 * offset / span
            if random.unit() < rhythm * growth { return t }
        }
    }

    /// Versions in use at a time: newer ones ramp up over a few days; older ones linger.
    func pickVersion(at time: Timestamp, random: inout SplitMix) -> Int {
        var weights: [(Int, Double)] = []
        for (i, v) in versions.enumerated() where v.released <= time {
            let age = Double(time.millis - v.released.millis) / Double(Timestamp.millisPerDay)
            weights.append((i, min(1, (age + 0.2) / 5) * pow3(Double(i))))
        }
        return weights.isEmpty ? 0 : random.weighted(weights)
    }

    /// Users follow a power law too: a few heavy users, a long tail.
    func pickUser(random: inout SplitMix) -> Int {
        let u = random.unit()
        return Int(Double(userCount) * u * u * u)
    }
}

private func pow115(_ x: Double) -> Double { exp(1.15 * log(x)) }
private func pow3(_ x: Double) -> Double { exp(x * log(3.0)) }
private func pad5(_ v: Int) -> String {
    let s = String(v)
    return s.count >= 5 ? s : String(repeating: "0", count: 5 - s.count) + s
}
