import TriageModel

/// The JSON of `report` and `show`: a contract scripts and tests rely on (docs/guide/cli.md, "Report JSON").
public enum ReportJSON {
    /// `latestVersion` marks the issues first seen in it (`new_in`); `projects` are the projects
    /// each issue's events came from, by key (`"projects"`, empty for an issue with none).
    public static func list(_ list: IssueList, unlinked: UnlinkedComplaints, latestVersion: String? = nil,
                            projects: [String: [String]] = [:]) -> JSONValue {
        .object([
            ("window", .string(list.query.window.rawValue)),
            ("now", .string(list.now.iso8601)),
            ("by", .string(list.query.mode.rawValue)),
            ("status", .string(list.query.filter.rawValue)),
            ("series_unit", .string(list.query.window.isHourly ? "hour" : "day")),
            ("series_start", .string(list.seriesStart.iso8601)),
            ("totals", .object([
                ("issues", int(list.totals.issues)), ("events", int(list.totals.events)),
                ("users", int(list.totals.users)), ("complaints", int(list.totals.complaints)),
                ("daily", .array(list.totals.series.map(int))),
            ])),
            ("issues", .array(list.issues.enumerated().map { item in
                var members = summary(item.element, rank: item.offset + 1, latestVersion: latestVersion).members
                let at = (members.firstIndex { $0.0 == "owner" } ?? members.count - 1) + 1
                members.insert(("projects", .array((projects[item.element.key] ?? []).map(JSONValue.string))), at: at)
                return .object(members)
            })),
        ] + retention(since: list.rawEventsSince, approximate: list.approximateUsers) + [
            ("unlinked_complaints", .object([
                ("total", int(unlinked.total)),
                ("by_category", .array(unlinked.groups.map { g in
                    .object([("category", .string(g.category)), ("count", int(g.count)),
                             ("samples", .array(g.samples.map(JSONValue.string)))])
                })),
            ])),
        ])
    }

    /// After a prune: where raw events begin (`raw_events_since`), and `users_approximate` when
    /// the users are a lower bound. Nothing for a store never pruned, so its JSON stays as it was.
    static func retention(since: Timestamp?, approximate: Bool) -> [(String, JSONValue)] {
        guard let since else { return [] }
        return [("raw_events_since", .string(since.iso8601))] + (approximate ? [("users_approximate", .bool(true))] : [])
    }

    public static func summary(_ s: IssueSummary, rank: Int?, latestVersion: String? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = []
        if let rank { members.append(("rank", int(rank))) }
        members += [
            ("key", .string(s.key)), ("chain", .string(s.chain.fullForm)), ("title", .string(s.title)),
            ("status", .string(s.status.rawValue)), ("signals", .array(s.signals.map { .string($0.rawValue) })),
            ("kind", s.kind.map { .string($0.rawValue) } ?? .null),
            ("events", int(s.events)), ("users", int(s.users)), ("complaints", int(s.complaints)),
            ("first_seen", .string(s.firstSeen.iso8601)), ("last_seen", .string(s.lastSeen.iso8601)),
            ("first_version", s.firstVersion.map(JSONValue.string) ?? .null),
            ("last_version", s.lastVersion.map(JSONValue.string) ?? .null),
            ("tracker", s.trackerURL.map(JSONValue.string) ?? .null),
            ("assignee", s.assignee.map(JSONValue.string) ?? .null),
            ("owner", s.owner.map(JSONValue.string) ?? .null),
            ("daily", .array(s.series.map(int))),
        ]
        if let latestVersion, s.firstVersion == latestVersion { members.append(("new_in", .string(latestVersion))) }
        if !s.members.isEmpty {
            members.append(("members", .array(s.members.map { m in
                .object([("key", .string(m.key)), ("chain", .string(m.chain.fullForm)), ("events", int(m.events)),
                         ("users", int(m.users)), ("complaints", int(m.complaints)), ("daily", .array(m.series.map(int)))])
            })))
        }
        return .object(members)
    }

    public static func detail(_ d: IssueDetail) -> JSONValue {
        var members = summary(d.summary, rank: nil).members
        members.insert(("window", .string(d.window.rawValue)), at: 0)
        members.insert(("now", .string(d.now.iso8601)), at: 1)
        members += [
            ("links", .array(d.summary.chain.links.map { link in
                .object([("domain", link.domain.map(JSONValue.string) ?? .null), ("short", .string(link.short)),
                         ("code", int(link.code)), ("name", link.name.map(JSONValue.string) ?? .null)])
            })),
            ("resolved_version", d.resolvedVersion.map(JSONValue.string) ?? .null),
            ("series_unit", .string(d.window.isHourly ? "hour" : "day")),
            ("series_start", .string(d.seriesStart.iso8601)),
            ("breakdowns", .object(d.shownDimensions.map(d.breakdown).map { b in
                (b.dimension.rawValue, .array(b.rows.map { row in
                    var members: [(String, JSONValue)] = [("value", .string(row.value))]
                    if b.dimension == .device, let name = DeviceName.marketing(row.value) { members.append(("name", .string(name))) }
                    members += [("count", int(row.count)), ("percent", .number(Format.tenths(row.percent)))]
                    return .object(members)
                }))
            })),
            ("facets", .array(d.facets.map { f in
                .object([("facet", .string(f.facet)), ("label", .string(f.label)),
                         ("values", .array(f.rows.map { row in
                             .object([("value", .string(row.value)), ("count", int(row.count)),
                                      ("percent", .number(Format.tenths(row.percent)))])
                         })),
                         ("distinct_values", int(f.distinctValues)), ("other_events", int(f.otherEvents))])
            })),
            ("more_tags", int(d.moreTags)),
        ]
        members += retention(since: d.rawEventsSince, approximate: d.approximateUsers)
        members += [
            ("recent_events", .array(d.recentEvents.map(event))),
            ("complaints", .array(d.complaints.map(complaint))),
            ("notes", .array(d.notes.map { .object([("at", .string($0.at.iso8601)), ("by", .string($0.by)), ("text", .string($0.text))]) })),
            ("history", .array(d.history.map { h in
                .object([("from", h.from.map { .string($0.rawValue) } ?? .null), ("to", .string(h.to.rawValue)),
                         ("version", h.version.map(JSONValue.string) ?? .null), ("at", .string(h.at.iso8601)),
                         ("by", .string(h.by)), ("note", h.note.map(JSONValue.string) ?? .null)])
            })),
        ]
        return .object(members)
    }

    public static func event(_ e: ErrorEvent) -> JSONValue {
        func text(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
        return .object([
            ("event_id", .string(e.eventID)), ("timestamp", .string(e.timestamp.iso8601)),
            ("app_version", text(e.appVersion)), ("app_build", text(e.appBuild)), ("platform", text(e.platform)),
            ("os_name", text(e.osName)), ("os_version", text(e.osVersion)), ("device_model", text(e.deviceModel)),
            ("network", text(e.network)), ("orientation", text(e.orientation)), ("app_state", text(e.appState)),
            ("free_ram", e.freeRAM.map { .number(String($0)) } ?? .null),
            ("free_disk", e.freeDisk.map { .number(String($0)) } ?? .null),
            ("jailbroken", e.jailbroken.map(JSONValue.bool) ?? .null),
            ("user_id", text(e.userID)), ("session_id", text(e.sessionID)), ("environment", text(e.environment)),
            ("message", text(e.message)), ("source", .string(e.source)), ("kind", text(e.kind?.rawValue)),
            ("keys", .object(e.customKeys.map { ($0.key, .string($0.value)) })),
        ] + (e.project.map { [("project", JSONValue.string($0))] } ?? [])
          + (e.level.map { [("level", JSONValue.string($0))] } ?? []))
    }

    public static func complaint(_ c: Complaint) -> JSONValue {
        func text(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
        return .object([
            ("complaint_id", .string(c.complaintID)), ("timestamp", .string(c.timestamp.iso8601)),
            ("channel", text(c.channel)), ("category", text(c.category)), ("subject", text(c.subject)),
            ("text", .string(c.text)), ("user_id", text(c.userID)), ("codes", .array(c.codes.map(JSONValue.string))),
        ])
    }

    public static func pivot(_ groups: [LayerGroup], layer: Layer, list: IssueList) -> JSONValue {
        func link(_ l: ChainLink) -> JSONValue {
            .object([("code", .string(l.shortCode)), ("domain", l.domain.map(JSONValue.string) ?? .null),
                     ("name", l.name.map(JSONValue.string) ?? .null)])
        }
        return .object([
            ("window", .string(list.query.window.rawValue)), ("now", .string(list.now.iso8601)),
            ("layer", .string(layer.label)),
            ("groups", .array(groups.map { g in
                .object([("link", link(g.link)), ("events", int(g.events)), ("complaints", int(g.complaints)),
                         ("issues", .array(g.issues.map(JSONValue.string))),
                         ("surfaces_as", .array(g.surfacesAs.map { .object([("link", link($0.link)), ("events", int($0.events))]) })),
                         ("root_causes", .array(g.rootCauses.map { .object([("link", link($0.link)), ("events", int($0.events))]) }))])
            })),
        ])
    }

    public static func int(_ v: Int) -> JSONValue { .number(String(v)) }
}
