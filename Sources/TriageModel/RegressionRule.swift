/// When an event brings a resolved issue back (issue status rules, README "Status rules").
///
/// Resolved in version V at time T: an event after T from V or later regresses the issue; events
/// after T from older versions are stragglers from users who have not updated; events from before
/// T (late uploads) never regress. Resolved without a version: an event after T regresses when its
/// version was not seen before T.
public enum RegressionRule {
    /// Whether one event regresses an issue resolved at `resolvedAt` in `resolvedVersion`.
    /// `versionSeenBefore` answers whether the event's version had been seen before `resolvedAt`.
    public static func regresses(eventTime: Timestamp, eventVersion: String?, eventBuild: String?,
                                 resolvedAt: Timestamp, resolvedVersion: String?,
                                 versionSeenBefore: () -> Bool) -> Bool {
        guard eventTime > resolvedAt else { return false }
        if let fixed = resolvedVersion.flatMap({ AppVersion($0) }) {
            guard let version = eventVersion.flatMap({ AppVersion($0, build: eventBuild) }) else { return false }
            // Another package's version (two services in one store) is no later or earlier than
            // the fix: its release says nothing of it, as a fix without a version does not.
            guard !version.isOtherPackage(than: fixed) else { return !versionSeenBefore() }
            // A fix named without a build covers every build of that version; a fix named without
            // its package, every package's.
            var comparable = fixed.build == nil ? AppVersion(components: version.components, suffix: version.suffix, package: version.package) : version
            if fixed.package == nil { comparable.package = nil }
            return comparable >= fixed
        }
        return !versionSeenBefore()
    }
}

/// The SPIKE signal's rule, in one place: the last 24 hours against the issue's own hourly
/// baseline of the 7 days before.
public enum SpikeRule {
    /// At least this many events in the last 24 hours: a handful of events is never a spike.
    public static let minimumEvents = 20
    /// The last 24 hours must hold this many times the baseline's daily mean…
    public static let ratio = 4.0
    /// …and lie this many standard deviations (Poisson) above it.
    public static let sigmas = 4.0

    /// `hourly` holds 192 counts, oldest first: the 168 baseline hours, then the last 24.
    public static func fires(hourly: [Int]) -> Bool {
        guard hourly.count >= 24 else { return false }
        let recent = hourly.suffix(24).reduce(0, +)
        let baselineHours = hourly.dropLast(24)
        guard recent >= minimumEvents else { return false }
        let baselineDaily = Double(baselineHours.reduce(0, +)) / max(1, Double(baselineHours.count)) * 24
        let expected = max(baselineDaily, 1)
        return Double(recent) >= ratio * expected && Double(recent) >= expected + sigmas * expected.squareRoot()
    }
}
