import NIOCore
import NIOHTTP1
import Synchronization

/// The server's connections, so that idle and trickling ones cannot lock clients out.
///
/// - At most `maxConnections` are open, and at most `maxPerAddress` from one client address.
///   A connection that would pass either takes the place of the oldest connection in its scope
///   that is doing nothing a client waits for — idle between requests, or still sending a
///   request's head — those that never showed a good key first (`keyed`), so keyed traffic is
///   served first; where every one is busy with a request, the new connection is closed.
/// - Each connection's time is bounded by what it is doing (`ConnectionWatch`): idle with no
///   request begun, `idleTimeout`; a request's head begun, `headTimeout` to come whole however
///   slowly it trickles; a body, the intake's own `--body-timeout` (answered 408), with a
///   backstop for a body nobody reads; an answer in the making, no limit.
///
/// Counting happens at accept, on the connection's event loop, under one lock; the victim is
/// closed on its own loop. Nothing of it runs per byte: the phases change a few times a request.
public final class ConnectionGuard: Sendable {
    public struct Limits: Sendable, Equatable {
        public var maxConnections = 1_024
        public var maxPerAddress = 256
        public var idleTimeout: TimeAmount = .seconds(30)
        public var headTimeout: TimeAmount = .seconds(10)
        /// A body no reader ends (a route that takes none): closed this long after its head.
        public var bodyBackstop: TimeAmount = .seconds(35)
        public init() {}
    }

    /// What a connection is doing, as eviction sees it.
    enum Phase: Sendable {
        /// No request begun since it opened or since its last answer.
        case idle
        /// A request's head begun, not yet whole.
        case head
        /// A request read or being answered.
        case busy

        var isWaiting: Bool { self != .busy }
    }

    struct Entry {
        let channel: any Channel
        let address: String
        let order: UInt64
        var phase: Phase = .idle
        var keyed = false
    }

    struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var perAddress: [String: Int] = [:]
        var order: UInt64 = 0
        /// Connections closed to make room, and refused for want of any.
        var evicted = 0
        var refused = 0
    }

    public let limits: Limits
    private let state = Mutex(State())

    public init(limits: Limits) { self.limits = limits }

    /// Open connections now.
    public var open: Int { state.withLock { $0.entries.count } }
    /// Connections closed to make room for others, and new ones refused, since the start.
    public var counts: (evicted: Int, refused: Int) { state.withLock { ($0.evicted, $0.refused) } }

    static func address(of channel: any Channel) -> String {
        channel.remoteAddress?.ipAddress ?? "unknown"
    }

    /// Counts a new connection in, closing an older waiting one where it would pass a limit;
    /// false (and nothing counted) when there is no room for it.
    func admit(_ channel: any Channel) -> Bool {
        let address = Self.address(of: channel)
        var victims: [any Channel] = []
        let admitted = state.withLock { state -> Bool in
            if state.perAddress[address, default: 0] >= limits.maxPerAddress {
                guard let victim = Self.victim(in: state.entries, address: address) else {
                    state.refused += 1
                    return false
                }
                victims.append(Self.remove(victim, from: &state).channel)
            }
            if state.entries.count >= limits.maxConnections {
                guard let victim = Self.victim(in: state.entries, address: nil) else {
                    state.refused += 1
                    return false
                }
                victims.append(Self.remove(victim, from: &state).channel)
            }
            state.evicted += victims.count
            state.order += 1
            state.entries[ObjectIdentifier(channel)] = Entry(channel: channel, address: address, order: state.order)
            state.perAddress[address, default: 0] += 1
            return true
        }
        for victim in victims { victim.close(promise: nil) }
        return admitted
    }

    /// The connection to close for room: the oldest waiting one of `address` (any, when nil),
    /// one never keyed before any keyed one.
    static func victim(in entries: [ObjectIdentifier: Entry], address: String?) -> ObjectIdentifier? {
        var best: (id: ObjectIdentifier, keyed: Bool, order: UInt64)?
        for (id, entry) in entries where entry.phase.isWaiting && (address == nil || entry.address == address) {
            // Keyless before keyed, then the oldest.
            if let b = best, (b.keyed ? 1 : 0, b.order) <= (entry.keyed ? 1 : 0, entry.order) { continue }
            best = (id, entry.keyed, entry.order)
        }
        return best?.id
    }

    private static func remove(_ id: ObjectIdentifier, from state: inout State) -> Entry {
        let entry = state.entries.removeValue(forKey: id)!
        let left = state.perAddress[entry.address, default: 1] - 1
        state.perAddress[entry.address] = left > 0 ? left : nil
        return entry
    }

    /// A connection closed (by either side): no longer counted.
    func closed(_ channel: any Channel) {
        state.withLock { state in
            let id = ObjectIdentifier(channel)
            if state.entries[id] != nil { _ = Self.remove(id, from: &state) }
        }
    }

    func phase(_ channel: any Channel, _ phase: Phase) {
        state.withLock { $0.entries[ObjectIdentifier(channel)]?.phase = phase }
    }

    /// A request on `channel` showed a good key: the connection is kept over keyless ones.
    func keyed(_ channel: any Channel) {
        state.withLock { $0.entries[ObjectIdentifier(channel)]?.keyed = true }
    }

    /// The handlers that watch one connection: one before the HTTP decoder (it sees a request
    /// begin) and one after it (it sees the head whole, the request's end and the answer's).
    func handlers(for channel: any Channel) -> (bytes: ConnectionWatch.Bytes, parts: ConnectionWatch.Parts) {
        let watch = ConnectionWatch(guard: self, channel: channel)
        return (ConnectionWatch.Bytes(watch), ConnectionWatch.Parts(watch))
    }
}

/// One connection's phase and its deadline, on the connection's event loop.
final class ConnectionWatch {
    let connections: ConnectionGuard
    let channel: any Channel
    private var phase = ConnectionGuard.Phase.idle
    private var deadline: Scheduled<Void>?
    /// A request's head came and its end has not.
    private var reading = false
    /// A request's head came and its answer has not been written whole.
    private var answering = false
    /// The answer under way says `Connection: close`: the connection closes once it is written.
    private var closeAfterAnswer = false

    init(guard connections: ConnectionGuard, channel: any Channel) {
        self.connections = connections
        self.channel = channel
    }

    /// Enters `phase`, with its deadline from now.
    func enter(_ phase: ConnectionGuard.Phase, timeout: TimeAmount?) {
        if phase != self.phase {
            self.phase = phase
            connections.phase(channel, phase)
        }
        deadline?.cancel()
        deadline = timeout.map { timeout in
            let bound = NIOLoopBound(self, eventLoop: channel.eventLoop)
            return channel.eventLoop.scheduleTask(in: timeout) { bound.value.expired(phase) }
        }
    }

    func started() { enter(.idle, timeout: connections.limits.idleTimeout) }

    func stopped() {
        deadline?.cancel()
        deadline = nil
    }

    /// Bytes arrived: a request begins when none was under way.
    func bytesArrived() {
        if phase == .idle && !reading && !answering { enter(.head, timeout: connections.limits.headTimeout) }
    }

    func headArrived() {
        reading = true
        answering = true
        enter(.busy, timeout: connections.limits.bodyBackstop)
    }

    func requestEnded() {
        reading = false
        if answering { enter(.busy, timeout: nil) } else { enter(.idle, timeout: connections.limits.idleTimeout) }
    }

    /// An answer was written whole: the connection waits for the next request, or, where the
    /// answer came before the request's body ended (a refusal), for that body's end, as briefly
    /// as for a head and evictable meanwhile.
    func answered() {
        answering = false
        if closeAfterAnswer {
            channel.close(promise: nil)
            return
        }
        if reading { enter(.head, timeout: connections.limits.headTimeout) } else { enter(.idle, timeout: connections.limits.idleTimeout) }
    }

    func answerBegins(closing: Bool) { closeAfterAnswer = closing }

    private func expired(_ phase: ConnectionGuard.Phase) {
        guard phase == self.phase, channel.isActive else { return }
        channel.close(promise: nil)
    }

    /// Before the HTTP decoder: the first bytes of a request.
    final class Bytes: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer
        let watch: ConnectionWatch

        init(_ watch: ConnectionWatch) { self.watch = watch }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            watch.bytesArrived()
            context.fireChannelRead(data)
        }
    }

    /// After the HTTP decoder: a request's head whole, its end, and its answer's end.
    final class Parts: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias InboundOut = HTTPServerRequestPart
        typealias OutboundIn = HTTPServerResponsePart
        typealias OutboundOut = HTTPServerResponsePart
        let watch: ConnectionWatch

        init(_ watch: ConnectionWatch) { self.watch = watch }

        func handlerAdded(context: ChannelHandlerContext) { watch.started() }

        func handlerRemoved(context: ChannelHandlerContext) { watch.stopped() }

        func channelInactive(context: ChannelHandlerContext) {
            watch.stopped()
            watch.connections.closed(context.channel)
            context.fireChannelInactive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head: watch.headArrived()
            case .body: break
            case .end: watch.requestEnded()
            }
            context.fireChannelRead(data)
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            switch unwrapOutboundIn(data) {
            case .head(let head):
                // A refusal that did not read its body says so; the connection ends with it.
                watch.answerBegins(closing: head.headers[canonicalForm: "connection"].contains { $0.lowercased() == "close" })
                context.write(data, promise: promise)
            case .body:
                context.write(data, promise: promise)
            case .end:
                let done = context.eventLoop.makePromise(of: Void.self)
                let bound = NIOLoopBound(watch, eventLoop: context.eventLoop)
                done.futureResult.whenComplete { _ in bound.value.answered() }
                promise.map { done.futureResult.cascade(to: $0) }
                context.write(data, promise: done)
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ConnectionGuard {
    /// Raises the soft limit on open files towards `count` (within the hard limit), so that the
    /// connections the server counts never fail at accept for want of descriptors first (the
    /// usual soft limit, 1,024, is what `--max-connections` defaults to).
    static func raiseOpenFileLimit(to count: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(count) else { return }
        limit.rlim_cur = min(limit.rlim_max, rlim_t(count))
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
