import PropertyBased
import Testing
@testable import TriageModel

@Suite("TimeWindow")
struct TimeWindowTests {
    static let now = Timestamp(millis: 1_791_153_180_000)  // 2026-10-04T22:33:00Z

    @Test(arguments: [(TimeWindow.d7, Int64(7)), (.d30, 30), (.d90, 90)])
    func dailyWindowCoversThatManyDaysEndingWithTheDayOfNow(window: TimeWindow, days: Int64) {
        let range = window.dayRange(now: Self.now, firstDay: 0)
        #expect(range.upperBound == Self.now.day)
        #expect(range.upperBound - range.lowerBound + 1 == days)
    }

    @Test(arguments: [TimeWindow.d7, .d30, .d90])
    func dailyWindowEndsWithTheDayOfNowAtBothEdgesOfTheDay(window: TimeWindow) {
        let day = Self.now.day
        for now in [Timestamp.startOf(day: day), Timestamp.startOf(day: day + 1).adding(millis: -1)] {
            let range = window.dayRange(now: now, firstDay: 0)
            #expect(range == (day - window.days! + 1)...day)
        }
    }

    @Test func dailyWindowsHoldForAnyNow() async {
        await propertyCheck(count: 300, input: Gen.int64(in: 0 ... 253_402_300_799_999)) { ms in
            let now = Timestamp(millis: ms)
            for (window, days) in [(TimeWindow.d7, Int64(7)), (.d30, 30), (.d90, 90)] {
                let range = window.dayRange(now: now, firstDay: 0)
                #expect(range.upperBound == now.day)
                #expect(range.count == Int(days))
                #expect(Timestamp.startOf(day: range.upperBound) <= now)
                #expect(now < Timestamp.startOf(day: range.upperBound + 1))
            }
        }
    }

    @Test func hourRangeCovers24HoursEndingWithTheHourOfNow() {
        let range = TimeWindow.hourRange(now: Self.now)
        #expect(range.upperBound == Self.now.hour)
        #expect(range.count == 24)
        #expect(Timestamp.startOf(hour: range.upperBound) <= Self.now)
        #expect(Self.now < Timestamp.startOf(hour: range.upperBound + 1))
    }

    @Test func hourRangeHoldsForAnyNow() async {
        await propertyCheck(count: 300, input: Gen.int64(in: 0 ... 253_402_300_799_999)) { ms in
            let now = Timestamp(millis: ms)
            let range = TimeWindow.hourRange(now: now)
            #expect(range.upperBound == now.hour)
            #expect(range.count == 24)
        }
    }

    @Test func the24hWindowSpansTheDaysOfItsHours() {
        let hours = TimeWindow.hourRange(now: Self.now)
        let days = TimeWindow.h24.dayRange(now: Self.now, firstDay: 0)
        #expect(days == Timestamp.startOf(hour: hours.lowerBound).day...Timestamp.startOf(hour: hours.upperBound).day)
    }
}
