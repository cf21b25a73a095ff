import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The app's and the device's facts at the moment of a report, as errtriage slices issues by them.
/// Every fact is optional: a provider gives the ones its platform has.
public struct DeviceFacts: Sendable, Equatable {
    public var appVersion: String?
    public var appBuild: String?
    /// `ios`, `macos`, `linux`, …
    public var platform: String?
    public var osName: String?
    public var osVersion: String?
    /// `iPhone14,5`, or the machine's architecture where the model is not known.
    public var deviceModel: String?
    /// `wifi`, `cellular`, `offline`.
    public var network: String?
    /// `portrait`, `landscape`.
    public var orientation: String?
    /// `foreground`, `background`.
    public var appState: String?
    /// Bytes.
    public var freeRAM: Int64?
    /// Bytes.
    public var freeDisk: Int64?
    public var jailbroken: Bool?
    public var userID: String?
    public var sessionID: String?

    /// Facts as given; those left out are unknown.
    public init(appVersion: String? = nil, appBuild: String? = nil, platform: String? = nil, osName: String? = nil,
                osVersion: String? = nil, deviceModel: String? = nil, network: String? = nil, orientation: String? = nil,
                appState: String? = nil, freeRAM: Int64? = nil, freeDisk: Int64? = nil, jailbroken: Bool? = nil,
                userID: String? = nil, sessionID: String? = nil) {
        self.appVersion = appVersion
        self.appBuild = appBuild
        self.platform = platform
        self.osName = osName
        self.osVersion = osVersion
        self.deviceModel = deviceModel
        self.network = network
        self.orientation = orientation
        self.appState = appState
        self.freeRAM = freeRAM
        self.freeDisk = freeDisk
        self.jailbroken = jailbroken
        self.userID = userID
        self.sessionID = sessionID
    }
}

/// Gives the facts of each report; called on the reporting thread, so it must be quick. An app
/// replaces the system's with its own (network from `NWPathMonitor`, orientation and app state
/// from UIKit), usually starting from `SystemFacts`' and filling in the rest.
public protocol DeviceFactsProvider: Sendable {
    /// The facts now.
    func currentFacts() -> DeviceFacts
}

/// The version and build an app reports.
public struct AppInfo: Sendable, Equatable {
    public var version: String?
    public var build: String?

    /// A version and build as given.
    public init(version: String?, build: String?) {
        self.version = version
        self.build = build
    }

    /// The main bundle's `CFBundleShortVersionString` and `CFBundleVersion`, where it has them.
    public static var main: AppInfo {
        let info = Bundle.main.infoDictionary
        return AppInfo(version: info?["CFBundleShortVersionString"] as? String, build: info?["CFBundleVersion"] as? String)
    }
}

/// The facts Foundation and the C library tell on every platform: app version and build, OS name
/// and version, the device model (`uname`'s machine: `iPhone14,5` on iOS, the architecture elsewhere),
/// free RAM (Linux) and free disk, and a session id made at launch. Network, orientation
/// and app state need the platform's UI and network frameworks: an app's own provider adds them.
/// Free RAM and disk are read at most once a second.
public final class SystemFacts: DeviceFactsProvider, @unchecked Sendable {
    private let fixed: DeviceFacts
    private let diskPath: String
    private let lock = NSLock()
    private var measured: (at: UInt64, ram: Int64?, disk: Int64?) = (0, nil, nil)

    /// `diskPath`: a folder on the disk whose free space counts (the app's caches).
    public init(app: AppInfo = .main, diskPath: String = NSTemporaryDirectory()) {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        fixed = DeviceFacts(
            appVersion: app.version, appBuild: app.build, platform: SystemFacts.platform, osName: SystemFacts.osName,
            osVersion: "\(version.majorVersion).\(version.minorVersion).\(version.patchVersion)",
            deviceModel: SystemFacts.machine(), sessionID: SystemFacts.newSessionID())
        self.diskPath = diskPath
    }

    /// The launch's facts with free RAM and disk as of the last second.
    public func currentFacts() -> DeviceFacts {
        var facts = fixed
        let now = DispatchTime.now().uptimeNanoseconds
        lock.lock()
        if measured.at == 0 || now &- measured.at > 1_000_000_000 {
            measured = (now, SystemFacts.freeRAM(), SystemFacts.freeDisk(diskPath))
        }
        facts.freeRAM = measured.ram
        facts.freeDisk = measured.disk
        lock.unlock()
        return facts
    }

    static var platform: String {
        #if os(iOS)
        "ios"
        #elseif os(macOS)
        "macos"
        #elseif os(tvOS)
        "tvos"
        #elseif os(watchOS)
        "watchos"
        #elseif os(Linux)
        "linux"
        #else
        "other"
        #endif
    }

    static var osName: String {
        #if os(iOS)
        "iOS"
        #elseif os(macOS)
        "macOS"
        #elseif os(tvOS)
        "tvOS"
        #elseif os(watchOS)
        "watchOS"
        #elseif os(Linux)
        "Linux"
        #else
        "other"
        #endif
    }

    /// `uname`'s machine: the model identifier on Apple's devices, the architecture elsewhere.
    static func machine() -> String? {
        var name = utsname()
        guard uname(&name) == 0 else { return nil }
        let text = withUnsafeBytes(of: &name.machine) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? nil : text
    }

    /// Memory still available: `MemAvailable` on Linux. Apple's platforms tell it through the `os`
    /// module (`os_proc_available_memory()`), outside Foundation: an app's provider adds it there.
    static func freeRAM() -> Int64? {
        #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("MemAvailable:") }),
              let kib = Int64(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kib * 1024
        #else
        return nil
        #endif
    }

    /// Free bytes on the disk that holds `path`, as an unprivileged app may use them.
    static func freeDisk(_ path: String) -> Int64? {
        var stats = statvfs()
        guard statvfs(path, &stats) == 0 else { return nil }
        return Int64(stats.f_bavail) * Int64(stats.f_frsize)
    }

    /// A random id for this launch.
    static func newSessionID() -> String {
        var generator = SystemRandomNumberGenerator()
        return Hex.string(generator.next()) + Hex.string(generator.next())
    }
}

/// Fixed-width lowercase hexadecimal.
enum Hex {
    /// 16 hex digits.
    static func string(_ value: UInt64) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes = [UInt8](repeating: 0, count: 16)
        var v = value
        for i in stride(from: 15, through: 0, by: -1) {
            bytes[i] = digits[Int(v & 0xF)]
            v >>= 4
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
