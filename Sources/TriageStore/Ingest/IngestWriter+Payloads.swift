import TriageModel

extension IngestWriter {
    /// Hands kept payloads to the press (`PayloadPress`), each with its source's dictionary; they
    /// are inserted before the transaction commits (`insertPressed`).
    func submitPayloads(_ kept: [(Landed, KeptRoles)], db: SQLDatabase) throws {
        guard !kept.isEmpty else { return }
        try loadDictionaries(db)
        press.submit(kept.map { PayloadPress.Job(event: $0.0, roles: $0.1, dictionary: sample.dictionaries[$0.0.source]) })
    }

    /// Takes the pressed payloads back (all of them, or with `waiting: false` those done so far)
    /// and inserts them, each under its event row's id; what was pressed without a dictionary
    /// joins its source's training, and once a source has payloads enough a dictionary is trained
    /// on them for the payloads after.
    func insertPressed(_ db: SQLDatabase, waiting: Bool = true) throws {
        let pressed = waiting ? press.collect() : press.take()
        guard !pressed.isEmpty else { return }
        for slice in pressed.slices(of: 100) {
            var arguments = SQLArguments()
            for p in slice {
                let e = p.job.event
                arguments.values += [.integer(e.rowID), .integer(e.issueID), .integer(e.ts), .integer(KeptEventKey.hash(e.eventID)),
                                     .integer(p.job.roles.rawValue), .integer(p.job.dictionary?.id ?? -1), .integer(Int64(p.bytes)),
                                     .blob(p.frame)]
                // Bytes as stored (`kept_payload.bytes`), for the issue's bound and the store's alike.
                sample.issues[e.issueID]?.add(count: 0, bytes: Int64(p.bytes))
                sample.totals?.bytes += Int64(p.bytes)
            }
            try db.execute(sql: """
                INSERT INTO kept_payload (id, issue_id, ts, event_key, sample, dict, bytes, payload)
                VALUES \(Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?)", count: slice.count).joined(separator: ", "))
                """, arguments: arguments)
        }
        for p in pressed {
            guard let clean = p.clean else { continue }
            try train(p.job.event.source, adding: clean, db: db)
        }
    }

    /// The store's dictionaries, read once.
    private func loadDictionaries(_ db: SQLDatabase) throws {
        guard !sample.dictionariesLoaded else { return }
        for row in try SQLRow.fetchAll(db, sql: "SELECT id, source FROM payload_dictionary ORDER BY id") {
            let source: String = try row.decode(1)
            sample.dictionaries[source] = try store.dictionaries.dictionary(id: try row.decode(0), db: db)
        }
        sample.dictionariesLoaded = true
    }

    /// Adds a payload pressed without a dictionary to what its source's dictionary is trained on
    /// (at first the store's own such payloads of the source); once they are enough, trains the
    /// dictionary and stores it, and the source's later payloads are compressed with it.
    private func train(_ source: String, adding clean: [UInt8], db: SQLDatabase) throws {
        guard sample.dictionaries[source] == nil else { return }
        if sample.trainingLoaded.insert(source).inserted {
            var gathered: [[UInt8]] = []
            for row in try SQLRow.fetchAll(db, sql: """
                SELECT p.payload, p.bytes FROM kept_payload p
                JOIN event_row e ON e.issue_id = p.issue_id AND e.ts = p.ts AND e.id = p.id
                WHERE p.dict = -1 AND e.source_term = (SELECT id FROM term WHERE value = ?)
                LIMIT \(PayloadDictionaries.trainingCount)
                """, arguments: [source]) {
                if let payload = PayloadZstd.decompress(try row.decode(0), size: try row.decode(1), dictionary: nil) { gathered.append(payload) }
            }
            sample.training[source] = gathered
        }
        sample.training[source, default: []].append(clean)
        let gathered = sample.training[source]!
        guard PayloadDictionaries.enoughToTrain(gathered) else { return }
        sample.training[source] = []
        // Too alike or too few after all: as many again are gathered before the next try.
        guard let bytes = PayloadZstd.train(on: gathered, capacity: PayloadDictionaries.capacity) else { return }
        var arguments = SQLArguments()
        arguments.values = [.text(source), .blob(bytes)]
        let id = try db.insertID(sql: """
            INSERT INTO payload_dictionary (id, source, dictionary) VALUES ((SELECT COALESCE(MAX(id), 0) + 1 FROM payload_dictionary), ?, ?)
            """, arguments: arguments)
        sample.dictionaries[source] = try store.dictionaries.remember(id: id, bytes: bytes)
        trainedInTransaction.append(id)
    }
}
