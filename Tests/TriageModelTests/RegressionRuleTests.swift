import Testing
import TriageModel

/// The status rule for a resolved issue: which later events bring it back.
@Suite("RegressionRule")
struct RegressionRuleTests {
    let fixedAt = Timestamp.parse("2026-11-05T00:00:00Z")!
    let after = Timestamp.parse("2026-11-06T09:00:00Z")!
    let before = Timestamp.parse("2026-11-04T09:00:00Z")!

    func regresses(_ version: String?, build: String? = nil, at time: Timestamp? = nil, fixedIn: String?,
                   seenBefore: Bool = false) -> Bool {
        RegressionRule.regresses(eventTime: time ?? after, eventVersion: version, eventBuild: build,
                                 resolvedAt: fixedAt, resolvedVersion: fixedIn, versionSeenBefore: { seenBefore })
    }

    @Test func theFixedVersionOrANewerOneRegresses() {
        #expect(regresses("1.10", fixedIn: "1.10"))
        #expect(regresses("1.10.1", fixedIn: "1.10"))
        #expect(regresses("2.0", fixedIn: "1.10"))
    }

    /// A package's fix speaks for that package: another service's versions are judged as if the
    /// fix named no version (new since the fix, or not); a fix typed without a package covers all.
    @Test func regressionsArePerPackage() {
        #expect(regresses("shop@2.4", fixedIn: "shop@2.3"))
        #expect(!regresses("shop@2.2", fixedIn: "shop@2.3"))
        #expect(regresses("payments-api@1.0", fixedIn: "shop@2.3", seenBefore: false))
        #expect(!regresses("payments-api@9.0", fixedIn: "shop@2.3", seenBefore: true))
        #expect(regresses("shop@2.4", fixedIn: "2.3"))
        #expect(!regresses("shop@2.2", fixedIn: "2.3"))
    }

    @Test func stragglersOnOlderVersionsDoNot() {
        #expect(!regresses("1.9", fixedIn: "1.10"))
        #expect(!regresses("1.9.9", fixedIn: "1.10"))
    }

    @Test func versionsCompareAsNumbersNotAsText() {
        #expect(!regresses("1.9", fixedIn: "1.10"))
        #expect(regresses("1.10", fixedIn: "1.9"))
    }

    @Test func lateUploadsFromBeforeTheFixNeverRegress() {
        #expect(!regresses("2.0", at: before, fixedIn: "1.10"))
        #expect(!regresses("2.0", at: fixedAt, fixedIn: "1.10"))
    }

    @Test func theBuildBreaksTheTieWhenTheFixNamesOne() {
        #expect(!regresses("1.10", build: "411", fixedIn: "1.10 (412)"))
        #expect(regresses("1.10", build: "412", fixedIn: "1.10 (412)"))
        #expect(regresses("1.10", build: "413", fixedIn: "1.10(412)"))
        #expect(regresses("1.11", build: "1", fixedIn: "1.10 (412)"))
    }

    @Test func aFixWithoutABuildCoversEveryBuildOfItsVersion() {
        #expect(regresses("1.10", build: "1", fixedIn: "1.10"))
        #expect(regresses("1.10", build: "9999", fixedIn: "1.10"))
    }

    @Test func storePrefixedReleasesCompareByTheirVersion() {
        #expect(!regresses("ru.example.tasks@1.9.0+412", fixedIn: "1.10"))
        #expect(regresses("ru.example.tasks@1.10.0+412", fixedIn: "1.10"))
    }

    @Test func anEventWithoutAVersionCannotProveTheFixFailed() {
        #expect(!regresses(nil, fixedIn: "1.10"))
    }

    @Test func withoutAVersionOnlyAVersionNotSeenBeforeTheFixRegresses() {
        #expect(regresses("1.10", fixedIn: nil, seenBefore: false))
        #expect(!regresses("1.9", fixedIn: nil, seenBefore: true))
        #expect(!regresses("1.10", at: before, fixedIn: nil, seenBefore: false))
    }
}
