import DashboardCore
import DashboardRuntime
import Foundation
import TestSupport
import Testing
import TriageModel

/// `T` in the running dashboard: the ticket draft lands in a file, is named in the status bar and goes to the clipboard.
@Suite struct TicketEffectTests {
    @Test func tWritesTheSelectedIssuesTicketAndCopiesIt() throws {
        let temporary = try TemporaryStore()
        try temporary.ingest(lines: [TemporaryStore.event("a1", "2026-11-20T10:00:00Z", codes: "US14-LO43-AP7-NE8", user: "u1")])
        let effects = StoreEffects(store: temporary.store, user: "tester", ticketFolder: temporary.folder.path)
        let screen = FakeScreen(steps: [{ .key(.char("T")) }, { nil }, { nil }])
        let loop = DashboardLoop(screen: screen, effects: effects, state: DashboardState(storeName: "test.sqlite"),
                                 now: Timestamp.parse("2026-11-20T18:00:00Z")!)
        loop.run()
        let path = temporary.folder.path("errtriage-ticket-US14-LO43-AP7-NE8.md")
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.split(separator: "\n").first?.hasSuffix(" (US14-LO43-AP7-NE8)") == true, "\(written)")
        #expect(written.contains("errtriage show US14-LO43-AP7-NE8"))
        #expect(screen.copied == [written])
        // The message wraps over the last rows instead of being cut.
        #expect(screen.frames.contains { frame in
            frame.lines.contains { $0.contains(" Ticket:") } && frame.lines.contains { $0.contains(temporary.folder.path.prefix(30)) }
        })
    }
}
