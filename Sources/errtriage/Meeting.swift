import ArgumentParser
import CodeCheckout
import TriageIngest
import Presentation
import TriageModel
import TriageStore

/// `errtriage meeting`: the weekly issue inventory, one agenda item at a time.
struct Meeting: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Walk the meeting's agenda: regressed, spikes, new, then the top by complaints and by events.",
        discussion: """
            Records the meeting's start (report --since-meeting starts there) and opens the dashboard on the \
            agenda: ] and [ move to the next and previous item. With --print, or when not on a terminal, \
            prints the agenda instead.
            """)

    @OptionGroup var options: StoreOptions

    @Option(help: TimeWindow.help)
    var window: TimeWindow = .d7

    @Option(help: "How many issues the top-by-complaints and top-by-events sections take.")
    var top: Int = 5

    @Flag(help: "Print the agenda instead of opening the dashboard (nothing is recorded).")
    var print = false

    @Flag(name: .customLong("by-owner"), help: "The agenda grouped by owner (errtriage owner): printed under each owner, or walked owner by owner.")
    var byOwner = false

    @OptionGroup(title: "The code") var code: CodeOptions

    func run() throws {
        guard top >= 0 else { throw CLIError.usage("--top must be 0 or more") }
        let now = try options.nowTimestamp()
        let printing = print || !TerminalDashboard.isInteractive
        let store = try options.open(for: .reading(now: now, forMarks: !printing))
        let agenda = try store.agenda(window: window, now: now, top: top)
        let unlinked = try store.unlinkedComplaints(window: window, now: now)
        if printing {
            let latest = try? store.latestEventTime()
            // The owners CODEOWNERS gives the raise sites of the issues that have none yet.
            var suggested: [String: [String]] = [:]
            if try code.anyCheckout(store) {
                let lookup = CodeLookup()
                for item in agenda.items where item.issue.owner == nil {
                    guard let raise = try store.raiseFrames(issueKey: item.issue.key) else { continue }
                    let facts = lookup.look(raise.frames, release: raise.release, before: nil,
                                            settings: try code.settings(store, issueKey: item.issue.key), parts: .init(owners: true))
                    if !facts.suggestedOwners.isEmpty { suggested[item.issue.key] = facts.suggestedOwners }
                }
            }
            Stdout.print(AgendaText.render(agenda, unlinked: unlinked, window: window, now: now, byOwner: byOwner,
                                          latestEvent: latest ?? nil, suggestedOwners: suggested), terminator: "")
            return
        }
        // The dashboard records the meeting's start as it builds the agenda.
        try TerminalDashboard.run(store: store, now: options.now == nil || options.nowIsData ? nil : now, storeName: store.target,
                                  window: window, meeting: true, top: top, byOwner: byOwner, anchorToData: options.nowIsData,
                                  code: code.settings)
    }
}

/// The agenda as text: numbered items by section, then the complaints no code explains.
enum AgendaText {
    static func render(_ agenda: Agenda, unlinked: UnlinkedComplaints, window: TimeWindow, now: Timestamp,
                       byOwner: Bool = false, latestEvent: Timestamp? = nil, suggestedOwners: [String: [String]] = [:]) -> String {
        var out = "Meeting agenda — window \(window.rawValue) ending \(now.minuteText) UTC, \(agenda.items.count) issues\n"
        out += ReportText.staleNote(latestEvent, now: now) ?? ""
        var n = 0
        let groups = byOwner ? agenda.byOwner : [(owner: nil, items: agenda.items)]
        for group in groups {
            if byOwner { out += "\n== " + (group.owner.map { "Owner: " + TextSanitizer.sanitize($0) } ?? "No owner") + "\n" }
            for section in Agenda.Section.allCases {
                let items = group.items.filter { $0.section == section }
                guard !items.isEmpty else { continue }
                out += "\n\(section.title)\n"
                for item in items {
                    n += 1
                    let s = item.issue
                    out += Format.right("\(n)", 4) + "  " + Format.fit(s.key, 34) + Format.right("\(s.events)", 7) + " ev"
                        + Format.right("\(s.complaints)", 5) + " cmpl  " + TextSanitizer.sanitize(Format.title(s.chain)) + "\n"
                    if let owners = suggestedOwners[s.key] {
                        out += "      suggested owner (CODEOWNERS): " + TextSanitizer.sanitize(owners.joined(separator: " ")) + "\n"
                    }
                }
            }
        }
        return out + ReportText.unlinked(unlinked, window: window)
    }
}
