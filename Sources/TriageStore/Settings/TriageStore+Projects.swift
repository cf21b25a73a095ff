import TriageModel

extension TriageStore {
    /// Every key of every project, revoked ones included, in the order they were made: what the
    /// server checks a request's key against (it keeps them and asks again every few seconds).
    /// One read of two small tables.
    public func projectKeys() throws(StoreError) -> [ProjectKey] {
        try read { db in try TriageStore.projectKeys(db) }
    }

    /// Every project with its keys (oldest first), by id: what `key list` shows.
    public func projects() throws(StoreError) -> [ProjectKeys] {
        try read { db in
            let keys = Dictionary(grouping: try TriageStore.projectKeys(db), by: \.projectID)
            return try Project.fetchAll(db, sql: "SELECT id, name, created_at FROM project ORDER BY id").map { project in
                ProjectKeys(project: project, keys: keys[project.id] ?? [])
            }
        }
    }

    /// A new public key for the project `name`, which is made (with the next small id) when the
    /// store has none of that name, kept with the server's URL when one is given (`key list` prints
    /// its DSN on it). A name `Project.problem(withName:)` refuses is a usage error.
    public func addProjectKey(project name: String, base: DSNBase? = nil, at now: Timestamp) throws(StoreError) -> ProjectKey {
        if let problem = Project.problem(withName: name) { throw StoreError.usage(problem) }
        let publicKey = ProjectKey.newPublicKey()
        return try write { db in
            // Looked up before the insert (writers take turns): an insert that finds the name taken
            // would still use up a number of PostgreSQL's sequence, and ids are meant to stay small.
            let id = try Int64.fetchOne(db, sql: "SELECT id FROM project WHERE name = ?", arguments: [name])
                ?? db.insertID(sql: "INSERT INTO project (name, created_at) VALUES (?, ?)", arguments: [name, now.millis])
            try db.execute(sql: "INSERT INTO project_key (public_key, project_id, created_at, dsn_base) VALUES (?, ?, ?, ?)",
                           arguments: [publicKey, id, now.millis, base?.text])
            return ProjectKey(publicKey: publicKey, projectID: Int(id), projectName: name, revoked: false, created: now, base: base)
        }
    }

    /// Revokes a key, or every active key of a project when `keyOrProject` names one (a key is
    /// looked for first). The keys stay, marked revoked at `now`; returns those this call revoked
    /// (none when they were revoked already). Neither a key nor a project: a usage error naming the projects.
    public func revokeKeys(matching keyOrProject: String, at now: Timestamp) throws(StoreError) -> [ProjectKey] {
        try write { db in
            let all = try TriageStore.projectKeys(db)
            var matched = all.filter { $0.publicKey == keyOrProject }
            if matched.isEmpty { matched = all.filter { $0.projectName == keyOrProject } }
            if matched.isEmpty {
                let projects = try String.fetchAll(db, sql: "SELECT name FROM project ORDER BY id")
                if projects.contains(keyOrProject) { return [] }
                guard !ProjectKey.isPublicKey(keyOrProject) else {
                    throw StoreError.usage("no project has the key \(keyOrProject) (errtriage key list shows the keys)")
                }
                throw StoreError.unknownName("project", keyOrProject, known: projects)
            }
            let revoked = matched.filter { !$0.revoked }
            for key in revoked {
                try db.execute(sql: "UPDATE project_key SET revoked_at = ? WHERE public_key = ?", arguments: [now.millis, key.publicKey])
            }
            return revoked.map { key in
                var key = key
                key.revoked = true
                key.revokedAt = now
                return key
            }
        }
    }

    /// The projects each issue's events came from (by name, sorted), by issue key, for the keys
    /// given: a group's head counts its members' events too. Issues whose events name no project
    /// are left out. Read from the project rollup, over the whole history.
    public func projectNames(ofIssues keys: [String]) throws(StoreError) -> [String: [String]] {
        guard !keys.isEmpty else { return [:] }
        return try read { db in
            var names: [String: Set<String>] = [:]
            for slice in keys.slices(of: 500) {
                let marks = databaseQuestionMarks(count: slice.count)
                // The issues first, by their keys and their heads' keys (each an index search), then
                // each one's range of the rollup's key (issue_id, dim, …): an OR over the two keys
                // let SQLite's planner scan the whole rollup instead (582k rows at 1M events, 0.3
                // billion instructions, more than the list itself took in `report --format json`).
                for row in try SQLRow.fetchAll(db, sql: """
                    SELECT COALESCE(h.key, i.key), d.value FROM issue i
                    LEFT JOIN issue h ON h.id = i.group_id
                    JOIN issue_day_dim d ON d.issue_id = i.id AND d.dim = ? AND d.value <> 'unknown'
                    WHERE i.id IN (SELECT id FROM issue WHERE key IN (\(marks))
                                   UNION SELECT m.id FROM issue m JOIN issue g ON g.id = m.group_id WHERE g.key IN (\(marks)))
                    GROUP BY 1, 2
                    """, arguments: [Dimension.project.rawValue] + SQLArguments(slice) + SQLArguments(slice)) {
                    names[(try row.decode(0)), default: []].insert((try row.decode(1)))
                }
            }
            return names.mapValues { $0.sorted() }
        }
    }

    static func projectKeys(_ db: SQLDatabase) throws -> [ProjectKey] {
        try ProjectKey.fetchAll(db, sql: """
            SELECT k.public_key, k.project_id, p.name, k.created_at, k.revoked_at, k.dsn_base
            FROM project_key k JOIN project p ON p.id = k.project_id ORDER BY k.created_at, k.public_key
            """)
    }
}

/// A project as `projects` selects it: `id, name, created_at`.
extension Project: RowDecodable {
    init(row: SQLRow) throws(StoreError) {
        self.init(id: try row.decode(0), name: try row.decode(1), created: Timestamp(millis: try row.decode(2)))
    }
}

/// A key as `projectKeys` selects it: `public_key, project_id, name, created_at, revoked_at, dsn_base`.
extension ProjectKey: RowDecodable {
    init(row: SQLRow) throws(StoreError) {
        let revokedAt = try row.decode(4, as: Int64?.self).map(Timestamp.init(millis:))
        let base = try row.decode(5, as: String?.self).flatMap { try? DSNBase.parse($0).get() }
        self.init(publicKey: try row.decode(0), projectID: try row.decode(1), projectName: try row.decode(2), revoked: revokedAt != nil,
                  created: Timestamp(millis: try row.decode(3)), revokedAt: revokedAt, base: base)
    }
}

/// Where each project's code lives (issue 48, schema 19): `errtriage project set NAME --repo DIR`.
extension TriageStore {
    /// Every project with what `project set` said of its code (empty settings where nothing), by id.
    public func projectCodeSettings() throws(StoreError) -> [(project: Project, code: CodeSettings)] {
        try read { db in
            try SQLRow.fetchAll(db, sql: "SELECT id, name, created_at, repo, path_map, release_ref FROM project ORDER BY id").map { row in
                let project = try Project(row: row)
                let code = CodeSettings(repo: try row.decode(3, as: String?.self), pathMaps: PathMapping.split(try row.decode(4, as: String?.self)),
                                        releaseRef: try row.decode(5, as: String?.self), origin: "project \(project.name)")
                return (project, code)
            }
        }
    }

    /// Sets what a project's code settings name: each given part replaces the stored one (an
    /// empty repo or pattern, or no path maps, clears it); the project is made when new. Returns
    /// the settings as stored and whether the project was made.
    public func setProjectCode(project name: String, repo: String?, pathMaps: [PathMapping]?, releaseRef: String?,
                               at now: Timestamp) throws(StoreError) -> (settings: CodeSettings, made: Bool) {
        if let problem = Project.problem(withName: name) { throw StoreError.usage(problem) }
        return try write { db in
            var made = false
            let id: Int64
            if let found = try Int64.fetchOne(db, sql: "SELECT id FROM project WHERE name = ?", arguments: [name]) {
                id = found
            } else {
                id = try db.insertID(sql: "INSERT INTO project (name, created_at) VALUES (?, ?)", arguments: [name, now.millis])
                made = true
            }
            if let repo {
                try db.execute(sql: "UPDATE project SET repo = ? WHERE id = ?", arguments: [repo.isEmpty ? nil : repo, id])
            }
            if let pathMaps {
                try db.execute(sql: "UPDATE project SET path_map = ? WHERE id = ?", arguments: [PathMapping.joined(pathMaps), id])
            }
            if let releaseRef {
                try db.execute(sql: "UPDATE project SET release_ref = ? WHERE id = ?", arguments: [releaseRef.isEmpty ? nil : releaseRef, id])
            }
            let row = try SQLRow.fetchAll(db, sql: "SELECT repo, path_map, release_ref FROM project WHERE id = ?", arguments: [id])[0]
            let settings = CodeSettings(repo: try row.decode(0, as: String?.self), pathMaps: PathMapping.split(try row.decode(1, as: String?.self)),
                                        releaseRef: try row.decode(2, as: String?.self), origin: "project \(name)")
            return (settings, made)
        }
    }
}
