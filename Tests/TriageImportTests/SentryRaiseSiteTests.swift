import PropertyBased
import Testing
@testable import TriageImport
import TriageModel

/// A code-less link's code comes from its type and where it was raised: the app's frames by
/// module and function and the raising line's text, never the line numbers or absolute paths,
/// which move with every release and machine. Read as ingest reads a file (sparsely) and as
/// `serve`'s store endpoint reads a body (the whole tree).
@Suite struct SentryRaiseSiteTests {
    struct Frame {
        var module: String?
        var function: String
        var file: String
        var line: Int
        var root: String
        var context: String
        var inApp: Bool?

        var json: JSONValue {
            var members: [(String, JSONValue)] = [("function", .string(function)), ("filename", .string(file)),
                                                  ("abs_path", .string(root + "/" + file)), ("lineno", .number(String(line))),
                                                  ("context_line", .string(context)), ("pre_context", .array([.string("# before")])),
                                                  ("vars", .object([("order", .string("o-\(line)"))]))]
            if let module { members.append(("module", .string(module))) }
            if let inApp { members.append(("in_app", .bool(inApp))) }
            return .object(members)
        }
    }

    static let word = Gen<Int>.value(in: 0...7).map { ["billing", "profile", "checkout", "views", "cart", "orders", "api", "jobs"][$0] }
    static let root = Gen<Int>.value(in: 0...3).map { ["/srv/app", "/home/ci/build/7", "C:/work/shop", "/usr/src/app"][$0] }
    static let frame = zip(word.optional, word, word, Gen<Int>.value(in: 1...4000), root, word, Gen.bool.optional)
        .map { module, function, file, line, root, call, inApp in
            Frame(module: module.map { "shop." + $0 }, function: function, file: "shop/\(file).py", line: line, root: root,
                  context: "    \(call)(order)", inApp: inApp)
        }
    static let frames = frame.array(of: 1...6)

    static func event(_ frames: [Frame], type: String = "ValueError") -> [UInt8] {
        let value = JSONValue.object([("type", .string(type)), ("value", .string("invalid input")),
                                      ("stacktrace", .object([("frames", .array(frames.map(\.json)))]))])
        let event = JSONValue.object([("event_id", .string("0123456789abcdef0123456789abcdef")), ("timestamp", .number("1764000000")),
                                      ("platform", .string("python")), ("exception", .object([("values", .array([value]))]))])
        return Array(event.serialized.utf8)
    }

    /// The link's code, read sparsely (as `ingest` reads a file) and whole (as the store endpoint reads a body): both must agree.
    static func code(_ bytes: [UInt8]) throws -> Int? {
        let sparse = try SentryDecoder().decode(try JSONParser.parse(bytes, keeping: .sentryEvent))
        let whole = try SentryDecoder().decode(try JSONParser.parse(bytes))
        guard case .event(let a) = sparse, case .event(let b) = whole else { return nil }
        #expect(a == b)
        return a.chain.links.first?.code
    }

    @Test func aDerivedCodeDoesNotChangeWhenAFramesLineNumberOrAbsolutePathDoes() async {
        await propertyCheck(count: 300, input: Self.frames, Gen<Int>.value(in: 1...4000).array(of: 6), Self.root.array(of: 6)) { frames, lines, roots in
            var moved = frames
            for i in moved.indices {
                moved[i].line = lines[i]
                moved[i].root = roots[i]
            }
            let before = try? Self.code(Self.event(frames)), after = try? Self.code(Self.event(moved))
            #expect(before != nil && before == after)
        }
    }

    @Test func theSameTypeAndTextRaisedAtAnotherPlaceGetAnotherCode() async {
        await propertyCheck(count: 200, input: Self.frames) { frames in
            var elsewhere = frames
            let last = elsewhere.indices.last!
            elsewhere[last].inApp = true
            var here = elsewhere
            elsewhere[last].context = "    raise ValueError(\"invalid input\")  # in \(elsewhere[last].function)s"
            here[last].context = "    raise ValueError(\"invalid input\")"
            let a = try? Self.code(Self.event(here)), b = try? Self.code(Self.event(elsewhere))
            #expect(a != nil && a != b)
        }
    }

    @Test func theSamePlaceWithAnotherMessageIsTheSameLink() throws {
        let frames = [Frame(module: "shop.profile", function: "rename", file: "shop/profile.py", line: 12, root: "/srv/app",
                            context: "    raise ValidationError(f\"name {name} is not allowed\")", inApp: true)]
        func event(_ message: String) -> [UInt8] {
            var bytes = Self.event(frames, type: "ValidationError")
            let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "invalid input", with: message)
            bytes = Array(text.utf8)
            return bytes
        }
        #expect(try Self.code(event("name Bobby Tables is not allowed")) == Self.code(event("name ann marie is not allowed")))
    }

    @Test func aGoValueCapturedWithTheStackOfItsCaptureIsNamedByItsWordsNotThatStack() throws {
        // sentry-go gives the outermost value the stack where CaptureException ran: the same for every
        // error a service reports from one place, so it does not tell two wraps apart.
        func event(_ wrap: String) throws -> ErrorChain? {
            let text = #"{"event_id":"0123456789abcdef0123456789abcdef","timestamp":"2026-11-20T10:00:00.123456789+01:00","platform":"go","sdk":{"name":"sentry.go","version":"0.11.0"},"exception":[{"type":"*main.NetworkError","value":"timeout (code 8): POST /token"},{"type":"*fmt.wrapError","value":"\#(wrap): timeout (code 8): POST /token","stacktrace":{"frames":[{"function":"main","module":"main","filename":"main.go","lineno":80,"in_app":true,"context_line":"\tid := hub.CaptureException(err)"}]}}]}"#
            guard case .event(let e) = try SentryDecoder().decode(try JSONParser.parse(Array(text.utf8), keeping: .sentryEvent)) else { return nil }
            return e.chain
        }
        let resume = try #require(try event("resume session 16c5a9f2")), upload = try #require(try event("upload avatar 42"))
        #expect(resume.links[0].code != upload.links[0].code)
        #expect(resume.links[0].name == "resume session <id>" && resume.links[1].code == 8 && resume.links[1].name == "timeout")
        #expect(try event("resume session 0bc4d7e1")?.shortKey == resume.shortKey)
    }
}
