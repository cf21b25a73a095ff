/// One reported occurrence of an error chain, with the context triage slices by.
public struct ErrorEvent: Hashable, Sendable {
    public var eventID: String
    public var timestamp: Timestamp
    public var chain: ErrorChain
    public var appVersion: String?
    public var appBuild: String?
    public var platform: String?
    public var osName: String?
    public var osVersion: String?
    public var deviceModel: String?
    public var network: String?
    public var orientation: String?
    /// `foreground` or `background`.
    public var appState: String?
    public var freeRAM: Int64?
    public var freeDisk: Int64?
    public var jailbroken: Bool?
    public var userID: String?
    public var sessionID: String?
    public var environment: String?
    public var message: String?
    /// Every custom key the source sent, in its order.
    public var customKeys: [(key: String, value: String)]
    /// Where a backend's event happened, by `ContextFacet` name (`server`, `runtime`, …), in that order.
    public var facets: [(key: String, value: String)]
    /// The importer that read it: `native`, `crashlytics`, `sentry`, `elk`.
    public var source: String
    /// A crash, a handled (non-fatal) error or an ANR; nil when the source does not say.
    public var kind: EventKind?
    /// The name of the project the event was sent to (a key's project, or `ingest --project`); nil when none.
    public var project: String?
    /// The level the source gave (`fatal`, `error`, `warning`, `info`, `debug`; Sentry's), nil when none.
    public var level: String?
    /// The chain as errtriage grouped the same event before schema 14, where that may differ from
    /// `chain` (nil where it is the same): a store made before then joins the event to its issue
    /// of that chain by an alias. Not stored.
    public var formerChain: FormerChain?
    /// The chain as errtriage grouped the same event from schema 14 to 20, where that may differ
    /// from `chain` (nil where it is the same): a store made then joins the event to its issue of
    /// that chain by an alias. Not stored.
    public var priorChain: FormerChain?
    /// The words of the links whose names are templates, which the store learns from at their
    /// place and which may give such a link the code and name of the template it joins (`LinkWords`).
    /// Not stored.
    public var words: [LinkWords] = []
    /// The event as it came (a JSON line, an envelope item's payload), which the store keeps whole
    /// for a sample of events (scrubbed, compressed); nil where the reader kept none. Not compared.
    public var payload: [UInt8]?

    public init(eventID: String, timestamp: Timestamp, chain: ErrorChain, appVersion: String? = nil,
                appBuild: String? = nil, platform: String? = nil, osName: String? = nil, osVersion: String? = nil,
                deviceModel: String? = nil, network: String? = nil, orientation: String? = nil,
                appState: String? = nil, freeRAM: Int64? = nil, freeDisk: Int64? = nil, jailbroken: Bool? = nil,
                userID: String? = nil, sessionID: String? = nil, environment: String? = nil,
                message: String? = nil, customKeys: [(key: String, value: String)] = [],
                facets: [(key: String, value: String)] = [], source: String = "native",
                kind: EventKind? = nil, project: String? = nil, level: String? = nil, formerChain: FormerChain? = nil,
                priorChain: FormerChain? = nil, words: [LinkWords] = [], payload: [UInt8]? = nil) {
        self.eventID = eventID
        self.timestamp = timestamp
        self.chain = chain
        self.appVersion = appVersion
        self.appBuild = appBuild
        self.platform = platform
        self.osName = osName
        self.osVersion = osVersion
        self.deviceModel = deviceModel
        self.network = network
        self.orientation = orientation
        self.appState = appState
        self.freeRAM = freeRAM
        self.freeDisk = freeDisk
        self.jailbroken = jailbroken
        self.userID = userID
        self.sessionID = sessionID
        self.environment = environment
        self.message = message
        self.customKeys = customKeys
        self.facets = facets
        self.source = source
        self.kind = kind
        self.project = project
        self.level = level
        self.formerChain = formerChain
        self.priorChain = priorChain
        self.words = words
        self.payload = payload
    }

    public static func == (a: ErrorEvent, b: ErrorEvent) -> Bool {
        a.eventID == b.eventID && a.timestamp == b.timestamp && a.chain == b.chain
            && a.appVersion == b.appVersion && a.appBuild == b.appBuild && a.platform == b.platform
            && a.osName == b.osName && a.osVersion == b.osVersion && a.deviceModel == b.deviceModel
            && a.network == b.network && a.orientation == b.orientation && a.appState == b.appState
            && a.freeRAM == b.freeRAM && a.freeDisk == b.freeDisk && a.jailbroken == b.jailbroken
            && a.userID == b.userID && a.sessionID == b.sessionID && a.environment == b.environment
            && a.message == b.message && a.source == b.source && a.kind == b.kind && a.project == b.project && a.level == b.level
            && a.customKeys.map(\.key) == b.customKeys.map(\.key) && a.customKeys.map(\.value) == b.customKeys.map(\.value)
            && a.facets.map(\.key) == b.facets.map(\.key) && a.facets.map(\.value) == b.facets.map(\.value)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(eventID) }

    /// The OS as one breakdown value, e.g. `iOS 17.4.1`.
    public var osLabel: String? {
        switch (osName, osVersion) {
        case let (n?, v?): "\(n) \(v)"
        case let (n?, nil): n
        case let (nil, v?): v
        default: nil
        }
    }
}

/// A user's complaint from a support desk or in-app feedback, linked to the issues whose codes it cites.
public struct Complaint: Hashable, Sendable {
    public var complaintID: String
    public var timestamp: Timestamp
    public var channel: String?
    public var category: String?
    public var subject: String?
    public var text: String
    public var userID: String?
    /// Short keys the complaint cites, canonical, each once.
    public var codes: [String]
    /// The error event the complaint is about (a Sentry user report's or feedback's event id): the
    /// store attaches the complaint to that event's issue, as if it cited its key.
    public var eventID: String?
    /// The project whose key sent it (a Sentry user report or feedback through `serve`): it
    /// attaches to that project's events and issues only. Nil where no key sent it (a file): any.
    /// Not stored.
    public var project: String?

    public init(complaintID: String, timestamp: Timestamp, channel: String? = nil, category: String? = nil,
                subject: String? = nil, text: String, userID: String? = nil, codes: [String], eventID: String? = nil,
                project: String? = nil) {
        self.complaintID = complaintID
        self.timestamp = timestamp
        self.channel = channel
        self.category = category
        self.subject = subject
        self.text = text
        self.userID = userID
        self.codes = codes
        self.eventID = eventID
        self.project = project
    }
}
