import ChildProcess
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// README's and docs/guide's examples run as written (issue 38): each file's fenced `sh`, `bash`,
/// `shell` and `python` blocks, in order, through the built binary, in a fresh folder holding the
/// sample data, against a throwaway store and a server on a free loopback port. What a reader
/// pastes is what runs; only the substitutions docs/guide/README.md lists are made.
@Suite(.serialized) struct DocBlocksTests {
    /// The files whose blocks run: README.md and every page of the guide.
    static let files: [String] = {
        let guide = CLI.packageRoot.appendingPathComponent("docs/guide")
        let pages = (try? FileManager.default.contentsOfDirectory(atPath: guide.path)) ?? []
        return ["README.md"] + pages.filter { $0.hasSuffix(".md") }.sorted().map { "docs/guide/" + $0 }
    }()

    @Test func everyFileIsFound() {
        #expect(Self.files.contains("docs/guide/serve.md"), "docs/guide has no serve.md: \(Self.files)")
    }

    @Test(arguments: files) func blocksRunAsWritten(_ file: String) throws {
        let text = try String(contentsOf: CLI.packageRoot.appendingPathComponent(file), encoding: .utf8)
        let blocks = DocBlock.parse(text, file: file)
        guard blocks.contains(where: \.runs) else { return }
        let folder = try TemporaryFolder("errtriage-docs")
        try FileManager.default.createSymbolicLink(atPath: folder.path("sample-data"),
                                                   withDestinationPath: CLI.packageRoot.appendingPathComponent("sample-data").path)
        let sample = try Self.sampleStore(in: folder)
        let port = try Self.freeLoopbackPort()
        // Stores are quoted: a PostgreSQL URI holds `&` and `?`.
        var substitutions = [("sample-data/demo.sqlite", "'\(sample)'"), ("127.0.0.1:8000", "127.0.0.1:\(port)"),
                             ("localhost:8000", "localhost:\(port)")]
        if TemporaryStore.onPostgres { substitutions.append(("team.sqlite", "'\(try PostgresCluster.database())'")) }

        var script = DocBlock.prologue
        for (index, block) in blocks.enumerated() where block.runs {
            var body = block.text
            for (from, to) in substitutions { body = body.replacingOccurrences(of: from, with: to) }
            script += "__block='\(block.file):\(block.line)'\n"
            if block.language == "python" {
                let path = try folder.file("docblock-\(index).py", body)
                script += "\"$DOC_PYTHON\" '\(path)'\n"
            } else {
                script += body + "\n"
            }
        }
        script += "__block=''\n"
        let driver = try folder.file("docblocks.sh", script)
        try #require(FileManager.default.isExecutableFile(atPath: PythonSDKTests.python) || !blocks.contains { $0.runs && $0.language == "python" },
                     "the project's Python is missing: run `make setup` (it makes .venv)")
        let binaries = URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().path
        let run = try ChildProcess.run(["bash", driver], environment: [
            "PATH": binaries + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "ERRTRIAGE_STORE": sample, "USER": "tester", "DOC_PYTHON": PythonSDKTests.python, "TERM": "dumb",
        ], directory: folder.path)
        if run.status != 0 {
            let failed = run.stderr.components(separatedBy: "\n").last { $0.hasPrefix("docblock failed: ") }
            let location = failed.map { String($0.dropFirst("docblock failed: ".count)) } ?? "\(file) (exit \(run.status))"
            Issue.record("""
                \(location)
                --- stdout (end) ---
                \(run.stdout.suffix(3000))
                --- stderr (end) ---
                \(run.stderr.suffix(3000))
                """)
        }
    }

    /// A private copy of the demo store this file's blocks may change: a file, or on the
    /// PostgreSQL pass a new database the store is copied into.
    static func sampleStore(in folder: TemporaryFolder) throws -> String {
        let copy = try SampleStore.copy(to: folder.url)
        guard TemporaryStore.onPostgres else { return copy }
        let database = try PostgresCluster.database()
        let done = try ChildProcess.run([CLI.binary, "copy", "--from", copy, "--to", database])
        try #require(done.status == 0, "copy of the demo store into PostgreSQL exited \(done.status): \(done.stderr)")
        return database
    }

    /// A loopback port no one listens on now (bound, read and closed).
    static func freeLoopbackPort() throws -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(socketFD >= 0, "socket: errno \(errno)")
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(socketFD, generic, length) == 0 && getsockname(socketFD, generic, &length) == 0
            }
        }
        try #require(bound, "bind 127.0.0.1:0: errno \(errno)")
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test func parsingNamesLinesAndSkipsWhatMustNotRun() {
        let text = """
            # A page
            ```sh
            echo one
            ```
            ```console
            $ not run
            ```
            ```sh no-run
            make demo
            ```
            ```python
            print("two")
            ```
            """
        let blocks = DocBlock.parse(text, file: "page.md")
        #expect(blocks.map(\.line) == [2, 5, 8, 11])
        #expect(blocks.map(\.runs) == [true, false, false, true])
        #expect(blocks[0].text == "echo one\n")
        #expect(blocks[3].language == "python")
    }
}

/// One fenced block of a Markdown file: where it starts, its language and whether it runs.
struct DocBlock {
    let file: String
    /// The line of its opening fence, counting from 1.
    let line: Int
    let language: String
    let noRun: Bool
    let text: String

    /// Shell and Python blocks run unless their info string says `no-run`.
    var runs: Bool { !noRun && ["sh", "bash", "shell", "python"].contains(language) }

    /// Every fenced block of `text`, in order.
    static func parse(_ text: String, file: String) -> [DocBlock] {
        var blocks: [DocBlock] = []
        var open: (line: Int, info: [Substring], body: [Substring])?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if var current = open {
                if line.trimmingCharacters(in: .whitespaces) == "```" {
                    blocks.append(DocBlock(file: file, line: current.line, language: current.info.first.map(String.init) ?? "",
                                           noRun: current.info.contains("no-run"),
                                           text: current.body.map { $0 + "\n" }.joined()))
                    open = nil
                } else {
                    current.body.append(line)
                    open = current
                }
            } else if line.hasPrefix("```") {
                open = (index + 1, line.dropFirst(3).split(separator: " "), [])
            }
        }
        return blocks
    }

    /// The driver's start: stop at the first failing command and say which block it was in;
    /// stop what the blocks started in the background when the file ends.
    static let prologue = """
        set -eo pipefail
        __block=''
        trap 'echo "docblock failed: $__block: exit $? at: $BASH_COMMAND" >&2' ERR
        trap 'for job in $(jobs -p); do kill "$job" 2>/dev/null || true; done; wait' EXIT

        """
}
