import Testing
@testable import TriageImport
import TriageModel

/// Which signals of a Sentry event make a crash, an ANR, an unhandled error or a non-fatal.
@Suite struct SentryKindTests {
    static func values(_ mechanisms: [String]) throws -> [JSONValue] {
        try mechanisms.map { try JSONParser.parse(#"{"type":"ValueError","value":"bad","mechanism":\#($0)}"#) }
    }

    static func kind(_ mechanisms: [String], level: String? = "error", platform: String?) throws -> EventKind {
        SentryException.kind(level: level, values: try values(mechanisms), platform: platform)
    }

    @Test func anUncaughtErrorInAServersThreadIsUnhandledNotACrash() throws {
        #expect(try Self.kind([#"{"type":"threading","handled":false}"#], platform: "python") == .unhandled)
        #expect(try Self.kind([#"{"type":"excepthook","handled":false}"#, #"{"type":"excepthook","handled":false}"#], platform: "python") == .unhandled)
        #expect(try Self.kind([#"{"type":"threading","handled":false}"#], platform: nil) == .unhandled)
    }

    @Test func whatEndsTheProgramIsACrash() throws {
        // On a device any unhandled error ends the app; a fatal level is a crash anywhere; other
        // unhandled mechanisms (a signal handler, an uncaught exception handler) are crashes.
        #expect(try Self.kind([#"{"type":"threading","handled":false}"#], platform: "cocoa") == .crash)
        #expect(try Self.kind([#"{"type":"excepthook","handled":false}"#], level: "fatal", platform: "python") == .crash)
        #expect(try Self.kind([#"{"type":"UncaughtExceptionHandler","handled":false}"#], platform: "java") == .crash)
        #expect(try Self.kind([#"{"type":"threading","handled":false}"#, #"{"type":"signalhandler","handled":false}"#], platform: "python") == .crash)
    }

    @Test func handledErrorsAreNonFatalAndHangsAreANRs() throws {
        #expect(try Self.kind([#"{"type":"generic","handled":true}"#], platform: "python") == .nonFatal)
        #expect(try Self.kind([#"{"type":"AppHang","handled":false}"#], platform: "cocoa") == .anr)
    }

    @Test func unhandledRanksBetweenAnANRAndANonFatalAndReadsBack() {
        #expect(EventKind.worst(.unhandled, .nonFatal) == .unhandled)
        #expect(EventKind.worst(.unhandled, .anr) == .anr)
        #expect(EventKind(source: "unhandled") == .unhandled && EventKind(source: "fatal") == .crash)
        #expect(EventKind.unhandled.badge == "UNHANDLED")
    }
}
