import TriageModel

extension TriageStore {
    /// Complaints inside the window that cite no issue the store knows, grouped by category:
    /// problems the code cannot see (slow loading, withdrawals, rejected tasks).
    public func unlinkedComplaints(window: TimeWindow, now: Timestamp, samples: Int = 3) throws(StoreError) -> UnlinkedComplaints {
        try read { db in
            let buckets = try Buckets(db, window: window, now: now)
            var groups: [String: (count: Int, samples: [String])] = [:]
            for row in try SQLRow.fetchAll(db, sql: """
                SELECT COALESCE(c.category, 'uncategorised'), COALESCE(c.subject || ': ', '') || c.text FROM complaint c
                WHERE c.linked = 0 AND c.ts BETWEEN ? AND ?
                ORDER BY c.ts DESC, c.id DESC
                """, arguments: [buckets.millis.lowerBound, buckets.millis.upperBound]) {
                let category: String = try row.decode(0)
                var group = groups[category, default: (0, [])]
                group.count += 1
                let text: String = try row.decode(1)
                if group.samples.count < samples, !group.samples.contains(text) { group.samples.append(text) }
                groups[category] = group
            }
            return UnlinkedComplaints(groups: groups.map { .init(category: $0.key, count: $0.value.count, samples: $0.value.samples) }
                .sorted { $0.count != $1.count ? $0.count > $1.count : $0.category < $1.category },
                prunedBefore: buckets.rawSince.flatMap { $0 > buckets.millis.lowerBound ? Timestamp(millis: $0) : nil })
        }
    }
}
