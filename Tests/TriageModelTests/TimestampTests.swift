import PropertyBased
import Testing
@testable import TriageModel

@Suite("Timestamp")
struct TimestampTests {
    // Known values, from `date -u -d 2026-10-04T22:33:00Z +%s` and friends.
    static let oct4At2233: Int64 = 1_791_153_180_000  // 2026-10-04T22:33:00Z
    static let oct4Midnight: Int64 = 1_791_072_000_000  // 2026-10-04T00:00:00Z
    static let epochText: Int64 = 1_759_617_180_000  // 1759617180 s = 2025-10-04T22:33:00Z

    @Test func parsesISO8601InUTC() {
        #expect(Timestamp.parse("2026-10-04T22:33:00Z")?.millis == Self.oct4At2233)
    }

    @Test func refusesADayItsMonthDoesNotHave() {
        #expect(Timestamp.parse("2026-02-30T00:00:00Z") == nil)
        #expect(Timestamp.parse("2026-04-31") == nil)
        #expect(Timestamp.parse("2028-02-29T12:00:00Z") != nil)
        #expect(Timestamp.parse("2026-02-29T12:00:00Z") == nil)
    }

    @Test func parsesAFractionOfASecond() {
        #expect(Timestamp.parse("2026-10-04T22:33:00.123Z")?.millis == Self.oct4At2233 + 123)
    }

    @Test func parsesAnOffsetWithAColon() {
        #expect(Timestamp.parse("2026-10-04T22:33:00+03:00")?.millis == Self.oct4At2233 - 3 * 3_600_000)
    }

    @Test func parsesANegativeOffsetWithoutAColon() {
        #expect(Timestamp.parse("2026-10-04T22:33:00-0130")?.millis == Self.oct4At2233 + 90 * 60_000)
    }

    @Test func parsesBigQueryTimestamps() {
        #expect(Timestamp.parse("2026-10-04 22:33:00.123456 UTC")?.millis == Self.oct4At2233 + 123)
    }

    @Test func readsATimeWithoutAZoneAsUTC() {
        #expect(Timestamp.parse("2026-10-04 22:33:00")?.millis == Self.oct4At2233)
    }

    @Test func readsABareDateAsItsMidnightUTC() {
        #expect(Timestamp.parse("2026-10-04")?.millis == Self.oct4Midnight)
    }

    @Test func readsEpochSecondsAsText() {
        #expect(Timestamp.parse("1759617180")?.millis == Self.epochText)
        #expect(Timestamp.parse("1759617180") == Timestamp.parse("2025-10-04T22:33:00Z"))
    }

    @Test func readsEpochSecondsWithAFraction() {
        #expect(Timestamp.parse("1759617180.5")?.millis == Self.epochText + 500)
    }

    @Test func ignoresSurroundingSpaces() {
        #expect(Timestamp.parse("  2026-10-04T22:33:00Z ")?.millis == Self.oct4At2233)
    }

    @Test func readsALeapDay() {
        #expect(Timestamp.parse("2024-02-29T12:00:00Z")?.iso8601 == "2024-02-29T12:00:00Z")
    }

    @Test(arguments: [
        "", "   ", "garbage", "yesterday", "2026-13-01", "2026-00-10", "2026-10-04T24:00:00Z",
        "2026-10-04T22:60:00Z", "2026-10-04T22:33:00Q", "2026-10-04T22:33:00.Z", "2026/10/04", "-5",
    ])
    func rejects(_ text: String) {
        #expect(Timestamp.parse(text) == nil)
    }

    @Test func neverCrashesOnArbitraryText() async {
        await propertyCheck(count: 500, input: Gen.latin1.string(of: 0...40)) { text in
            #expect(Timestamp.parse(" " + text + " ") == Timestamp.parse(text))
        }
    }

    @Test func neverCrashesOnTextMadeOfTimestampCharacters() async {
        let char = Gen<Character?>.element(of: Array("0123456789-:.T Z+UTC") as [Character]).map { $0! }
        await propertyCheck(count: 1000, input: char.string(of: 0...32)) { text in
            #expect(Timestamp.parse(" " + text + " ") == Timestamp.parse(text))
        }
    }

    @Test func writesISO8601() {
        #expect(Timestamp(millis: Self.oct4At2233).iso8601 == "2026-10-04T22:33:00Z")
        #expect(Timestamp(millis: Self.oct4At2233 + 7).iso8601 == "2026-10-04T22:33:00.007Z")
    }

    @Test func iso8601RoundTripsThroughParse() async {
        // 0001-01-01T00:00:00Z through 9999-12-31T23:59:59.999Z.
        let millis = Gen.int64(in: -62_135_596_800_000 ... 253_402_300_799_999)
        await propertyCheck(count: 500, input: millis) { ms in
            let t = Timestamp(millis: ms)
            #expect(Timestamp.parse(t.iso8601) == t)
        }
    }

    @Test func dayZeroIsTheEpoch() {
        #expect(Timestamp.civil(fromDays: 0) == (1970, 1, 1))
        #expect(Timestamp.daysFromCivil(year: 1970, month: 1, day: 1) == 0)
    }

    @Test(arguments: [(2024, 2, 29), (2000, 2, 29), (1600, 2, 29), (2028, 2, 29)])
    func leapDaysExistAndAreFollowedByMarchFirst(year: Int64, month: Int64, day: Int64) {
        let d = Timestamp.daysFromCivil(year: year, month: month, day: day)
        #expect(Timestamp.civil(fromDays: d) == (year, 2, 29))
        #expect(Timestamp.civil(fromDays: d - 1) == (year, 2, 28))
        #expect(Timestamp.civil(fromDays: d + 1) == (year, 3, 1))
    }

    @Test(arguments: [Int64(1900), 2100, 2023, 2026])
    func commonYearsGoFromFebruary28ToMarch1(year: Int64) {
        let d = Timestamp.daysFromCivil(year: year, month: 2, day: 28)
        #expect(Timestamp.civil(fromDays: d + 1) == (year, 3, 1))
    }

    @Test func civilAndDaysFromCivilAreInverseOverAWideRangeOfDays() async {
        await propertyCheck(count: 1000, input: Gen.int64(in: -5_000_000 ... 5_000_000)) { days in
            let (y, m, d) = Timestamp.civil(fromDays: days)
            #expect((1...12).contains(m))
            #expect(d >= 1 && d <= daysIn(month: m, year: y))
            #expect(Timestamp.daysFromCivil(year: y, month: m, day: d) == days)
        }
    }

    @Test func daysFromCivilAndCivilAreInverseOverValidDates() async {
        let date = zip(Gen.int64(in: -10_000 ... 10_000), Gen.int64(in: 1...12), Gen.int64(in: 1...31))
            .filter { y, m, d in d <= daysIn(month: m, year: y) }
        await propertyCheck(count: 1000, input: date) { y, m, d in
            #expect(Timestamp.civil(fromDays: Timestamp.daysFromCivil(year: y, month: m, day: d)) == (y, m, d))
        }
    }

    @Test func consecutiveDaysAreConsecutiveDates() async {
        await propertyCheck(count: 500, input: Gen.int64(in: -1_000_000 ... 1_000_000)) { days in
            let (y, m, d) = Timestamp.civil(fromDays: days)
            let next = Timestamp.civil(fromDays: days + 1)
            if d < daysIn(month: m, year: y) {
                #expect(next == (y, m, d + 1))
            } else if m < 12 {
                #expect(next == (y, m + 1, 1))
            } else {
                #expect(next == (y + 1, 1, 1))
            }
        }
    }

    @Test func aDaysMonthRunsFromItsFirstDayToTheNextMonthsFirst() async {
        await propertyCheck(count: 500, input: Gen.int64(in: -1_000_000 ... 1_000_000)) { days in
            let (y, m, d) = Timestamp.civil(fromDays: days)
            let start = Timestamp.monthStart(ofDay: days), next = Timestamp.nextMonthStart(ofDay: days)
            #expect(Timestamp.civil(fromDays: start) == (y, m, 1))
            #expect(next - start == daysIn(month: m, year: y))
            #expect(days - start == d - 1)
            #expect(Timestamp.civil(fromDays: next).day == 1)
        }
    }
}

/// Days in a month of the proleptic Gregorian calendar, written independently of the code under test.
private func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2:
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        return leap ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
}
