import CodeCheckout
import DashboardCore
import Dispatch
import Foundation
import TriageIngest
import TriageModel
import TriageStore

/// Answers the dashboard's questions about the code: scripted in tests, against a checkout in the program.
public protocol CodePerformer: Sendable {
    /// Looks the request up; the answer comes back as `.codeLoaded`.
    func perform(_ request: CodeRequest) -> DashboardAction
}

/// The checkout read for the dashboard (`CodeLookup`), with the settings each issue's project
/// resolves to: `--repo`, `--path-map` and `--release-ref`, else `ERRTRIAGE_REPO`, else `project set`.
public struct CodeEffects: CodePerformer {
    let store: TriageStore
    let lookup: CodeLookup
    let commandLine: CodeSettings
    let environmentRepo: String?

    public init(store: TriageStore, commandLine: CodeSettings, environmentRepo: String?, lookup: CodeLookup = CodeLookup()) {
        self.store = store
        self.commandLine = commandLine
        self.environmentRepo = environmentRepo
        self.lookup = lookup
    }

    public func perform(_ request: CodeRequest) -> DashboardAction {
        switch request {
        case .issue(let key, let raise, let firstSeen):
            let settings = (try? CodeEffects.settings(store, issueKey: key, commandLine: commandLine, environmentRepo: environmentRepo))
                ?? CodeSettings.resolve(commandLine: commandLine, environmentRepo: environmentRepo, project: nil)
            return .codeLoaded(.issue(key: key, raise: raise, lookup.raiseSites(raise, firstSeen: firstSeen, settings: settings)))
        case .event(let issueKey, let event):
            let settings = (try? CodeEffects.settings(store, issueKey: issueKey, commandLine: commandLine, environmentRepo: environmentRepo))
                ?? CodeSettings.resolve(commandLine: commandLine, environmentRepo: environmentRepo, project: nil)
            return .codeLoaded(.event(issueKey: issueKey, eventID: event.eventID, lookup.eventFrames(event, settings: settings)))
        }
    }

    /// The code settings for an issue: the command line's and the environment's over its projects' own.
    public static func settings(_ store: TriageStore, issueKey: String, commandLine: CodeSettings, environmentRepo: String?) throws(StoreError) -> CodeSettings {
        if commandLine.repo != nil, !commandLine.pathMaps.isEmpty, commandLine.releaseRef != nil {
            return CodeSettings.resolve(commandLine: commandLine, environmentRepo: environmentRepo, project: nil)
        }
        let stored = try store.projectCodeSettings()
        guard stored.contains(where: { !$0.code.isEmpty }) else {
            return CodeSettings.resolve(commandLine: commandLine, environmentRepo: environmentRepo, project: nil)
        }
        let projects = try store.projectNames(ofIssues: [issueKey])[issueKey] ?? []
        return CodeSettings.forIssue(projects: projects, stored: Dictionary(stored.map { ($0.project.name, $0.code) }) { a, _ in a },
                                     commandLine: commandLine, environmentRepo: environmentRepo)
    }
}

/// Carries out the code's requests on a queue of their own, so that a slow git never holds the
/// store's work or a key: results wait here for the loop, which takes them with the store's.
final class CodeWorker: @unchecked Sendable {  // `results` and `pending` are guarded by `lock`
    private let performer: any CodePerformer
    private let queue = DispatchQueue(label: "errtriage.code")
    private let lock = NSLock()
    private var results: [DashboardAction] = []
    private var pending = 0

    init(_ performer: any CodePerformer) { self.performer = performer }

    func submit(_ request: CodeRequest) {
        lock.withLock { pending += 1 }
        queue.async { [self] in
            let result = performer.perform(request)
            lock.withLock {
                results.append(result)
                pending -= 1
            }
        }
    }

    /// Whether a request is still being looked up (the loop then polls at a frame's pace).
    var isBusy: Bool { lock.withLock { pending > 0 } }

    func take() -> [DashboardAction] {
        lock.withLock {
            defer { results = [] }
            return results
        }
    }
}
