import Foundation
import PropertyBased
import SampleData
import Testing
import TriageModel

/// The SPIKE rule on generated hourly series (168 baseline hours, then the last 24): steady,
/// bursty and slowly rising issues never fire; a quiet issue that jumps tenfold always does.
@Suite("SpikeRule")
struct SpikeRuleTests {
    /// A deterministic Poisson sampler seeded by the property test.
    struct Poisson {
        var random: SplitMix

        init(seed: UInt64) { random = SplitMix(seed: seed) }

        mutating func uniform() -> Double { random.unit() }

        /// One Poisson draw of mean `mean` (Knuth for small means, a rounded normal for large ones).
        mutating func draw(_ mean: Double) -> Int {
            guard mean > 0 else { return 0 }
            if mean > 60 {
                let u1 = max(uniform(), 1e-12), u2 = uniform()
                let normal = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
                return max(0, Int((mean + normal * mean.squareRoot()).rounded()))
            }
            let limit = exp(-mean)
            var k = 0
            var p = uniform()
            while p > limit {
                k += 1
                p *= uniform()
            }
            return k
        }

        /// 192 hours drawn from a rate that depends on the hour (0 = oldest).
        mutating func series(_ rate: (Int) -> Double) -> [Int] { (0..<192).map { draw(rate($0)) } }
    }

    static let seed = Gen.int(in: 0...Int.max).map { UInt64($0) }
    /// Hourly rates from a trickle (one event in ten hours) to a busy issue (300 an hour).
    static let anyRate = Gen.int(in: 1...3000).map { Double($0) / 10 }
    /// A quiet issue: from one event every two hours to five an hour.
    static let quietRate = Gen.int(in: 5...50).map { Double($0) / 10 }

    @Test func aSteadyIssueNeverFiresHoweverBusy() async {
        await propertyCheck(count: 300, input: Self.seed, Self.anyRate) { seed, rate in
            var poisson = Poisson(seed: seed)
            let hourly = poisson.series { _ in rate }
            #expect(!SpikeRule.fires(hourly: hourly), "steady at \(rate)/h: \(hourly.suffix(24).reduce(0, +)) in the last day")
        }
    }

    @Test func aBurstyIssueWhoseBurstsAreItsHabitNeverFires() async {
        // Every day the same few rush hours run five to ten times the base rate.
        await propertyCheck(count: 300, input: Self.seed, Self.anyRate, Gen.int(in: 5...10), Gen.int(in: 1...3)) { seed, rate, factor, rushHours in
            var poisson = Poisson(seed: seed)
            let hourly = poisson.series { hour in hour % 24 < rushHours ? rate * Double(factor) : rate }
            #expect(!SpikeRule.fires(hourly: hourly), "bursty at \(rate)/h ×\(factor) for \(rushHours)h a day")
        }
    }

    @Test func anIssueRisingSlowlyNeverFires() async {
        // Doubling over the eight days: growth, not a spike.
        await propertyCheck(count: 300, input: Self.seed, Self.anyRate) { seed, rate in
            var poisson = Poisson(seed: seed)
            let hourly = poisson.series { hour in rate * (1 + Double(hour) / 191) }
            #expect(!SpikeRule.fires(hourly: hourly), "rising from \(rate)/h")
        }
    }

    @Test func aQuietIssueThatJumpsTenfoldAlwaysFires() async {
        await propertyCheck(count: 300, input: Self.seed, Self.quietRate) { seed, rate in
            var poisson = Poisson(seed: seed)
            let hourly = poisson.series { hour in hour >= 168 ? rate * 10 : rate }
            #expect(SpikeRule.fires(hourly: hourly), "quiet at \(rate)/h, then \(hourly.suffix(24).reduce(0, +)) in the last day")
        }
    }

    @Test func aSingleBurstTodayFiresAndTheSameBurstLastWeekDoesNot() async {
        // A quiet issue; one hour holds a burst of ten to forty times its usual day.
        await propertyCheck(count: 300, input: Self.seed, Self.quietRate, Gen.int(in: 10...40), Gen.int(in: 0...23)) { seed, rate, times, hour in
            var poisson = Poisson(seed: seed)
            let base = poisson.series { _ in rate / 4 }
            let burst = max(SpikeRule.minimumEvents, Int(Double(times) * rate / 4 * 24))
            var today = base
            today[168 + hour] += burst
            var lastWeek = base
            lastWeek[24 + hour] += burst
            #expect(SpikeRule.fires(hourly: today), "a burst of \(burst) over \(rate / 4)/h")
            #expect(!SpikeRule.fires(hourly: lastWeek), "a burst of \(burst) five days ago")
        }
    }

    @Test func aHandfulOfEventsIsNeverASpikeEvenFromNothing() {
        var hourly = Array(repeating: 0, count: 192)
        for hour in 168..<(168 + SpikeRule.minimumEvents - 1) { hourly[hour] = 1 }
        #expect(!SpikeRule.fires(hourly: hourly))
        hourly[191] += 1
        #expect(SpikeRule.fires(hourly: hourly))
    }

    @Test func fewerThanADayOfHoursNeverFires() {
        #expect(!SpikeRule.fires(hourly: Array(repeating: 100, count: 23)))
    }
}
