import ChildProcess
import Foundation
import Testing

/// Grouping of the JavaScript and Java SDKs' events, which cannot run here: written by hand to the
/// facts of their source (/work/shared/FORMATS.md, `Tests/Fixtures/sentry-sdk-chains.md`), with
/// words made for each run, read through a file by `ingest` and posted to `serve`, each in both
/// orders. Every distinct failure is one issue, every issue one failure, and each title is the same
/// whichever event came first.
@Suite struct HandWrittenGroupingTests {
    /// One event and its distinct failure.
    struct Event {
        var failure: String
        var json: String
    }

    static func word(_ count: ClosedRange<Int>) -> String {
        String((0..<Int.random(in: count)).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement()! })
    }

    /// A JavaScript frame (`app:///…` as rewriteFramesIntegration writes it) and a Java one.
    static func jsFrame(_ function: String, _ file: String, line: Int, context: String, inApp: Bool = true) -> String {
        #"{"function":"\#(function)","filename":"app:///\#(file)","lineno":\#(line),"colno":12,"context_line":"\#(context)","in_app":\#(inApp)}"#
    }

    static func javaFrame(_ module: String, _ function: String, line: Int, inApp: Bool) -> String {
        #"{"module":"\#(module)","function":"\#(function)","filename":"\#(module.split(separator: ".").last!).java","lineno":\#(line),"in_app":\#(inApp)}"#
    }

    /// The events of one run: three per failure, each with words of its own.
    static func events() -> [Event] {
        var events: [Event] = []
        func event(_ failure: String, _ platform: String, _ body: String, level: String = "error") {
            let id = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            let time = 1_764_000_000 + events.count
            events.append(Event(failure: failure, json: #"{"event_id":"\#(id)","timestamp":\#(time),"platform":"\#(platform)","level":"\#(level)","sdk":{"name":"sentry.\#(platform)"},\#(body)}"#))
        }
        let methods = ["card", "paypal", "sepa", "klarna", "ideal"].shuffled()
        for n in 0..<3 {
            let order = Int.random(in: 10_000...99_999_999), tenant = word(4...9), port = Int.random(in: 1024...65000)
            // The console integration: the arguments joined to the format, `extra.arguments` holding the format first.
            event("js-console-payment", "javascript", #"""
                "logger":"console","message":"Payment %s failed for order %d \#(methods[n]) \#(order)","extra":{"arguments":["Payment %s failed for order %d","\#(methods[n])",\#(order)]}
                """#)
            event("js-console-payment-warning", "javascript", #"""
                "logger":"console","message":"Payment %s failed for order %d \#(methods[n + 1]) \#(order + 1)","extra":{"arguments":["Payment %s failed for order %d","\#(methods[n + 1])",\#(order + 1)]}
                """#, level: "warning")
            // A TypeError with its stack: the property it read stays in the title.
            let typeError = #"{"type":"TypeError","value":"Cannot read properties of undefined (reading 'total')","mechanism":{"type":"generic","handled":true},"stacktrace":{"frames":[\#(jsFrame("processTicksAndRejections", "node:internal/process/task_queues", line: 95, context: "", inApp: false)),\#(jsFrame(n % 2 == 0 ? "handleCheckout" : "runWorker", n % 2 == 0 ? "routes/checkout.js" : "jobs/worker.js", line: 10 + n, context: "const sum = cartTotal(cart)")),\#(jsFrame("cartTotal", "lib/cart.js", line: 40 + n, context: "  return cart.summary.total + shipping"))]}}"#
            event("js-type-error-total", "javascript", #""exception":{"values":[\#(typeError)]}"#)
            // An Error with a cause (LinkedErrors: root cause first), the cause quoting a tenant.
            let root = #"{"type":"Error","value":"ECONNREFUSED 127.0.0.1:\#(port)","mechanism":{"type":"chained","source":"cause","exception_id":1,"parent_id":0},"stacktrace":{"frames":[\#(jsFrame("connect", "lib/db.js", line: 7, context: "  throw new Error(`ECONNREFUSED ${host}:${port}`)"))]}}"#
            let outer = #"{"type":"SyncError","value":"sync of tenant \#(tenant) failed","mechanism":{"type":"generic","handled":true,"exception_id":0},"stacktrace":{"frames":[\#(jsFrame("syncTenant", "lib/sync.js", line: 22, context: "  throw new SyncError(`sync of tenant ${name} failed`, { cause })"))]}}"#
            event("js-sync-refused", "javascript", #""exception":{"values":[\#(root),\#(outer)]}"#)
            // Java's captureMessage with a template, and a NullPointerException's helpful message.
            let amount = Int.random(in: 1...9999)
            event("java-message-template", "java", #"""
                "message":{"formatted":"Refund of \#(amount) EUR to \#(tenant) refused","message":"Refund of {} EUR to {} refused","params":["\#(amount)","\#(tenant)"]}
                """#)
            let npe = #"{"type":"NullPointerException","module":"java.lang","value":"Cannot invoke \"com.acme.shop.Cart.total()\" because \"cart\" is null","mechanism":{"type":"chained","exception_id":0},"stacktrace":{"frames":[\#(javaFrame("java.lang.Thread", "run", line: 840, inApp: false)),\#(javaFrame(n % 2 == 0 ? "com.acme.shop.CheckoutController" : "com.acme.shop.RetryJob", n % 2 == 0 ? "submit" : "run", line: 30 + n, inApp: true)),\#(javaFrame("com.acme.shop.Pricing", "quote", line: 88, inApp: true))]}}"#
            event("java-npe-total", "java", #""exception":{"values":[\#(npe)]}"#)
            // `new RuntimeException(cause)`: its message is the cause's toString(), no words of its own.
            let cause = #"{"type":"ConnectException","module":"java.net","value":"Connection refused to \#(tenant).db.internal:\#(port)","mechanism":{"type":"chained","exception_id":1,"parent_id":0},"stacktrace":{"frames":[\#(javaFrame("com.acme.shop.Db", "open", line: 12, inApp: true))]}}"#
            let wrapper = #"{"type":"RuntimeException","module":"java.lang","value":"java.net.ConnectException: Connection refused to \#(tenant).db.internal:\#(port)","mechanism":{"type":"chained","exception_id":0},"stacktrace":{"frames":[\#(javaFrame("com.acme.shop.Db", "withRetry", line: 40, inApp: true))]}}"#
            event("java-runtime-wrapper", "java", #""exception":{"values":[\#(cause),\#(wrapper)]}"#)
        }
        return events
    }

    /// Each failure's issue key and title, as a store made of `events` in this order gives them.
    static func grouping(_ events: [Event], overHTTP: Bool) throws -> (grouping: Grouping, titles: [String: String]) {
        let cli = try CLI()
        let sent = events.map { e in
            SDKService.Sent(eventID: (try? JSONSerialization.jsonObject(with: Data(e.json.utf8)) as? [String: Any])?["event_id"] as? String ?? "",
                            group: e.failure, coded: false)
        }
        if overHTTP {
            let server = try ServeTests.Server(cli)
            defer { _ = server.stop() }
            let (key, project, _) = try server.addKey("web")
            for (n, e) in events.enumerated() {
                let file = cli.temporary.path("event-\(n).json")
                try Data(e.json.utf8).write(to: URL(fileURLWithPath: file))
                let post = try ChildProcess.run(["curl", "-sS", "-f", "-X", "POST", "--data-binary", "@" + file,
                                                 "-H", "Content-Type: application/json",
                                                 "\(server.base)/api/\(project)/store/?sentry_version=7&sentry_key=\(key)"])
                try #require(post.status == 0, "\(post.stdout)\(post.stderr)\n\(server.log)")
            }
        } else {
            let file = cli.temporary.path("events.ndjson")
            try Data(events.map(\.json).joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: file))
            let result = try cli.run(["ingest", file])
            try #require(result.status == 0, "\(result.stdout)\(result.stderr)")
        }
        let grouping = Grouping(sent, keys: try SDKService.keys(cli))
        #expect(grouping.missing.isEmpty, "\(grouping.missing)")
        return (grouping, try SDKGroupingTests.titles(cli, grouping))
    }

    @Test(arguments: [false, true])
    func everyFailureIsOneIssueWithOneTitleInEitherOrder(overHTTP: Bool) throws {
        let events = Self.events()
        let failures = Set(events.map(\.failure))
        let (forward, titles) = try Self.grouping(events, overHTTP: overHTTP)
        let (backward, titlesBackward) = try Self.grouping(Self.events().reversed(), overHTTP: overHTTP)
        for grouping in [forward, backward] {
            #expect(grouping.failuresAlone == failures,
                    "split \(grouping.keysOfGroup.filter { $0.value.count > 1 }), merged \(grouping.groupsOfKey.filter { $0.value.count > 1 })")
        }
        for failure in failures.sorted() {
            #expect(titles[failure] == titlesBackward[failure], "\(failure)")
            #expect(SDKGroupingTests.isReadable(titles[failure] ?? ""), "\(failure): \(titles[failure] ?? "")")
        }
        // A log call by its format and its level.
        #expect(titles["js-console-payment"] == "Payment %s failed for order %d")
        #expect(titles["js-console-payment-warning"] == "Payment %s failed for order %d")
        #expect(titles["java-message-template"] == "Refund of {} EUR to {} refused")
        // What is constant where the error is raised stays in the title; what varies becomes <value>.
        #expect(titles["js-type-error-total"] == "TypeError: Cannot read properties of undefined (reading 'total')")
        #expect(titles["java-npe-total"] == #"NullPointerException: Cannot invoke "com.acme.shop.Cart.total()" because "cart" is null"#)
        #expect(titles["js-sync-refused"] == "SyncError: sync of tenant <value> failed … Error: ECONNREFUSED 127.0.0.1:<port>")
        #expect(titles["java-runtime-wrapper"] == "ConnectException: Connection refused to <value>")
    }
}
