#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TriageModel

/// The order generated events come in: how real exports arrive, and the worst case.
public enum EventOrder: String, CaseIterable, Sendable {
    /// Days in order, events shuffled within each day: daily BigQuery exports, Sentry pulls.
    case day
    /// Every event in time order.
    case time
    /// Random times across the whole span (the worst case for rollups; the committed sample's order).
    case shuffled
}

extension SampleGenerator {
    /// One UTC day of the span (the first and last may be partial): its offsets after the start,
    /// how many events it gets, and what share of them is the spike.
    struct DaySlice {
        var low: Double
        var high: Double
        var events: Int
        var spikeShare: Double
        /// The part of the day inside the spike's last 24 hours, as offsets.
        var spikeLow: Double
        var spikeHigh: Double
    }

    /// The share of events the spike takes in the shuffled order: the same in every order.
    static let spikeShare = 0.012

    /// Writes the events day by day, each day's times drawn before its events (sorted for `time`).
    func writeByDay(sorted: Bool, random: inout SplitMix, _ emit: (String) throws -> Void) rethrows {
        var number = 0
        for slice in daySlices() {
            var draws: [(time: Timestamp, spike: Bool)] = []
            draws.reserveCapacity(slice.events)
            for _ in 0..<slice.events {
                if slice.spikeShare > 0, random.unit() < slice.spikeShare {
                    let offset = slice.spikeLow + random.unit() * (slice.spikeHigh - slice.spikeLow)
                    draws.append((start.adding(millis: Int64(offset)), true))
                } else {
                    draws.append((pickTime(from: slice.low, to: slice.high, random: &random), false))
                }
            }
            if sorted { draws.sort { $0.time < $1.time } }
            for draw in draws {
                let (issue, version) = pickIssue(at: draw.time, spike: draw.spike, random: &random)
                try emit(eventLine(number: number, time: draw.time, issue: issue, version: version, random: &random))
                number += 1
            }
        }
    }

    /// An issue active at a time, and the version it happened in.
    func pickIssue(at time: Timestamp, spike: Bool, random: inout SplitMix) -> (issue: Int, version: Int) {
        if spike { return (SampleGenerator.spikeIndex, pickVersion(at: time, random: &random)) }
        while true {
            let version = pickVersion(at: time, random: &random)
            let issue = random.pick(cumulative: cumulativeWeights)
            if isActive(issue, version: version) { return (issue, version) }
        }
    }

    /// The span cut at UTC midnights, with each day's events in proportion to the time rhythm's weight
    /// (summed hour by hour) plus its part of the spike; rounded cumulatively so they add up exactly.
    func daySlices() -> [DaySlice] {
        let span = Double(settings.end.millis - start.millis)
        let spike = chains.count > SampleGenerator.spikeIndex ? SampleGenerator.spikeShare : 0
        let spikeStart = span - Double(Timestamp.millisPerDay)
        var bounds: [Double] = [0]
        var midnight = Timestamp.startOf(day: start.day + 1)
        while midnight < settings.end {
            bounds.append(Double(midnight.millis - start.millis))
            midnight = midnight.adding(millis: Timestamp.millisPerDay)
        }
        bounds.append(span)
        var weights: [Double] = []
        var spikeParts: [Double] = []
        for k in 0..<bounds.count - 1 {
            weights.append(rhythmWeight(from: bounds[k], to: bounds[k + 1], span: span))
            let overlap = max(0, bounds[k + 1] - max(bounds[k], spikeStart))
            spikeParts.append(spike * overlap / Double(Timestamp.millisPerDay))
        }
        let total = weights.reduce(0, +)
        var slices: [DaySlice] = []
        var cumulative = 0.0
        var given = 0
        for k in weights.indices {
            let share = (1 - spike) * weights[k] / total + spikeParts[k]
            cumulative += share
            let upTo = k == weights.count - 1 ? settings.events : min(settings.events, Int((cumulative * Double(settings.events)).rounded()))
            let count = max(0, upTo - given)
            given += count
            slices.append(DaySlice(low: bounds[k], high: bounds[k + 1], events: count,
                                   spikeShare: share > 0 ? spikeParts[k] / share : 0,
                                   spikeLow: max(bounds[k], spikeStart), spikeHigh: bounds[k + 1]))
        }
        return slices
    }

    /// The integral of the time rhythm times growth between two offsets, an hour at a time.
    func rhythmWeight(from low: Double, to high: Double, span: Double) -> Double {
        let hourMillis = Double(Timestamp.millisPerHour)
        var sum = 0.0
        var a = low
        while a < high {
            let t = start.adding(millis: Int64(a))
            let b = min(high, Double((t.hour + 1) * Timestamp.millisPerHour - start.millis))
            let hour = Double(t.hour % 24)
            let rhythm = 0.55 + 0.45 * sin((hour - 9) / 24 * 2 * Double.pi)
            let growth = 0.7 + 0.3 * ((a + b) / 2) / span
            sum += rhythm * growth * (b - a) / hourMillis
            a = b
        }
        return sum
    }
}
