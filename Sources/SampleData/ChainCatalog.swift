import TriageModel

/// The error types of a layered mobile app (a crowd-sourcing app with a map of tasks, payouts
/// and a backend), from which sample chains are built.
enum ChainCatalog {
    typealias Entry = (domain: String, short: String, codes: [(Int, String)])

    static let user: Entry = ("UserError", "US", [(14, "connectionIssue"), (4, "dataUnavailable"), (3, "sessionExpired"),
                                                  (9, "actionFailed"), (21, "paymentFailed"), (12, "locationUnavailable")])
    static let logic: Entry = ("LogicError", "LO", [(43, "loginFailed"), (44, "tokenRefreshFailed"), (50, "syncFailed")])
    static let interactor: Entry = ("InteractorError", "IN", [(500, "getMapPins"), (156, "loadTaskList"), (212, "submitAssignment"),
                                                              (330, "withdrawFunds"), (101, "signIn"), (240, "reserveTask")])
    static let api: Entry = ("APIError", "AP", [(7, "getTokenFailed"), (12, "fetchProfile"), (15, "uploadAttachment")])
    static let tolokaAPI: Entry = ("TolokaAPIError", "TA", [(202, "taskSuites"), (103, "assignments"), (150, "withdrawals"), (120, "skills")])
    static let backend: Entry = ("TolokaBackendError", "TB", [(30, "validationFailure(ValidationError.valueOutOfBounds)"),
                                                              (4, "notFound"), (29, "rateLimited"), (1, "internalError"),
                                                              (31, "validationFailure(ValidationError.missingField)")])
    static let http: Entry = ("HTTPError", "HT", [(400, "no400BadRequest"), (401, "no401Unauthorized"), (404, "no404NotFound"),
                                                  (429, "no429TooManyRequests"), (500, "no500InternalServerError"),
                                                  (503, "no503ServiceUnavailable")])
    static let network: Entry = ("NetworkError", "NE", [(8, "timeout"), (29, "responseValidationFailed"), (1, "noConnection"),
                                                        (12, "sslHandshakeFailed")])
    static let nsurl: Entry = ("NSURLErrorDomain", "NS", [(-1009, "notConnectedToInternet"), (-1001, "timedOut"),
                                                          (-1005, "networkConnectionLost")])
    static let json: Entry = ("JSONError", "JS", [(1, "keyNotFound"), (2, "typeMismatch"), (3, "dataCorrupted")])
    static let cache: Entry = ("CacheError", "CA", [(3, "diskFull"), (5, "corruptedEntry"), (7, "evicted")])
    static let coreData: Entry = ("CoreDataError", "CD", [(134, "saveFailed"), (133, "migrationFailed")])
    static let geo: Entry = ("GeoError", "GE", [(1, "permissionDenied"), (2, "locationUnknown"), (5, "geocodingFailed")])

    /// Layer paths from the user-facing layer down to a root cause.
    static let paths: [[Entry]] = [
        [user, logic, api, network], [user, logic, api, nsurl], [user, interactor, tolokaAPI, backend, http, network],
        [interactor, tolokaAPI, backend, http, network], [user, interactor, tolokaAPI, json],
        [user, interactor, tolokaAPI, http, nsurl], [interactor, cache, coreData], [user, interactor, cache, coreData],
        [user, interactor, geo], [interactor, geo], [user, interactor, tolokaAPI, http], [interactor, api, json],
        [user, logic, api, http, network], [user, interactor, tolokaAPI, backend, http],
    ]

    /// The chains every example in the docs uses, first, so the sample holds them.
    static let examples: [ErrorChain] = [
        chain([(user, 14), (logic, 43), (api, 7), (network, 8)]),
        chain([(interactor, 500), (tolokaAPI, 202), (backend, 30), (http, 400), (network, 29)]),
        chain([(user, 4), (interactor, 156), (tolokaAPI, 103), (json, 1)]),
        chain([(user, 21), (interactor, 330), (tolokaAPI, 150), (backend, 1), (http, 500), (network, 29)]),
        chain([(user, 14), (interactor, 156), (tolokaAPI, 103), (http, 503), (nsurl, -1009)]),
    ]

    static func chain(_ links: [(Entry, Int)]) -> ErrorChain {
        ErrorChain(links: links.map { entry, code in
            ChainLink(domain: entry.domain, short: entry.short, code: code, name: entry.codes.first { $0.0 == code }!.1)
        })
    }

    /// `count` distinct chains: the examples, then random walks down the layer paths.
    static func chains(count: Int, random: inout SplitMix) -> [ErrorChain] {
        var result = examples
        var seen = Set(result.map(\.shortKey))
        var attempts = 0
        while result.count < count, attempts < count * 200 {
            attempts += 1
            let path = paths[Int(random.next() % UInt64(paths.count))]
            let links = path.map { entry -> ChainLink in
                let (code, name) = entry.codes[Int(random.next() % UInt64(entry.codes.count))]
                return ChainLink(domain: entry.domain, short: entry.short, code: code, name: name)
            }
            let chain = ErrorChain(links: links)
            if seen.insert(chain.shortKey).inserted { result.append(chain) }
        }
        return result
    }
}
