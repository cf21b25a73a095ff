import Foundation
import Testing
import ErrorChainKit

/// The DSN `errtriage key add` prints, read into serve's events endpoint and key.
@Suite struct DSNTests {
    @Test func aDSNGivesTheEventsEndpointAndTheKey() throws {
        let dsn = try #require(DSN("http://3f0c8e@127.0.0.1:8000/1"))
        #expect(dsn.key == "3f0c8e")
        #expect(dsn.projectID == "1")
        #expect(dsn.eventsURL.absoluteString == "http://127.0.0.1:8000/api/1/events")
        #expect(dsn.authHeader.hasSuffix("sentry_key=3f0c8e"))
    }

    @Test func aPathBeforeTheProjectIsKept() throws {
        #expect(try #require(DSN("https://k@errors.example.com/triage/7")).eventsURL.absoluteString == "https://errors.example.com/triage/api/7/events")
    }

    @Test(arguments: ["", "errors.example.com/1", "http://errors.example.com/1", "ftp://k@host/1", "http://k@host/", "http://k@host/abc"])
    func whatIsNotADSNIsRefusedByConfigure(_ text: String) {
        #expect(DSN(text) == nil)
        #expect(throws: ReporterError.badDSN(text)) { try ErrorReporter().configure(dsn: text) }
    }
}
