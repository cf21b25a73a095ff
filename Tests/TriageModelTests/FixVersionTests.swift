import Testing
import TriageModel

/// The fix version's grammar, as the dashboard and `mark --in-version` both apply it.
@Suite struct FixVersionTests {
    @Test(arguments: ["1.14", "2.3.2", "v2.0", "V10", "2.3.2-beta.1", "1.0.0-rc1", "1.7+412", "1.7 (412)", "shop@2.1.0",
                      "ru.example.app@1.9.0+412", "2024.11.30", "3-hotfix"])
    func releasesAreTaken(_ text: String) {
        #expect(FixVersion.accepts(text))
    }

    @Test(arguments: ["soon", "2.3.2next week", "2.3.2 maybe", "2.3.2next", "", "1.", ".1", "1..2", "v", "@1.0",
                      "1.0-", "1.0+", "1.0 (x)", "1.0 (4", "2.3.2 (x)", "next 1.0", "1.0-beta.", "shop app@1.0", "1.0\u{1B}[31m"])
    func freeTextIsRefused(_ text: String) {
        #expect(!FixVersion.accepts(text))
    }

    @Test func aVersionTheStoreHasSeenIsTakenAsSeen() {
        let seen: Set<String> = ["2024.11 hotfix", "build 7"]
        #expect(FixVersion.accepts("2024.11 hotfix", seen: seen.contains))
        #expect(!FixVersion.accepts("2024.11 hotfix2", seen: seen.contains))
    }
}
