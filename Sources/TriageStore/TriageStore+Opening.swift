import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TriageModel

/// What a command means to do with a store: it decides how the store is opened.
public enum StoreAccess: Sendable {
    /// Reading (`report`, `show`, `export`, …): read-only, so that reading never writes, unless a
    /// mute has come due or the schema is older and the store may be written. `forMarks` (the
    /// meeting) opens read-write whenever the store allows, read-only otherwise, which the screen says.
    case reading(now: Timestamp, forMarks: Bool = false)
    /// The dashboard: as `reading(forMarks: true)` where the store exists; a new one is created
    /// where none does, so that the dashboard can say how to fill it.
    case dashboard(now: Timestamp)
    /// A decision on an issue (`mark`, `assign`, …): the store must already hold data.
    case deciding
    /// Writing (`ingest`, a copy's target): created where missing; refused where it may not be written.
    case writing
    /// Checking it or copying from it: read-only, brought up to date first where it may be written
    /// (an older schema, or a creation that was cut short).
    case checking
    /// Made anew (the demo's store, built again from its sample files): an SQLite file is removed
    /// first with the files beside it (journal, WAL, shared memory, rejects, the writers' progress mark); refused for a team store.
    case rebuilding
}

extension TriageStore {
    /// Opens the store at `location` (an SQLite file or a `postgres://` URI) as `access` needs it.
    /// `maxPages` caps an SQLite file at that many 4 KiB pages (writes beyond fail as on a full disk).
    public static func open(_ location: String, for access: StoreAccess, maxPages: Int? = nil) throws(StoreError) -> TriageStore {
        let place = locate(location)
        let exists = place.exists
        switch access {
        case .reading(let now, let forMarks):
            guard exists else { throw StoreError("no store at \(location): add events with errtriage ingest FILE, or try errtriage demo") }
            return try openForReading(place, now: now, forMarks: forMarks, maxPages: maxPages)
        case .dashboard(let now):
            return exists ? try openForReading(place, now: now, forMarks: true, maxPages: maxPages)
                : try openChecked(place, readOnly: false, maxPages: maxPages)
        case .deciding:
            guard exists else { throw StoreError("no store at \(location): add events with errtriage ingest FILE first") }
            // Where only opening tells whether a store is there (a server), none is created.
            return try openChecked(place, readOnly: false, maxPages: maxPages, create: !place.writabilityIsKnownOnOpening)
        case .writing:
            return try openChecked(place, readOnly: false, maxPages: maxPages)
        case .checking:
            guard exists else { throw StoreError("no store at \(location)") }
            let upgrade = place.isWritable && (place.needsUpgrade || place.isUnfinished)
            return try openChecked(place, readOnly: !upgrade, maxPages: maxPages)
        case .rebuilding:
            guard !place.isTeamStore else { throw StoreError.usage("a team store is never rebuilt: give an SQLite file") }
            for suffix in ["", "-journal", "-wal", "-shm", ".rejects", ".progress"] { try? FileManager.default.removeItem(atPath: location + suffix) }
            return try openChecked(place, readOnly: false, maxPages: maxPages)
        }
    }

    /// Where only opening tells what may be written (PostgreSQL: the role decides), one connection
    /// that writes nothing unless a mute has come due; otherwise (an SQLite file) read-only unless
    /// due mutes, marks or an upgrade need the file written and it may be.
    static func openForReading(_ place: any StoreLocation, now: Timestamp, forMarks: Bool, maxPages: Int?) throws(StoreError) -> TriageStore {
        if place.writabilityIsKnownOnOpening {
            let store = try openChecked(place, readOnly: false, maxPages: maxPages, create: false)
            try store.applyDueMutes(now: now)
            return store
        }
        let writable = place.isWritable
        if (!forMarks || !writable) && !(writable && place.needsUpgrade) {
            let reader = try openChecked(place, readOnly: true, maxPages: maxPages)
            guard writable, try reader.hasDueMutes(now: now) else { return reader }
        }
        let store = try openChecked(place, readOnly: false, maxPages: maxPages)
        try store.applyDueMutes(now: now)
        return store
    }

    /// Opens the store; a write is refused on a read-only file before SQLite is asked.
    static func openChecked(_ place: any StoreLocation, readOnly: Bool, maxPages: Int?, create: Bool = true) throws(StoreError) -> TriageStore {
        if !readOnly, !place.writabilityIsKnownOnOpening, place.exists, !place.isWritable {
            throw StoreError("\(place.location) is read-only; nothing can be written (ingest, marks and notes need write permission)")
        }
        return try TriageStore(path: place.location, readOnly: readOnly, maxPages: maxPages, create: create)
    }

    /// Where `ingest` copies the lines it rejects: beside an SQLite file; a team store has no
    /// folder of its own, so the current folder, by the database's name.
    public var rejectsPath: String { engine.rejectsPath }

    /// What `check` says of the engine's own integrity check where the store ran one: SQLite's
    /// runs on the file; a PostgreSQL server checks its own pages, and nothing is claimed.
    public var integrityNote: String { engine.integrityNote }
}
