import DashboardCore
import Foundation
import Presentation
import TriageIngest
import TriageModel
import TriageStore

/// The dashboard's effects carried out against the store, with decisions made by `user`.
public struct StoreEffects: EffectPerformer {
    let store: TriageStore
    let user: String
    /// Where `T` writes ticket drafts.
    let ticketFolder: String

    /// Effects on `store`; marks, undos and meetings are recorded as `user`'s; `T` writes tickets into `ticketFolder`.
    public init(store: TriageStore, user: String, ticketFolder: String = FileManager.default.currentDirectoryPath) {
        self.store = store
        self.user = user
        self.ticketFolder = ticketFolder
    }

    /// Carries out one request against the store; a failure comes back as `.failed`.
    public func perform(_ request: StoreRequest, now: Timestamp) -> DashboardAction {
        do {
            switch request {
            case .loadList(let query):
                return .listLoaded(try store.issueList(query, now: now))
            case .loadDetail(let key, let window):
                var detail = try store.issueDetail(key: key, window: window, now: now)
                detail.life = try store.history(key: detail.summary.key)
                let raise = try store.raiseFrames(issueKey: detail.summary.key)
                detail.raisedAt = raise?.locations ?? []
                detail.raiseFrames = raise
                return .detailLoaded(detail)
            case .loadPivot(let query, let layer):
                let groups = try store.layerPivot(query, by: layer, now: now).groups
                var unknown = false
                if case .domain(let name) = layer, groups.isEmpty { unknown = try !store.knowsDomain(name) }
                return .pivotLoaded(layer: layer, query: query, groups: groups, unknownDomain: unknown)
            case .loadRelease(let window):
                guard let latest = try store.versions().last else { return .releaseLoaded(nil, window: window) }
                return .releaseLoaded(try store.compareRelease(latest, window: window, now: now), window: window)
            case .loadAgenda(let window, let top, let record):
                if record { try store.recordMeeting(at: now, by: user) }
                return .agendaLoaded(try store.agenda(window: window, now: now, top: top),
                                     unlinked: try store.unlinkedComplaints(window: window, now: now))
            case .writeTicket(let key, let window, let code):
                var detail = try store.issueDetail(key: key, window: window, now: now)
                if code != nil { detail.raisedAt = try store.raiseSites(issueKey: detail.summary.key) }
                let text = TicketText.render(detail, style: .markdown, code: code)
                let path = (ticketFolder as NSString).appendingPathComponent("errtriage-ticket-\(key).md")
                do {
                    try text.write(toFile: path, atomically: true, encoding: .utf8)
                } catch {
                    return .failed("cannot write \(path): \(error.localizedDescription)")
                }
                return .ticketWritten(key: key, path: path, text: text)
            case .loadViews:
                return .viewsLoaded(try store.savedViews())
            case .loadEvent(let id, let issueKey):
                let kept = try store.keptEvents(issueKey: issueKey).map { WholeEvent.KeptRef(eventID: $0.eventID, timestamp: $0.timestamp) }
                // Only a payload of this issue's: an id two issues share reads as the one the issue keeps.
                let read = kept.contains { $0.eventID == id } ? try store.keptEventDetail(id: id) : nil
                return .eventLoaded(WholeEvent(eventID: id, issueKey: issueKey, detail: read?.detail,
                                               roles: read?.kept.roles.names ?? [], kept: kept))
            // Decisions carry the dashboard's time: with --now (and in the demo) the clock stands
            // still at the data's end, so that the minutes of that window hold them.
            case .mark(let key, let mark):
                return .marked(try store.mark(key, mark, by: user, at: now))
            case .undo(let receipt):
                switch try store.undoIfStanding(receipt, by: user, at: now) {
                case .undone: return .undone(receipt)
                case .overwritten(let why): return .undoSkipped(receipt, why)
                }
            case .merge(let keys):
                return .merged(head: keys[0], keys: keys, receipt: try store.merge(keys, into: keys[0], by: user, at: now))
            case .undoMerge(let receipt):
                return .mergeUndone(receipt, restored: try store.undoMerge(receipt, by: user, at: now))
            case .addRule(let name, let query):
                return .ruleAdded(try store.addGroupingRule(query: query, name: name, by: user, at: now))
            }
        } catch {
            return .failed(error.message)
        }
    }

    /// The store's revision counter.
    public func revision() -> Int64? { try? store.revision() }
}
