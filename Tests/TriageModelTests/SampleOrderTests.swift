import SampleData
import Testing
import TriageModel

/// `generate --order`: days in order with each day shuffled, time order, or shuffled across the span.
@Suite struct SampleOrderTests {
    static let end = Timestamp.parse("2026-11-20T18:00:00Z")!

    /// The events' times, in the order written (complaints, which follow the events, left out).
    static func times(_ order: EventOrder, events: Int = 3000, seed: UInt64 = 5) -> [Timestamp] {
        var times: [Timestamp] = []
        let settings = SampleGenerator.Settings(events: events, issues: 40, days: 20, seed: seed, end: end, order: order)
        SampleGenerator(settings).write { line in
            guard line.hasPrefix("{\"event_id\""), let from = line.range(of: "\"timestamp\":\"") else { return }
            let rest = line[from.upperBound...]
            times.append(Timestamp.parse(String(rest[..<rest.firstIndex(of: "\"")!]))!)
        }
        return times
    }

    static func isSorted(_ values: [Int64]) -> Bool { zip(values, values.dropFirst()).allSatisfy { $0 <= $1 } }

    @Test(arguments: EventOrder.allCases)
    func everyOrderWritesTheRequestedNumberOfEventsInsideTheSpan(order: EventOrder) {
        let times = Self.times(order)
        #expect(times.count == 3000)
        let start = Self.end.adding(millis: -20 * Timestamp.millisPerDay)
        #expect(times.allSatisfy { $0 >= start && $0 < Self.end })
    }

    @Test func dayOrderKeepsDaysInOrderAndShufflesEachDay() {
        let times = Self.times(.day)
        #expect(Self.isSorted(times.map(\.day)))
        #expect(!Self.isSorted(times.map(\.millis)))
        let days = Dictionary(grouping: times, by: \.day)
        let shuffled = days.values.filter { $0.count > 10 && !Self.isSorted($0.map(\.millis)) }
        #expect(shuffled.count == days.values.filter { $0.count > 10 }.count, "every busy day is out of time order inside")
    }

    @Test func timeOrderIsSorted() {
        #expect(Self.isSorted(Self.times(.time).map(\.millis)))
    }

    @Test func shuffledOrderHasNeitherDaysNorTimesInOrder() {
        let times = Self.times(.shuffled)
        #expect(!Self.isSorted(times.map(\.day)))
        #expect(!Self.isSorted(times.map(\.millis)))
    }

    @Test(arguments: EventOrder.allCases)
    func everyOrderIsTheSameForTheSameSeed(order: EventOrder) {
        #expect(Self.times(order, events: 500) == Self.times(order, events: 500))
        #expect(Self.times(order, events: 500) != Self.times(order, events: 500, seed: 6))
    }

    @Test func dayAndTimeOrdersSpreadEventsLikeTheShuffledOne() {
        // The same days get about the same share of events in every order (the spike's last day included).
        let shuffled = Dictionary(grouping: Self.times(.shuffled, events: 20_000), by: \.day).mapValues(\.count)
        let day = Dictionary(grouping: Self.times(.day, events: 20_000), by: \.day).mapValues(\.count)
        #expect(Set(shuffled.keys) == Set(day.keys))
        for (d, count) in shuffled {
            let other = day[d] ?? 0
            #expect(abs(other - count) <= max(60, count / 5), "day \(d): shuffled \(count), day order \(other)")
        }
    }
}
