import TriageModel

extension Format {
    /// Users affected per 1,000 users, one decimal: `12.4‰` (`12.4/1000` in ASCII).
    /// Below 1‰, two decimals (`0.04‰`), so that a small rate does not read as none.
    public static func perMille(_ value: Double, unicode: Bool = true) -> String {
        let text: String
        if value > 0 && value < 1 {
            let hundredths = Int((value * 100).rounded())
            text = hundredths < 10 ? "0.0\(hundredths)" : "0.\(hundredths)"
        } else {
            text = tenths(value)
        }
        return text + (unicode ? "‰" : "/1000")
    }

    /// A rate against the previous version's: `3.1‰ → 12.4‰` (`->` in ASCII).
    public static func rateChange(_ before: Double, _ now: Double, unicode: Bool = true) -> String {
        perMille(before, unicode: unicode) + (unicode ? " → " : " -> ") + perMille(now, unicode: unicode)
    }

    /// Error-free users of a version, `99.2%`, or `-` where adoption is unknown.
    public static func errorFree(_ days: UserDays?) -> String {
        days?.errorFreePercent.map(percent) ?? "-"
    }

    /// What the rates of a comparison are per, and the warning when adoption is unknown.
    public static func releaseDenominator(_ c: ReleaseComparison) -> String {
        if c.adoptionKnown {
            return "rates per 1,000 active users of the version (adoption data), counted per day"
        }
        return "no adoption data: rates are per 1,000 users who reported any error in the version, counted per day, so they overstate (errtriage ingest adoption.csv)"
    }

    /// The heading of one section of a comparison: `New in 1.13`, `Worse than 1.12`, …
    public static func releaseSection(_ change: ReleaseRule.Change, _ c: ReleaseComparison) -> String {
        let previous = c.previous ?? "the previous version"
        switch change {
        case .new: return "New in \(c.version)"
        case .worse: return "Worse than \(previous)"
        case .better: return "Better than \(previous)"
        case .gone: return "Gone since \(previous)"
        case .same: return "Unchanged"
        }
    }

    /// The minutes' one line on the latest release: `Release 1.13: 4 new, 1 regressed, error-free users 99.2%`.
    public static func releaseLine(_ r: ReleaseSummary) -> String {
        var line = "Release \(r.version): \(r.newIssues) new, \(r.regressions) regressed"
        if let free = r.adoption?.errorFreePercent { line += ", error-free users \(percent(free))" }
        return line
    }
}

extension Format {
    /// An issue's users in a comparison: `77` when new, `144→398` when moved, `was 12` when gone.
    /// `≈` (`~` in ASCII) before them when they are a lower bound (days of pruned events).
    public static func releaseUsers(_ i: ReleaseIssue, _ change: ReleaseRule.Change, unicode: Bool = true) -> String {
        (i.usersApproximate ? (unicode ? "≈" : "~") : "") + moved(i.previousUsers, i.users, change, unicode: unicode)
    }

    /// After a prune, for a comparison whose window reaches before the raw horizon: where the
    /// figures come from, and what is a lower bound. Nil when the window's events are all kept.
    public static func releaseRetentionNote(_ c: ReleaseComparison) -> String? {
        guard let since = c.rawEventsSince else { return nil }
        var note = "raw events before \(since.dateText) were pruned; the days before it are answered from the figures kept per version and day"
        if c.usersApproximate { note += "; ≈ users are a lower bound (users seen on several pruned days cannot be told apart)" }
        if c.countsApproximate {
            note += "; ≈ this hourly window reaches into pruned days, which are kept per day, not per hour: their events are left out and the counts are a lower bound"
        }
        return note
    }

    /// An issue's events in a comparison, as `releaseUsers` writes users.
    public static func releaseEvents(_ i: ReleaseIssue, _ change: ReleaseRule.Change, unicode: Bool = true) -> String {
        moved(i.previousEvents, i.events, change, unicode: unicode)
    }

    static func moved(_ before: Int, _ now: Int, _ change: ReleaseRule.Change, unicode: Bool) -> String {
        switch change {
        case .gone: "was \(before)"
        case .new: String(now)
        default: "\(before)\(unicode ? "→" : "->")\(now)"
        }
    }
}

extension Format {
    /// Why two issues may be one: `one layer added: RE3 RepositoryError.reserveFailed`.
    public static func mergeReason(_ reason: MergeSuggestion.Reason) -> String {
        switch reason {
        case .layerAdded(let link): "one layer added: \(link.shortCode) \(link.fullName)"
        case .layerRemoved(let link): "one layer removed: \(link.shortCode) \(link.fullName)"
        case .domainRenamed(let from, let to): "the same codes, domain \(from) renamed \(to)"
        case .succeeds(let last, let first): "first seen in \(first) right after the other's last version \(last), same user-facing error and root cause"
        }
    }
}
