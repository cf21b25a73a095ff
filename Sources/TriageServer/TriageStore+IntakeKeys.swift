import TriageModel
import TriageStore

extension TriageStore {
    /// Every project's keys, revoked ones included, as the server checks them.
    func intakeKeys() throws(StoreError) -> [IntakeKey] {
        try projectKeys().map { IntakeKey(publicKey: $0.publicKey, projectID: $0.projectID, project: $0.projectName, revoked: $0.revoked) }
    }
}
