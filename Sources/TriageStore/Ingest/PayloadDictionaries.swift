import Synchronization

/// The store's zstd dictionaries (`payload_dictionary`), each digested once and shared by the
/// reads and the writer of this store. A dictionary never changes once written; one trained in
/// a transaction that rolled back is forgotten (`forget`), since the next may take its id.
final class PayloadDictionaries: Sendable {
    /// The payloads of a source a dictionary is trained on: the first thousand, or fewer as long
    /// as they hold a MiB (Sentry's events are several KiB each).
    static let trainingCount = 1_000
    static let trainingBytes = 1 << 20
    /// A dictionary's size at most: on the bench's native lines 16 KiB gave 0.169 of each line, 64 KiB 0.168.
    static let capacity = 16 << 10

    private let known = Mutex<[Int64: ZstdDictionary]>([:])

    static func enoughToTrain(_ samples: [[UInt8]]) -> Bool {
        samples.count >= trainingCount || (samples.count >= 100 && samples.reduce(0) { $0 + $1.count } >= trainingBytes)
    }

    /// The dictionary of `payload_dictionary`'s row `id`, read once.
    func dictionary(id: Int64, db: SQLDatabase) throws -> ZstdDictionary {
        if let found = known.withLock({ $0[id] }) { return found }
        guard let bytes = try [UInt8].fetchOne(db, sql: "SELECT dictionary FROM payload_dictionary WHERE id = ?", arguments: [id]) else {
            throw StoreError("a kept payload names compression dictionary \(id), which the store does not hold: the store is damaged (errtriage check)")
        }
        return try remember(id: id, bytes: bytes)
    }

    /// Digests a dictionary the writer just stored, or one read.
    func remember(id: Int64, bytes: [UInt8]) throws -> ZstdDictionary {
        guard let dictionary = ZstdDictionary(id: id, bytes: bytes) else {
            throw StoreError("compression dictionary \(id) of the store cannot be read: the store is damaged (errtriage check)")
        }
        known.withLock { $0[id] = dictionary }
        return dictionary
    }

    /// Forgets dictionaries whose rows a rolled-back transaction took with it.
    func forget(_ ids: [Int64]) {
        known.withLock { for id in ids { $0[id] = nil } }
    }
}
