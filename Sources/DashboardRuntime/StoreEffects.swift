import DashboardCore
import Foundation
import TriageIngest
import TriageModel
import TriageStore

/// The store the dashboard reads and changes: its own methods, as the screens' loads name them.
extension TriageStore: DashboardStore {}

/// The dashboard's effects carried out against the store, with decisions made by `user`: each
/// screen's load (`StoreLoad`) runs here, off the input loop, and its answer comes back as an action.
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
        let context = StoreContext(store: store, now: now, user: user, ticketFolder: ticketFolder) { text, path in
            do {
                try text.write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                throw WriteFailure(description: error.localizedDescription)
            }
        }
        do {
            return try request.perform(context)
        } catch let error as StoreError {
            return .failed(error.message)
        } catch {
            return .failed("\(error)")
        }
    }

    /// The store's revision counter.
    public func revision() -> Int64? { try? store.revision() }

    /// Why a file could not be written, as Foundation says it.
    struct WriteFailure: Error, CustomStringConvertible {
        var description: String
    }
}
