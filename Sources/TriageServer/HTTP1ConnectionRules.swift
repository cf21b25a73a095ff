import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// HTTP/1's connection rules that the server's HTTP types cannot see, since they carry no
/// version: an HTTP/1.0 request without `Connection: keep-alive` closes its connection once
/// answered (RFC 9112 §9.3), and an HTTP/1.1 request without `Host` is answered 400 and its
/// connection closed (RFC 9112 §3.2). A handler put before the conversion to HTTP types.
final class HTTP1ConnectionRules: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// After a refused request, nothing more is read from the connection.
    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        var part = unwrapInboundIn(data)
        if case .head(var head) = part {
            if head.version == .http1_1 && !head.headers.contains(name: "host") {
                refused = true
                let body = #"{"detail":"an HTTP/1.1 request must name its Host"}"# + "\n"
                let headers = HTTPHeaders([("content-type", "application/json"), ("content-length", String(body.utf8.count)), ("connection", "close")])
                context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .badRequest, headers: headers))), promise: nil)
                var buffer = context.channel.allocator.buffer(capacity: body.utf8.count)
                buffer.writeString(body)
                context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
                context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
                return
            }
            if !head.isKeepAlive && !head.headers[canonicalForm: "connection"].contains(where: { $0.lowercased() == "close" }) {
                // The server closes after the answer when the request says `Connection: close`.
                head.headers.replaceOrAdd(name: "connection", value: "close")
                part = .head(head)
            }
        }
        context.fireChannelRead(wrapInboundOut(part))
    }

    /// The server's HTTP/1 channel with these rules, its connections counted and timed by `connections`.
    static func server(configuration: HTTP1Channel.Configuration, connections: ConnectionGuard) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            Channel(base: HTTP1Channel(responder: responder, configuration: configuration), connections: connections)
        }
    }

    /// `HTTP1Channel`, with the rules put before its conversion to HTTP types, and the
    /// connection's watch (`ConnectionGuard`) before the HTTP decoder and beside the rules.
    struct Channel: ServerChildChannel {
        let base: HTTP1Channel
        let connections: ConnectionGuard

        struct NoRoom: Error {}

        func setup(channel: any NIOCore.Channel, logger: Logger) -> EventLoopFuture<HTTP1Channel.Value> {
            guard connections.admit(channel) else {
                channel.close(promise: nil)
                return channel.eventLoop.makeFailedFuture(NoRoom())
            }
            let connections = self.connections
            channel.closeFuture.whenComplete { _ in connections.closed(channel) }
            return base.setup(channel: channel, logger: logger).flatMapThrowing { value in
                let codec = try channel.pipeline.syncOperations.handler(type: HTTP1ToHTTPServerCodec.self)
                let watch = connections.handlers(for: channel)
                try channel.pipeline.syncOperations.addHandler(watch.bytes, position: .first)
                try channel.pipeline.syncOperations.addHandler(HTTP1ConnectionRules(), position: .before(codec))
                try channel.pipeline.syncOperations.addHandler(watch.parts, position: .before(codec))
                return value
            }
        }

        func handle(value: HTTP1Channel.Value, logger: Logger) async {
            await base.handle(value: value, logger: logger)
        }
    }
}
