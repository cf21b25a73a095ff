import ChildProcess
import Foundation
import Testing
import TriageModel

/// Examples/ChainApp as a newcomer runs it: built with SwiftPM on its own (it must resolve and
/// build ErrorChainKit alone, no package of errtriage's), run against the real `errtriage serve`
/// with the DSN `errtriage key add` printed; then the store holds its issues under the keys the
/// approach gives them, and its user's complaint ranks the issue it quotes.
@Suite(.serialized) struct ChainAppTests {
    static let example = CLI.packageRoot.appendingPathComponent("Examples/ChainApp").path

    /// Builds the example (once per run) and returns its binary.
    static let built: Result<String, BuildFailure> = {
        let build = try? ChildProcess.run(["swift", "build", "--package-path", example])
        guard let build, build.status == 0 else { return .failure(BuildFailure(log: (build?.stdout ?? "") + (build?.stderr ?? ""))) }
        return .success(example + "/.build/debug/chain-app")
    }()

    struct BuildFailure: Error, CustomStringConvertible {
        let log: String
        var description: String { "swift build --package-path Examples/ChainApp failed: \(log)" }
    }

    @Test func theExampleResolvesAndBuildsErrorChainKitAlone() throws {
        _ = try Self.built.get()
        let show = try ChildProcess.run(["swift", "package", "--package-path", Self.example, "show-dependencies", "--format", "json"])
        try #require(show.status == 0, "\(show.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
        let dependencies = try #require(root["dependencies"] as? [[String: Any]])
        #expect(dependencies.map { $0["identity"] as? String } == ["errorchainkit"])
        #expect((dependencies.first?["dependencies"] as? [Any])?.isEmpty == true)
        // Nothing fetched, and only the library's two modules and the app compiled.
        let checkouts = (try? FileManager.default.contentsOfDirectory(atPath: Self.example + "/.build/checkouts")) ?? []
        #expect(checkouts.isEmpty)
        let debug = URL(fileURLWithPath: Self.example + "/.build/debug").resolvingSymlinksInPath().path
        let modules = (FileManager.default.enumerator(atPath: debug)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".swiftmodule") && !$0.hasPrefix("ModuleCache") && !$0.hasPrefix("index") }
            .map { URL(fileURLWithPath: $0).lastPathComponent }
        #expect(Set(modules) == ["ChainRules.swiftmodule", "ErrorChainKit.swiftmodule", "chain_app.swiftmodule"])
    }

    @Test func theExampleReportsItsChainsAndAComplaintThatRanksItsIssue() throws {
        let binary = try Self.built.get()
        let cli = try CLI()
        let server = try ServeTests.Server(cli)
        defer { _ = server.stop() }
        let dsn = try server.addKey("chain-app").dsn
        let run = try ChildProcess.run([binary, dsn, "--queue", cli.temporary.path("queue")])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("every report acknowledged"))

        let report = try cli.run(["report", "--window", "all", "--by", "complaints", "--format", "json"])
        let issues = try #require(report.json["issues"] as? [[String: Any]], "\(report.stdout)\(report.stderr)")
        let keys = issues.compactMap { $0["key"] as? String }
        // Two chains and the logic error; the cancelled request was not worth a report.
        #expect(keys.count == 3)
        #expect(keys.first == "US14-LO43-AP7-NE8")
        #expect(issues.first?["complaints"] as? Int == 1)
        #expect(issues.first?["chain"] as? String == "UserError.connectionIssue - LogicError.loginFailed - APIError.getTokenFailed - NetworkError.timeout")
        #expect(keys.contains("US15-LO44-AP12-NSn1009"))
        #expect(keys.contains(try Self.logicErrorKey()))
    }

    /// The key of the example's logicError, from its place in the source: `main.swift:LINE >>> cachedUserID(_:)`.
    static func logicErrorKey() throws -> String {
        let source = try String(contentsOfFile: example + "/Sources/chain-app/main.swift", encoding: .utf8)
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.contains("= logicError(") }) + 1
        let origin = LogicOrigin(fileID: "chain_app/main.swift", line: line, function: "cachedUserID(_:)")
        return ShortKey.link(short: LogicOrigin.short, code: origin.code)
    }
}
