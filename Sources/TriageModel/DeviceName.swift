/// The names people know Apple devices by, from the model identifiers events carry (`iPhone14,5` is the iPhone 13).
public enum DeviceName {
    /// The marketing name of a model identifier, or nil when the table does not know it.
    public static func marketing(_ identifier: String) -> String? {
        names[identifier]
    }

    /// The marketing name with the identifier, `iPhone 13 (iPhone14,5)`; an unknown identifier as it is.
    public static func label(_ identifier: String) -> String {
        marketing(identifier).map { "\($0) (\(identifier))" } ?? identifier
    }

    /// iPhone and iPad models from 2015 to 2025, after Apple's published identifiers.
    static let names: [String: String] = {
        var table: [String: String] = [:]
        for (name, identifiers) in iPhones + iPads {
            for identifier in identifiers { table[identifier] = name }
        }
        return table
    }()

    static let iPhones: [(String, [String])] = [
        ("iPhone 6s", ["iPhone8,1"]), ("iPhone 6s Plus", ["iPhone8,2"]), ("iPhone SE", ["iPhone8,4"]),
        ("iPhone 7", ["iPhone9,1", "iPhone9,3"]), ("iPhone 7 Plus", ["iPhone9,2", "iPhone9,4"]),
        ("iPhone 8", ["iPhone10,1", "iPhone10,4"]), ("iPhone 8 Plus", ["iPhone10,2", "iPhone10,5"]),
        ("iPhone X", ["iPhone10,3", "iPhone10,6"]),
        ("iPhone XS", ["iPhone11,2"]), ("iPhone XS Max", ["iPhone11,4", "iPhone11,6"]), ("iPhone XR", ["iPhone11,8"]),
        ("iPhone 11", ["iPhone12,1"]), ("iPhone 11 Pro", ["iPhone12,3"]), ("iPhone 11 Pro Max", ["iPhone12,5"]),
        ("iPhone SE (2nd generation)", ["iPhone12,8"]),
        ("iPhone 12 mini", ["iPhone13,1"]), ("iPhone 12", ["iPhone13,2"]), ("iPhone 12 Pro", ["iPhone13,3"]),
        ("iPhone 12 Pro Max", ["iPhone13,4"]),
        ("iPhone 13 Pro", ["iPhone14,2"]), ("iPhone 13 Pro Max", ["iPhone14,3"]), ("iPhone 13 mini", ["iPhone14,4"]),
        ("iPhone 13", ["iPhone14,5"]), ("iPhone SE (3rd generation)", ["iPhone14,6"]),
        ("iPhone 14", ["iPhone14,7"]), ("iPhone 14 Plus", ["iPhone14,8"]),
        ("iPhone 14 Pro", ["iPhone15,2"]), ("iPhone 14 Pro Max", ["iPhone15,3"]),
        ("iPhone 15", ["iPhone15,4"]), ("iPhone 15 Plus", ["iPhone15,5"]),
        ("iPhone 15 Pro", ["iPhone16,1"]), ("iPhone 15 Pro Max", ["iPhone16,2"]),
        ("iPhone 16 Pro", ["iPhone17,1"]), ("iPhone 16 Pro Max", ["iPhone17,2"]), ("iPhone 16", ["iPhone17,3"]),
        ("iPhone 16 Plus", ["iPhone17,4"]), ("iPhone 16e", ["iPhone17,5"]),
        ("iPhone 17 Pro", ["iPhone18,1"]), ("iPhone 17 Pro Max", ["iPhone18,2"]), ("iPhone 17", ["iPhone18,3"]),
        ("iPhone Air", ["iPhone18,4"]),
    ]

    static let iPads: [(String, [String])] = [
        ("iPad Pro (12.9-inch)", ["iPad6,7", "iPad6,8"]), ("iPad Pro (9.7-inch)", ["iPad6,3", "iPad6,4"]),
        ("iPad (5th generation)", ["iPad6,11", "iPad6,12"]),
        ("iPad Pro (12.9-inch) (2nd generation)", ["iPad7,1", "iPad7,2"]), ("iPad Pro (10.5-inch)", ["iPad7,3", "iPad7,4"]),
        ("iPad (6th generation)", ["iPad7,5", "iPad7,6"]), ("iPad (7th generation)", ["iPad7,11", "iPad7,12"]),
        ("iPad Pro (11-inch)", ["iPad8,1", "iPad8,2", "iPad8,3", "iPad8,4"]),
        ("iPad Pro (12.9-inch) (3rd generation)", ["iPad8,5", "iPad8,6", "iPad8,7", "iPad8,8"]),
        ("iPad Pro (11-inch) (2nd generation)", ["iPad8,9", "iPad8,10"]),
        ("iPad Pro (12.9-inch) (4th generation)", ["iPad8,11", "iPad8,12"]),
        ("iPad mini (5th generation)", ["iPad11,1", "iPad11,2"]), ("iPad Air (3rd generation)", ["iPad11,3", "iPad11,4"]),
        ("iPad (8th generation)", ["iPad11,6", "iPad11,7"]), ("iPad (9th generation)", ["iPad12,1", "iPad12,2"]),
        ("iPad Air (4th generation)", ["iPad13,1", "iPad13,2"]),
        ("iPad Pro (11-inch) (3rd generation)", ["iPad13,4", "iPad13,5", "iPad13,6", "iPad13,7"]),
        ("iPad Pro (12.9-inch) (5th generation)", ["iPad13,8", "iPad13,9", "iPad13,10", "iPad13,11"]),
        ("iPad Air (5th generation)", ["iPad13,16", "iPad13,17"]), ("iPad (10th generation)", ["iPad13,18", "iPad13,19"]),
        ("iPad mini (6th generation)", ["iPad14,1", "iPad14,2"]),
        ("iPad Pro (11-inch) (4th generation)", ["iPad14,3", "iPad14,4"]),
        ("iPad Pro (12.9-inch) (6th generation)", ["iPad14,5", "iPad14,6"]),
        ("iPad Air 11-inch (M2)", ["iPad14,8", "iPad14,9"]), ("iPad Air 13-inch (M2)", ["iPad14,10", "iPad14,11"]),
        ("iPad Air 11-inch (M3)", ["iPad15,3", "iPad15,4"]), ("iPad Air 13-inch (M3)", ["iPad15,5", "iPad15,6"]),
        ("iPad (A16)", ["iPad15,7", "iPad15,8"]), ("iPad mini (A17 Pro)", ["iPad16,1", "iPad16,2"]),
        ("iPad Pro 11-inch (M4)", ["iPad16,3", "iPad16,4"]), ("iPad Pro 13-inch (M4)", ["iPad16,5", "iPad16,6"]),
        ("iPad Pro 11-inch (M5)", ["iPad17,1", "iPad17,2"]), ("iPad Pro 13-inch (M5)", ["iPad17,3", "iPad17,4"]),
    ]
}
