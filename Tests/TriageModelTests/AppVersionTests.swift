import PropertyBased
import Testing
@testable import TriageModel

@Suite("AppVersion")
struct AppVersionTests {
    private func v(_ text: String) -> AppVersion {
        guard let version = AppVersion(text) else {
            Issue.record("could not read version '\(text)'")
            return AppVersion(components: [0])
        }
        return version
    }

    @Test func comparesComponentsAsNumbers() {
        #expect(v("1.9") < v("1.10"))
        #expect(v("1.10") < v("1.10.1"))
        #expect(v("1.9") < v("1.10.1"))
    }

    @Test func theNextVersionRaisesTheLastComponentAndNeverTraps() {
        #expect(AppVersion("1.12")!.next.display == "1.13")
        #expect(AppVersion(components: []).next.display == "1")
    }

    @Test func countsMissingComponentsAsZero() {
        #expect(v("1.10") == v("1.10.0"))
        #expect(v("1.10").hashValue == v("1.10.0").hashValue)
    }

    @Test func breaksTiesWithTheBuild() {
        #expect(v("1.7 (2)") < v("1.7 (3)"))
        #expect(v("1.7 (2)").build == 2)
    }

    @Test func readsABuildWithOrWithoutASpaceBeforeTheParenthesis() {
        #expect(v("1.7(2)") == v("1.7 (2)"))
    }

    @Test func readsAPackagePrefixAndAPlusBuild() {
        let version = v("ru.example.tasks@1.9.0+412")
        #expect(version.components == [1, 9, 0])
        #expect(version.build == 412)
        #expect(version.package == "ru.example.tasks")
        #expect(version == AppVersion(components: [1, 9, 0], build: 412, package: "ru.example.tasks"))
        #expect(version.display == "ru.example.tasks@1.9.0")
    }

    @Test func ordersStoreVersionsByBuildThenByVersion() {
        #expect(v("ru.example.tasks@1.9.0+412") < v("ru.example.tasks@1.9.0+413"))
        #expect(v("ru.example.tasks@1.9.0+412") < v("ru.example.tasks@1.10"))
    }

    /// Two services' versions in one store are apart: by package first, never each other's previous.
    @Test func versionsOfTwoPackagesAreApart() {
        #expect(v("shop@2.1.0") != v("payments-api@2.1.0"))
        #expect(v("payments-api@9.0") < v("shop@1.0"))
        #expect(v("shop@2.1.0").isOtherPackage(than: v("payments-api@2.3.1")))
        #expect(!v("shop@2.1.0").isOtherPackage(than: v("2.3.1")))
        let all = ["shop@2.1.0", "payments-api@2.3.1", "shop@2.0.0", "payments-api@2.4.0"]
        #expect(ReleaseRule.ordered(all) == ["payments-api@2.3.1", "payments-api@2.4.0", "shop@2.0.0", "shop@2.1.0"])
        #expect(ReleaseRule.previous(of: "shop@2.1.0", among: all) == "shop@2.0.0")
        #expect(ReleaseRule.previous(of: "shop@2.0.0", among: all) == nil)
        #expect(v("shop@2.1.0").next.display == "shop@2.1.1")
    }

    @Test func sortsAVersionWithoutABuildBeforeTheSameVersionWithOne() {
        #expect(v("1.7") < v("1.7 (1)"))
        #expect(!(v("1.7 (1)") < v("1.7")))
        #expect(v("1.7.0") < v("1.7 (0)"))
    }

    @Test func nextRaisesTheLastComponent() {
        #expect(v("1.12").next == v("1.13"))
        #expect(v("2.0.9").next == v("2.0.10"))
        #expect(v("2.0.9").next.display == "2.0.10")
    }

    @Test func rejectsTextWithoutANumber() {
        #expect(AppVersion("") == nil)
        #expect(AppVersion("beta") == nil)
    }

    /// Versions from a small space so that ties and shared prefixes are common.
    static let version = zip(
        Gen.int(in: 0...3).array(of: 1...4),
        Gen<String?>.element(of: ["", "-beta", "-rc1"]).map { $0! },
        Gen.int(in: 0...3).optional
    ).map { components, suffix, build in AppVersion(components: components, suffix: suffix, build: build) }

    @Test func exactlyOneOfLessEqualOrGreaterHolds() async {
        await propertyCheck(count: 500, input: Self.version, Self.version) { a, b in
            let holds = [a < b, a == b, b < a].filter { $0 }.count
            #expect(holds == 1)
        }
    }

    @Test func orderIsAntisymmetric() async {
        await propertyCheck(count: 500, input: Self.version, Self.version) { a, b in
            if a <= b && b <= a { #expect(a == b) }
            if a < b { #expect(!(b < a)) }
        }
    }

    @Test func orderIsTransitive() async {
        await propertyCheck(count: 1000, input: Self.version, Self.version, Self.version) { a, b, c in
            if a < b && b < c { #expect(a < c) }
            if a <= b && b <= c { #expect(a <= c) }
            if a == b && b == c { #expect(a == c) }
        }
    }

    @Test func equalVersionsHashAlike() async {
        await propertyCheck(count: 500, input: Self.version, Self.version) { a, b in
            if a == b { #expect(a.hashValue == b.hashValue) }
        }
    }

    @Test func orderMatchesIntegerArraysComparedWithZeroPadding() async {
        let numbers = Gen.int(in: 0...12).array(of: 1...5)
        await propertyCheck(count: 500, input: numbers, numbers) { x, y in
            let a = v(x.map(String.init).joined(separator: "."))
            let b = v(y.map(String.init).joined(separator: "."))
            let n = max(x.count, y.count)
            let px = x + Array(repeating: 0, count: n - x.count)
            let py = y + Array(repeating: 0, count: n - y.count)
            #expect((a < b) == px.lexicographicallyPrecedes(py))
            #expect((a == b) == (px == py))
        }
    }
}
