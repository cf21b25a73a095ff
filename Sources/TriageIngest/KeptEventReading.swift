import TriageImport
import TriageModel
import TriageStore

/// A kept event read whole: the store's payload (TriageStore) through its source's reader
/// (TriageImport), for `errtriage event`, `show` and the dashboard alike.
extension TriageStore {
    /// The event with this id read from its kept payload, and what the store knows of it; nil when it is not kept whole.
    public func keptEventDetail(id: String) throws(StoreError) -> (kept: KeptEvent, detail: EventDetail)? {
        guard let kept = try keptEvent(id: id) else { return nil }
        return (kept, EventDetailReader.read(kept.payload, source: kept.source, eventID: kept.eventID, timestamp: kept.timestamp))
    }

    /// Where each link of an issue was raised, outermost first, as its latest kept event says (empty
    /// when none is kept): that event read and decompressed once.
    public func raiseSites(issueKey: String) throws(StoreError) -> [FrameLocation?] {
        try raiseFrames(issueKey: issueKey)?.locations ?? []
    }

    /// Each link's raising frame, outermost first, with the event and release that tell them, as
    /// the issue's latest kept event says (nil when none is kept): what a checkout is read by.
    public func raiseFrames(issueKey: String) throws(StoreError) -> RaiseFrames? {
        guard let latest = try latestKeptEvent(issueKey: issueKey) else { return nil }
        let detail = EventDetailReader.read(latest.payload, source: latest.source, eventID: latest.eventID, timestamp: latest.timestamp)
        return RaiseFrames(eventID: latest.eventID, release: detail.release ?? latest.release, frames: detail.raisingFrames)
    }
}
