import Testing
import TriageModel

@Suite struct ReleaseRuleTests {
    @Test func anIssueFirstSeenInTheVersionIsNew() {
        #expect(ReleaseRule.classify(firstSeenInVersion: true, users: 3, of: 1000, previousUsers: 0, of: 1000) == .new)
    }

    @Test func aRateThatTriplesWellBeyondChanceIsWorseAndTheReverseBetter() {
        #expect(ReleaseRule.classify(firstSeenInVersion: false, users: 90, of: 3000, previousUsers: 30, of: 3000) == .worse)
        #expect(ReleaseRule.classify(firstSeenInVersion: false, users: 30, of: 3000, previousUsers: 90, of: 3000) == .better)
    }

    @Test func aSmallMoveOrAFewUsersIsNoChange() {
        // Ratio 1.2: under the margin however many users.
        #expect(ReleaseRule.classify(firstSeenInVersion: false, users: 1200, of: 10000, previousUsers: 1000, of: 10000) == .same)
        // Ratio 3 on a handful of users: within chance.
        #expect(ReleaseRule.classify(firstSeenInVersion: false, users: 3, of: 1000, previousUsers: 1, of: 1000) == .same)
    }

    @Test func ratesCompareAsSharesOfEachVersionsUsers() {
        // The same 60 users, but the new version has a third of the users: three times the share.
        #expect(ReleaseRule.classify(firstSeenInVersion: false, users: 60, of: 1000, previousUsers: 60, of: 3000) == .worse)
    }

    @Test func goneOnlyWhenTheVersionsUsersMakeItsAbsenceTelling() {
        // 10 of 1,000 before: 10 expected among 1,000 users, none seen.
        #expect(ReleaseRule.classify(firstSeenInVersion: false, users: 0, of: 1000, previousUsers: 10, of: 1000) == .gone)
        // 10 of 1,000 before, but only 100 users now: 1 expected, absence says nothing.
        #expect(ReleaseRule.classify(firstSeenInVersion: false, users: 0, of: 100, previousUsers: 10, of: 1000) == .same)
    }

    @Test func previousVersionFollowsReleaseOrderNotText() {
        let versions = ["1.10", "1.9", "1.12", "1.11", "beta"]
        #expect(ReleaseRule.ordered(versions) == ["1.9", "1.10", "1.11", "1.12", "beta"])
        #expect(ReleaseRule.previous(of: "1.10", among: versions) == "1.9")
        #expect(ReleaseRule.previous(of: "1.9", among: versions) == nil)
    }

    @Test func errorFreeUsersIsOneMinusUsersWithAnErrorOverActiveUsers() {
        #expect(UserDays(active: 1000, withError: 8).errorFreePercent == 99.2)
        #expect(UserDays(active: 0, withError: 8).errorFreePercent == nil)
        #expect(ReleaseRule.perMille(5, of: 2000) == 2.5)
    }
}
