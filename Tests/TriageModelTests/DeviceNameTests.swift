import Testing
@testable import TriageModel

/// Model identifiers become the names people know; unknown ones stay as they are.
@Suite struct DeviceNameTests {
    @Test(arguments: [
        ("iPhone9,3", "iPhone 7"), ("iPhone10,6", "iPhone X"), ("iPhone11,8", "iPhone XR"), ("iPhone12,8", "iPhone SE (2nd generation)"),
        ("iPhone14,5", "iPhone 13"), ("iPhone14,4", "iPhone 13 mini"), ("iPhone14,7", "iPhone 14"), ("iPhone15,2", "iPhone 14 Pro"),
        ("iPhone16,1", "iPhone 15 Pro"), ("iPhone17,3", "iPhone 16"), ("iPhone17,5", "iPhone 16e"), ("iPhone18,4", "iPhone Air"),
        ("iPad6,11", "iPad (5th generation)"), ("iPad13,18", "iPad (10th generation)"), ("iPad14,1", "iPad mini (6th generation)"),
        ("iPad16,5", "iPad Pro 13-inch (M4)"),
    ])
    func knownIdentifiersHaveTheirMarketingName(identifier: String, name: String) {
        #expect(DeviceName.marketing(identifier) == name)
    }

    @Test func theLabelKeepsTheIdentifierBesideTheName() {
        #expect(DeviceName.label("iPhone14,5") == "iPhone 13 (iPhone14,5)")
    }

    @Test func unknownIdentifiersAreShownAsTheyAre() {
        #expect(DeviceName.marketing("iPhone99,1") == nil)
        #expect(DeviceName.label("iPhone99,1") == "iPhone99,1")
        #expect(DeviceName.label("SM-G991B") == "SM-G991B")
        #expect(DeviceName.label("") == "")
    }

    @Test func everyIdentifierHasOneName() {
        let identifiers = (DeviceName.iPhones + DeviceName.iPads).flatMap(\.1)
        #expect(Set(identifiers).count == identifiers.count)
    }
}
