/// One event as its source sent it, read whole from the payload the store kept: where it happened
/// (each exception's frames), what the app did before (breadcrumbs, logs), and what it said of
/// itself (tags, contexts, the request, the user, extra). Every source's payload reads into it
/// (TriageImport's `EventDetailReader`); `errtriage event` and the dashboard's event screen show it.
public struct EventDetail: Hashable, Sendable {
    public var eventID: String
    public var timestamp: Timestamp?
    /// The importer that read it: `native`, `crashlytics`, `sentry`, `elk`.
    public var source: String
    public var level: String?
    public var platform: String?
    /// The message as sent (a log record's, a message event's, the outermost exception's).
    public var message: String?
    /// The exceptions, the outermost (what the app reported) first, the root cause last.
    public var exceptions: [EventException]
    /// Exceptions left out of the middle of `exceptions`, as a stored chain leaves out links
    /// (`EventBounds`): past `EventBounds.maxLinks`, the outermost and innermost are kept.
    public var exceptionsLeftOut = 0
    /// The stack of the thread that sent an event without an exception (a message with its stack).
    public var stack: [EventFrame]
    /// Oldest first.
    public var breadcrumbs: [EventBreadcrumb]
    /// Log lines the source attached (Crashlytics' `logs`), oldest first.
    public var logs: [EventBreadcrumb]
    public var tags: [EventField]
    /// Each context (`os`, `runtime`, `device`, `browser`, `app`, …) with its fields, in the payload's order.
    public var contexts: [EventContext]
    public var request: EventRequest?
    public var user: [EventField]
    public var release: String?
    public var environment: String?
    public var serverName: String?
    public var transaction: String?
    public var logger: String?
    /// The SDK that sent it (`sentry.python 2.19.2`).
    public var sdk: String?
    public var extra: [EventField]

    public init(eventID: String, timestamp: Timestamp? = nil, source: String, level: String? = nil, platform: String? = nil,
                message: String? = nil, exceptions: [EventException] = [], stack: [EventFrame] = [],
                breadcrumbs: [EventBreadcrumb] = [], logs: [EventBreadcrumb] = [], tags: [EventField] = [],
                contexts: [EventContext] = [], request: EventRequest? = nil, user: [EventField] = [], release: String? = nil,
                environment: String? = nil, serverName: String? = nil, transaction: String? = nil, logger: String? = nil,
                sdk: String? = nil, extra: [EventField] = []) {
        self.eventID = eventID
        self.timestamp = timestamp
        self.source = source
        self.level = level
        self.platform = platform
        self.message = message
        self.exceptions = exceptions
        self.stack = stack
        self.breadcrumbs = breadcrumbs
        self.logs = logs
        self.tags = tags
        self.contexts = contexts
        self.request = request
        self.user = user
        self.release = release
        self.environment = environment
        self.serverName = serverName
        self.transaction = transaction
        self.logger = logger
        self.sdk = sdk
        self.extra = extra
    }

    /// Where each exception was raised, outermost first (nil where its frames say nothing).
    public var raiseSites: [FrameLocation?] { exceptions.map { $0.raisedAt } }

    /// Each exception's raising frame, outermost first (nil where it has no frames).
    public var raisingFrames: [EventFrame?] { exceptions.map { $0.raisingFrame } }

    /// Every frame of the event in the order the event screen lists them: each exception's,
    /// outermost exception first and innermost call first, then the stack's.
    public var allFrames: [EventFrame] { exceptions.flatMap(\.frames) + stack }

    /// The place in the whole chain (from 1) of the exception at `index` of `exceptions`, counting those left out.
    public func linkNumber(_ index: Int) -> Int {
        index < EventBounds.keptEachEnd || exceptionsLeftOut == 0 ? index + 1 : index + 1 + exceptionsLeftOut
    }

    /// Keeps the ends of a chain of exceptions past `EventBounds.maxLinks`.
    public mutating func boundExceptions() {
        (exceptions, exceptionsLeftOut) = EventBounds.capped(exceptions)
    }
}

/// A name and a text: a tag, a context's field, a header, a breadcrumb's data.
public struct EventField: Hashable, Sendable {
    public var key: String
    public var value: String

    public init(_ key: String, _ value: String) {
        self.key = key
        self.value = value
    }
}

/// One exception of an event.
public struct EventException: Hashable, Sendable {
    public var type: String?
    public var value: String?
    public var module: String?
    /// How it was caught (`generic`, `excepthook`, `logging`), and whether the app handled it.
    public var mechanism: String?
    public var handled: Bool?
    /// The innermost (most recent) call first.
    public var frames: [EventFrame]
    /// Whether the frames are where the error was reported, not where it was made (sentry-go's
    /// stack of `CaptureException` on a value whose type records none): no raise site.
    public var reportedHere = false
    /// How many of the innermost frames are a recovered panic's recovery (the deferred function
    /// that called sentry-go's `Recover`), not where it was raised.
    public var recoveryFrames = 0

    public init(type: String?, value: String?, module: String? = nil, mechanism: String? = nil, handled: Bool? = nil,
                frames: [EventFrame] = []) {
        self.type = type
        self.value = value
        self.module = module
        self.mechanism = mechanism
        self.handled = handled
        self.frames = frames
    }

    /// Where it was raised: the innermost frame of the app's (`in_app`), else the innermost frame;
    /// nil where the frames only tell where it was reported; a panic's recovery left out.
    public var raisedAt: FrameLocation? { raisingFrame.flatMap(\.location) }

    /// The frame it was raised in: the innermost of the app's (`in_app`), else the innermost; nil
    /// where the frames only tell where it was reported; a panic's recovery left out.
    public var raisingFrame: EventFrame? {
        guard !reportedHere else { return nil }
        let raising = frames.dropFirst(recoveryFrames)
        return raising.first { $0.inApp == true } ?? raising.first
    }
}

/// One frame of a stack trace.
public struct EventFrame: Hashable, Sendable {
    public var function: String?
    public var module: String?
    /// The file as the SDK gave it (relative where it could), else the absolute path.
    public var file: String?
    /// The absolute path the SDK gave beside it (Sentry's `abs_path`), where it gave one.
    public var absPath: String?
    public var line: Int?
    public var column: Int?
    /// Whether the frame is the app's own code (nil where the source does not say).
    public var inApp: Bool?
    /// The source line, and the lines around it, where the SDK sent them.
    public var contextLine: String?
    public var preContext: [String]
    public var postContext: [String]
    /// The binary or package it belongs to (Crashlytics' `library`, Sentry's `package`).
    public var package: String?

    public init(function: String? = nil, module: String? = nil, file: String? = nil, line: Int? = nil, column: Int? = nil,
                inApp: Bool? = nil, contextLine: String? = nil, preContext: [String] = [], postContext: [String] = [],
                package: String? = nil, absPath: String? = nil) {
        self.function = function
        self.absPath = absPath
        self.module = module
        self.file = file
        self.line = line
        self.column = column
        self.inApp = inApp
        self.contextLine = contextLine
        self.preContext = preContext
        self.postContext = postContext
        self.package = package
    }

    /// Where the frame is, when it names a file, a module or a function.
    public var location: FrameLocation? {
        let place = file ?? module
        guard place != nil || function != nil else { return nil }
        return FrameLocation(file: place, line: line, function: function)
    }
}

/// A place in the code: `billing/amounts.py:41 in parse_amount`.
public struct FrameLocation: Hashable, Sendable, CustomStringConvertible {
    public var file: String?
    public var line: Int?
    public var function: String?

    public init(file: String?, line: Int?, function: String?) {
        self.file = file
        self.line = line
        self.function = function
    }

    public var description: String {
        var text = file ?? ""
        if let line, file != nil { text += ":\(line)" }
        if let function { text += (text.isEmpty ? "" : " in ") + function }
        return text
    }
}

/// A breadcrumb (what the app did before the error) or a log line.
public struct EventBreadcrumb: Hashable, Sendable {
    public var timestamp: Timestamp?
    public var category: String?
    public var level: String?
    public var type: String?
    public var message: String?
    public var data: [EventField]

    public init(timestamp: Timestamp? = nil, category: String? = nil, level: String? = nil, type: String? = nil,
                message: String? = nil, data: [EventField] = []) {
        self.timestamp = timestamp
        self.category = category
        self.level = level
        self.type = type
        self.message = message
        self.data = data
    }
}

/// A context of an event (`os`, `runtime`, `device`, `browser`, `app`, …) and its fields.
public struct EventContext: Hashable, Sendable {
    public var name: String
    public var fields: [EventField]

    public init(name: String, fields: [EventField]) {
        self.name = name
        self.fields = fields
    }
}

/// The HTTP request an event was made in, its secrets already filtered by the store.
public struct EventRequest: Hashable, Sendable {
    public var method: String?
    public var url: String?
    public var query: String?
    public var headers: [EventField]
    public var data: String?

    public init(method: String? = nil, url: String? = nil, query: String? = nil, headers: [EventField] = [], data: String? = nil) {
        self.method = method
        self.url = url
        self.query = query
        self.headers = headers
        self.data = data
    }
}
