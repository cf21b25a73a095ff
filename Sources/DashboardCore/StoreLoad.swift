import TriageModel

/// What the dashboard reads from the store and the changes it makes there: the store's own
/// methods, named once here so that a screen writes its loads in its own file. `TriageStore`
/// conforms (DashboardRuntime says so in one line); tests may give a fake.
public protocol DashboardStore: Sendable {
    func issueList(_ query: IssueQuery, now: Timestamp) throws -> IssueList
    func issueDetail(key: String, window: TimeWindow, now: Timestamp) throws -> IssueDetail
    func history(key: String) throws -> IssueHistory
    func raiseFrames(issueKey: String) throws -> RaiseFrames?
    func raiseSites(issueKey: String) throws -> [FrameLocation?]
    func layerPivot(_ query: IssueQuery, by layer: Layer, now: Timestamp) throws -> (groups: [LayerGroup], list: IssueList)
    func knowsDomain(_ domain: String) throws -> Bool
    func versions() throws -> [String]
    func compareRelease(_ version: String, against previous: String?, window: TimeWindow, now: Timestamp) throws -> ReleaseComparison?
    func recordMeeting(at: Timestamp, by: String) throws
    func agenda(window: TimeWindow, now: Timestamp, top: Int) throws -> Agenda
    func unlinkedComplaints(window: TimeWindow, now: Timestamp, samples: Int) throws -> UnlinkedComplaints
    func savedViews() throws -> [SavedView]
    func keptEvents(issueKey: String, limit: Int) throws -> [KeptEvent]
    func keptEventDetail(id: String) throws -> (kept: KeptEvent, detail: EventDetail)?
    func mark(_ key: String, _ mark: IssueMark, by: String, at: Timestamp, note: String?) throws -> MarkReceipt
    func undoIfStanding(_ receipt: MarkReceipt, by: String, at: Timestamp) throws -> UndoOutcome
    func merge(_ keys: [String], into head: String?, by: String, at: Timestamp) throws -> MergeReceipt
    func undoMerge(_ receipt: MergeReceipt, by: String, at: Timestamp) throws -> [String]
    func addGroupingRule(query: String, name: String, by: String, at: Timestamp) throws -> GroupingPreview
    func groupingRules() throws -> [GroupingRule]
}

/// Where a load runs: the store, the dashboard's time (decisions carry it: with `--now`, and in
/// the demo, the clock stands still at the data's end), whose decisions they are, and how a file
/// the dashboard makes (a ticket draft) is written.
public struct StoreContext: Sendable {
    public var store: any DashboardStore
    public var now: Timestamp
    /// Whose marks, undos and meetings they are.
    public var user: String
    /// Where `T` writes ticket drafts.
    public var ticketFolder: String
    /// Writes a text to a path (throws with why it could not).
    public var write: @Sendable (_ text: String, _ path: String) throws -> Void

    public init(store: any DashboardStore, now: Timestamp, user: String, ticketFolder: String,
                write: @escaping @Sendable (_ text: String, _ path: String) throws -> Void) {
        self.store = store
        self.now = now
        self.user = user
        self.ticketFolder = ticketFolder
        self.write = write
    }
}

/// One question or change a screen (or the shell's marks and meeting) asks of the store, declared
/// beside the screen: what it runs against the store, off the input loop, and the answer it comes
/// back with, which lands on the state through the reducer (`StoreAnswer.land`).
public protocol StoreLoad: Hashable, Sendable {
    associatedtype Answer: StoreAnswer
    /// Whether it writes (the loop reads the store's revision after it, so that its own write is no reload).
    var writes: Bool { get }
    /// Runs against the store; a thrown error comes back as `.failed` with its sentence.
    func perform(_ context: StoreContext) throws -> Answer
}

extension StoreLoad {
    public var writes: Bool { false }
}

/// A store's answer, as the screen that asked takes it: what it changes on the state and what it asks next.
public protocol StoreAnswer: Hashable, Sendable {
    func land(_ state: inout DashboardState) -> [DashboardEffect]
}

/// A load as an effect carries it: any screen's, compared and hashed by its value.
public struct StoreRequest: Hashable, Sendable {
    /// The load itself; `load as? ListScreen.Load` reads it back.
    public let load: any StoreLoad

    public init(_ load: some StoreLoad) { self.load = load }

    public var writes: Bool { load.writes }

    /// Runs the load and wraps its answer as the action that brings it back.
    public func perform(_ context: StoreContext) throws -> DashboardAction {
        .answered(StoreAnswerBox(try load.perform(context)))
    }

    public static func == (a: Self, b: Self) -> Bool { AnyHashable(a.load) == AnyHashable(b.load) }
    public func hash(into hasher: inout Hasher) { hasher.combine(AnyHashable(load)) }
}

/// An answer as an action carries it: any screen's, compared and hashed by its value.
public struct StoreAnswerBox: Hashable, Sendable {
    /// The answer itself; `answer as? EventScreen.Loaded` reads it back.
    public let answer: any StoreAnswer

    public init(_ answer: some StoreAnswer) { self.answer = answer }

    func land(_ state: inout DashboardState) -> [DashboardEffect] { answer.land(&state) }

    public static func == (a: Self, b: Self) -> Bool { AnyHashable(a.answer) == AnyHashable(b.answer) }
    public func hash(into hasher: inout Hasher) { hasher.combine(AnyHashable(answer)) }
}

extension DashboardEffect {
    /// A screen's load as an effect.
    public static func load(_ load: some StoreLoad) -> Self { .store(StoreRequest(load)) }
}

extension DashboardAction {
    /// A screen's answer as an action, as the runtime brings it back and tests write it.
    public static func answer(_ answer: some StoreAnswer) -> Self { .answered(StoreAnswerBox(answer)) }

    /// The answer this action carries, as the type a test expects (nil: another action or answer).
    public func answer<A: StoreAnswer>(as type: A.Type) -> A? {
        guard case .answered(let box) = self else { return nil }
        return box.answer as? A
    }
}
