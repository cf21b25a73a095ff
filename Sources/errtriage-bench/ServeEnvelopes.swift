import Foundation
import TriageModel

/// The serve bench's request bodies: Sentry envelopes of one event each, shaped as the Python SDK
/// (2.x, Flask integration) writes them: the envelope header with `event_id`, `sent_at` and the
/// trace context, an item header with `length`, and an event with a `raise … from …` chain
/// (root cause first, `mechanism.source` `__cause__`), frames with source context and locals,
/// breadcrumbs, the request, the user, modules and the SDK's own description. About 5 KB each.
///
/// The bodies differ only in their `event_id` (unique per request, written at fixed offsets into
/// a copy of one of the templates) and their chain: `chains` different ones, request `n` sending
/// chain `n % chains`.
struct ServeEnvelopes: Sendable {
    /// One chain's envelope with a placeholder id, and where the id goes.
    struct Template: Sendable {
        var bytes: [UInt8]
        var idOffsets: [Int]
    }

    let templates: [Template]
    /// A per-run prefix: ids never repeat across runs on one store.
    let nonce: UInt64

    static let placeholder = String(repeating: "#", count: 32)

    static let outerTypes: [(module: String, type: String, function: String, message: String)] = [
        ("shop.checkout", "CheckoutError", "place_order", "could not place order"),
        ("shop.orders", "OrderSyncError", "sync_order", "order sync failed"),
        ("shop.payments", "PaymentDeclined", "charge_card", "payment provider refused the charge"),
        ("shop.inventory", "InventoryError", "reserve_items", "could not reserve items"),
        ("shop.reports", "ReportExportError", "export_report", "report export failed"),
        ("shop.accounts", "SessionRefreshError", "refresh_session", "session could not be refreshed"),
    ]
    static let causeTypes: [(module: String, type: String, function: String, message: String)] = [
        ("requests.exceptions", "ConnectionError", "send", "HTTPSConnectionPool(host='api.payments.example', port=443): Max retries exceeded"),
        ("builtins", "TimeoutError", "recv_into", "timed out"),
        ("builtins", "KeyError", "__getitem__", "'customer_id'"),
        ("builtins", "ValueError", "parse_amount", "invalid literal for int() with base 10: '12,50'"),
        ("sqlalchemy.exc", "OperationalError", "do_execute", "(psycopg2.OperationalError) server closed the connection unexpectedly"),
        ("json.decoder", "JSONDecodeError", "raw_decode", "Expecting value: line 1 column 1 (char 0)"),
    ]

    init(chains: Int = 36, nonce: UInt64 = UInt64.random(in: 0...UInt64.max)) {
        self.nonce = nonce
        let sentAt = Timestamp(millis: Int64(Date().timeIntervalSince1970 * 1000)).iso8601
        var templates: [Template] = []
        for c in 0..<max(1, chains) {
            let outer = Self.outerTypes[c % Self.outerTypes.count]
            let cause = Self.causeTypes[(c / Self.outerTypes.count) % Self.causeTypes.count]
            let event = Self.event(outer: outer, cause: cause, variant: c, timestamp: sentAt)
            let eventBytes = Array(event.utf8)
            let header = #"{"event_id":"\#(Self.placeholder)","sent_at":"\#(sentAt)","trace":{"trace_id":"4c79f60c11214eb38604f4ae0781bfb2","environment":"production","release":"shop@2.4.\#(c % 4)","public_key":"bench","sample_rate":"1.0"}}"#
            let itemHeader = #"{"type":"event","content_type":"application/json","length":\#(eventBytes.count)}"#
            let bytes = Array((header + "\n" + itemHeader + "\n").utf8) + eventBytes + [0x0A]
            var offsets: [Int] = []
            let mark = Array(Self.placeholder.utf8)
            var i = 0
            while i + mark.count <= bytes.count {
                if bytes[i] == 0x23, Array(bytes[i..<(i + mark.count)]) == mark {
                    offsets.append(i)
                    i += mark.count
                } else {
                    i += 1
                }
            }
            templates.append(Template(bytes: bytes, idOffsets: offsets))
        }
        self.templates = templates
    }

    /// The id of request `n`: 32 lowercase hex digits, unique within this run (and across runs by the nonce).
    func eventID(_ n: Int) -> String {
        let high = String(nonce, radix: 16), low = String(UInt64(n), radix: 16)
        return String(repeating: "0", count: 16 - high.count) + high + String(repeating: "0", count: 16 - low.count) + low
    }

    /// Request `n`'s body and its event id.
    func body(_ n: Int) -> (bytes: [UInt8], id: String) {
        let id = eventID(n)
        var bytes = templates[n % templates.count].bytes
        let idBytes = Array(id.utf8)
        for offset in templates[n % templates.count].idOffsets {
            bytes.replaceSubrange(offset..<(offset + 32), with: idBytes)
        }
        return (bytes, id)
    }

    var averageBytes: Int { templates.map(\.bytes.count).reduce(0, +) / templates.count }

    /// One event as the Python SDK's `capture_event` serialises it (keys in its order).
    static func event(outer: (module: String, type: String, function: String, message: String),
                      cause: (module: String, type: String, function: String, message: String),
                      variant: Int, timestamp: String) -> String {
        let appFrames = """
            {"filename":"shop/api/views.py","abs_path":"/srv/shop/shop/api/views.py","function":"create_order","module":"shop.api.views","lineno":\(140 + variant),"pre_context":["@bp.route(\\"/orders\\", methods=[\\"POST\\"])","@login_required","def create_order():","    payload = request.get_json(force=True)","    cart = Cart.for_user(current_user.id)"],"context_line":"    order = \(outer.function)(cart, payload)","post_context":["    db.session.commit()","    return jsonify(order.to_dict()), 201","","","@bp.route(\\"/orders/<int:order_id>\\")"],"vars":{"payload":{"items":"[{'sku': 'A-1041', 'qty': 2}, {'sku': 'B-2210', 'qty': 1}]","coupon":"None","currency":"'EUR'"},"cart":"<Cart user=4711 items=3>"},"in_app":true},
            {"filename":"\(outer.module.replacingOccurrences(of: ".", with: "/")).py","abs_path":"/srv/shop/\(outer.module.replacingOccurrences(of: ".", with: "/")).py","function":"\(outer.function)","module":"\(outer.module)","lineno":\(61 + variant),"pre_context":["def \(outer.function)(cart, payload):","    total = cart.total(currency=payload.get(\\"currency\\", \\"EUR\\"))","    log.info(\\"\(outer.function) for %s items\\", len(cart.items))","    try:","        result = gateway.call(cart, total)"],"context_line":"    except Exception as exc:","post_context":["        raise \(outer.type)(\\"\(outer.message)\\") from exc","    return result","","","def _retry_later(cart):"],"vars":{"cart":"<Cart user=4711 items=3>","total":"Decimal('129.90')","exc":"\(cause.type)(\\"\(cause.message.prefix(40))\\")"},"in_app":true}
            """
        let causeFrames = """
            {"filename":"shop/gateway.py","abs_path":"/srv/shop/shop/gateway.py","function":"call","module":"shop.gateway","lineno":\(88 + variant),"pre_context":["    def call(self, cart, total):","        body = self._body(cart, total)","        headers = {\\"Idempotency-Key\\": cart.token}","        for attempt in range(self.retries):","            try:"],"context_line":"                return self.\(cause.function)(body, headers=headers, timeout=self.timeout)","post_context":["            except RetryableError:","                time.sleep(2 ** attempt)","        raise GatewayExhausted(self.retries)","","    def _body(self, cart, total):"],"vars":{"self":"<Gateway 'payments'>","attempt":"2","body":"{'amount': 12990, 'currency': 'EUR', 'items': 3}","headers":{"Idempotency-Key":"'c0ffee-4711-\(variant)'"}},"in_app":true},
            {"filename":"\(cause.module.replacingOccurrences(of: ".", with: "/")).py","abs_path":"/usr/lib/python3.11/\(cause.module.replacingOccurrences(of: ".", with: "/")).py","function":"\(cause.function)","module":"\(cause.module)","lineno":\(501 + variant),"pre_context":["        try:","            resp = conn.urlopen(","                method=request.method,","                url=url,","                body=request.body,"],"context_line":"            raise \(cause.type)(e, request=request)","post_context":["","        except ClosedPoolError as e:","            raise ConnectionError(e, request=request)","","        except _ProxyError as e:"],"vars":{"request":"<PreparedRequest [POST]>","timeout":"Timeout(connect=3.05, read=10, total=None)","url":"'/v1/charges'"},"in_app":false}
            """
        return #"{"level":"error","exception":{"values":[{"module":"\#(cause.module)","type":"\#(cause.type)","value":"\#(cause.message)","mechanism":{"type":"chained","handled":true,"exception_id":1,"source":"__cause__","parent_id":0},"stacktrace":{"frames":[\#(causeFrames)]}},{"module":"\#(outer.module)","type":"\#(outer.type)","value":"\#(outer.message)","mechanism":{"type":"flask","handled":false,"exception_id":0},"stacktrace":{"frames":[\#(appFrames)]}}]},"event_id":"\#(placeholder)","timestamp":"\#(timestamp)","contexts":{"trace":{"trace_id":"4c79f60c11214eb38604f4ae0781bfb2","span_id":"a3b2c1d0e9f8a7b6","parent_span_id":null,"op":"http.server","status":"internal_error","origin":"auto.http.flask"},"runtime":{"name":"CPython","version":"3.11.2","build":"3.11.2 (main, Mar 13 2023, 12:18:29) [GCC 12.2.0]"}},"breadcrumbs":{"values":[{"type":"http","category":"httplib","data":{"http.method":"GET","url":"https://api.inventory.example/v2/stock","http.query":"sku=A-1041","status_code":200,"reason":"OK"},"timestamp":"\#(timestamp)","level":"info"},{"type":"log","category":"\#(outer.module)","message":"\#(outer.function) for 3 items","timestamp":"\#(timestamp)","level":"info"}]},"transaction":"/api/orders","transaction_info":{"source":"url"},"request":{"url":"https://shop.example/api/orders","query_string":"","method":"POST","env":{"SERVER_NAME":"web-3","SERVER_PORT":"8000"},"headers":{"Host":"shop.example","User-Agent":"Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15","Content-Type":"application/json","Content-Length":"88","X-Forwarded-For":"203.0.113.7"},"data":{"items":"[{'sku': 'A-1041', 'qty': 2}, {'sku': 'B-2210', 'qty': 1}]","currency":"EUR"}},"user":{"id":"user-\#(4700 + variant)","ip_address":"203.0.113.7"},"modules":{"flask":"3.0.3","werkzeug":"3.0.4","sqlalchemy":"2.0.36","requests":"2.32.3","urllib3":"2.2.3","sentry-sdk":"2.19.2","psycopg2-binary":"2.9.10"},"extra":{"sys.argv":["/srv/shop/.venv/bin/gunicorn","shop.wsgi:app"]},"release":"shop@2.4.\#(variant % 4)","environment":"production","server_name":"web-3","sdk":{"name":"sentry.python.flask","version":"2.19.2","packages":[{"name":"pypi:sentry-sdk","version":"2.19.2"}],"integrations":["argv","atexit","dedupe","excepthook","flask","logging","modules","stdlib","threading"]},"platform":"python"}"#
    }
}
