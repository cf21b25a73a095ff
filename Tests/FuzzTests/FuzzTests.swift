import FuzzTargets
import Foundation
import SampleData
import Testing
import TriageImport
import TriageModel

/// The fuzz targets, run for a bounded time in `make test`: inputs mutated from the fixtures'
/// lines, seeded so that a run repeats. `make fuzz` runs the same targets under libFuzzer for
/// longer; `FUZZ_SECONDS` (default 2 per target) and `FUZZ_SEED` tune this run.
///
/// A violated property fails the target's test with the input that broke it (also written to
/// `errtriage-fuzz-finding-TARGET` in the temporary folder, to replay with `errtriage-fuzz TARGET
/// FILE` and keep as a regression test below). A parser that traps takes the process down; its
/// input is saved to `errtriage-fuzz-crash-TARGET` first.
@Suite(.serialized) struct FuzzTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    static let seconds = Double(ProcessInfo.processInfo.environment["FUZZ_SECONDS"] ?? "") ?? 2
    static let seed = UInt64(ProcessInfo.processInfo.environment["FUZZ_SEED"] ?? "") ?? 20261123

    /// An input and the property it broke.
    struct Finding {
        var input: [UInt8]
        var violation: FuzzViolation
    }

    /// Runs `check` on every seed, then on mutated inputs until `seconds` pass; stops at the
    /// first violation and returns it with its input.
    static func hunt(_ target: FuzzTarget?, _ check: ([UInt8]) throws(FuzzViolation) -> Void, corpus: [[UInt8]],
                     mutator: inout Mutator, seconds: Double) -> (runs: Int, finding: Finding?) {
        var runs = 0
        func attempt(_ input: [UInt8]) -> Finding? {
            runs += 1
            do {
                try CrashInput.running(target, input, check)
                return nil
            } catch {
                return Finding(input: input, violation: error)
            }
        }
        for input in corpus {
            if let finding = attempt(input) { return (runs, finding) }
        }
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            for _ in 0..<64 {
                if let finding = attempt(mutator.next()) { return (runs, finding) }
            }
        } while Date() < deadline
        return (runs, nil)
    }

    @Test(arguments: FuzzTarget.allCases)
    func targetHoldsItsPropertiesOnMutatedInputs(_ target: FuzzTarget) throws {
        let corpus = target.seeds(fixtures: Self.fixtures.path)
        try #require(!corpus.isEmpty, "no seed inputs for \(target.rawValue) in \(Self.fixtures.path)")
        var mutator = Mutator(seed: Self.seed &+ UInt64(target.rawValue.utf8.reduce(0) { $0 &* 31 &+ Int($1) }), corpus: corpus)
        let (runs, finding) = Self.hunt(target, target.check, corpus: corpus, mutator: &mutator, seconds: Self.seconds)
        guard let finding else {
            print("fuzz \(target.rawValue): \(runs) inputs in \(Self.seconds) s, no finding")
            return
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("errtriage-fuzz-finding-\(target.rawValue)").path
        _ = FuzzInput.write(finding.input, to: file)
        Issue.record("""
            \(target.rawValue): \(finding.violation) after \(runs) inputs (FUZZ_SEED=\(Self.seed)); the input, saved at \(file):
            \(finding.input.map { String($0, radix: 16) })
            """)
    }

    /// The envelope target on its seeds (a valid stream, a truncated one, bad lengths, sessions and
    /// user feedback, U+0000 and escapes in every string), and on items over the limit, by length
    /// and as one long line, which mutated inputs never reach.
    @Test func theEnvelopeTargetHoldsOnItsSeedsAndOnItemsOverTheLimit() throws {
        let seeds = FuzzTarget.envelope.seeds(fixtures: Self.fixtures.path)
        #expect(seeds.count == 5)
        // The hostile seed is read as an event whose texts hold U+0000 and ESC: the target's
        // storable-and-inert property is checked on them.
        let reader = try RecordReader(bytes: seeds[4], name: "hostile", source: .sentry)
        var messages: [String] = []
        while let result = try reader.next() {
            if case .record(_, .event(let event)) = result { messages.append(event.message ?? "") }
        }
        #expect(messages.count == 1 && messages[0].contains("\u{0}") && messages[0].contains("\u{1B}]0;PWNED"), "\(messages)")
        for seed in seeds {
            #expect(throws: Never.self, "\(String(decoding: seed.prefix(80), as: UTF8.self))") { try FuzzTarget.envelope.check(seed) }
        }
        let big = [UInt8](repeating: UInt8(ascii: "a"), count: 2_000_000)
        let after = Array(#"{"type":"session"}"#.utf8) + [0x0A] + Array("{}".utf8) + [0x0A]
        let counted = Array(#"{}"#.utf8) + [0x0A] + Array(#"{"type":"attachment","length":2000000}"#.utf8) + [0x0A] + big + [0x0A] + after
        let line = Array(#"{}"#.utf8) + [0x0A] + Array(#"{"type":"attachment"}"#.utf8) + [0x0A] + big + [0x0A] + after
        #expect(throws: Never.self, "over the limit by its length") { try FuzzTarget.envelope.check(counted) }
        #expect(throws: Never.self, "over the limit as one line") { try FuzzTarget.envelope.check(line) }
    }

    @Test func aViolatedPropertyEndsTheRunWithTheInputThatBrokeIt() {
        var mutator = Mutator(seed: 1, corpus: [[0x41]])
        let (_, finding) = Self.hunt(nil, { bytes throws(FuzzViolation) in
            if bytes.count > 1 { throw FuzzViolation("longer than one byte") }
        }, corpus: [[0x41]], mutator: &mutator, seconds: 2)
        #expect(finding?.violation.description == "longer than one byte")
        #expect((finding?.input.count ?? 0) > 1)
    }
}

/// Byte-level mutations in the style of libFuzzer's: flips, inserts of bytes that matter to the
/// parsers, erasures, copies within an input and splices with another seed.
struct Mutator {
    var generator: SplitMix
    let corpus: [[UInt8]]

    init(seed: UInt64, corpus: [[UInt8]]) {
        generator = SplitMix(seed: seed)
        self.corpus = corpus
    }

    static let interesting: [[UInt8]] = [
        "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u0000", "\\ud800", "-", "(", ")", ".", "\n", "\r\n", " ",
        "0", "-1", "1e999", "-9223372036854775808", "18446744073709551616", "null", "true", "\"\"", "{}", "[]",
        "n", "NS", "Error", "\u{1B}[31m", "\u{202E}", "\u{200B}", "界", "\u{1F600}", "\"\"\"", "@", "+", "(2)",
    ].map { Array($0.utf8) } + [[0x00], [0xFF], [0xC3], [0xE2, 0x82], [0x1F, 0x8B]]

    mutating func random(_ bound: Int) -> Int { Int(generator.next() % UInt64(max(bound, 1))) }

    mutating func next() -> [UInt8] {
        var input = corpus[random(corpus.count)]
        for _ in 0...random(4) { mutate(&input) }
        return input
    }

    mutating func mutate(_ input: inout [UInt8]) {
        let at = random(input.count + 1)
        switch random(7) {
        case 0 where !input.isEmpty:
            input[min(at, input.count - 1)] ^= UInt8(1 << random(8))
        case 1:
            input.insert(contentsOf: Mutator.interesting[random(Mutator.interesting.count)], at: at)
        case 2 where !input.isEmpty:
            let end = min(input.count, at + 1 + random(16))
            input.removeSubrange(min(at, input.count - 1)..<end)
        case 3 where !input.isEmpty:
            let start = random(input.count)
            let piece = input[start..<min(input.count, start + 1 + random(32))]
            input.insert(contentsOf: piece, at: at)
        case 4:
            let other = corpus[random(corpus.count)]
            let cut = random(other.count + 1)
            input = Array(input.prefix(at)) + other[cut...]
        case 5 where !input.isEmpty:
            input[min(at, input.count - 1)] = UInt8(random(256))
        default:
            // A long run: deep nesting, long numbers, long names.
            let piece = Mutator.interesting[random(Mutator.interesting.count)]
            input.insert(contentsOf: Array(repeating: piece, count: 1 + random(300)).joined(), at: at)
        }
    }
}

/// Keeps the input under test where a signal handler can save it: a parser that traps takes the
/// test process down, and the input must not be lost with it.
enum CrashInput {
    static let capacity = 1 << 21
    nonisolated(unsafe) static let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    nonisolated(unsafe) static var count = 0
    nonisolated(unsafe) static let path = UnsafeMutablePointer<CChar>.allocate(capacity: 1024)
    nonisolated(unsafe) static var target: FuzzTarget?

    static let installed: Void = {
        for sig in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT] {
            signal(sig) { sig in
                let fd = open(CrashInput.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                if fd >= 0 {
                    _ = write(fd, CrashInput.buffer, CrashInput.count)
                    close(fd)
                }
                let note = "\nfuzz finding: the input is saved at "
                _ = write(2, note, note.utf8.count)
                _ = write(2, CrashInput.path, strlen(CrashInput.path))
                _ = write(2, "\n", 1)
                signal(sig, SIG_DFL)
                raise(sig)
            }
        }
    }()

    /// Runs `check` on `input`, kept where the handler can save it should the parser trap.
    static func running(_ target: FuzzTarget?, _ input: [UInt8], _ check: ([UInt8]) throws(FuzzViolation) -> Void) throws(FuzzViolation) {
        _ = installed
        if let target, CrashInput.target != target {
            CrashInput.target = target
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("errtriage-fuzz-crash-\(target.rawValue)").path
            _ = file.withCString { strncpy(path, $0, 1023) }
        }
        count = min(input.count, capacity)
        if count > 0 { input.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: count) } }
        try check(input)
    }
}

/// Inputs the fuzzers found, kept so that what they broke stays fixed.
@Suite struct FuzzFindings {
    /// A version whose suffix holds a parenthesis: printed with its build, it read back as
    /// another version (the property now leaves such suffixes out; the order still holds).
    @Test func aVersionWithAParenthesisInItsSuffix() {
        #expect(throws: Never.self) {
            try FuzzTarget.version.check([0x30, 0x2E, 0xC2, 0x20, 0x28, 0x34, 0x31, 0x30, 0x31, 0x2E, 0xC2, 0x32, 0x2B, 0x39])
        }
    }

    /// `1` + U+0603 (a prepended mark) + CR `++3`: printed as `1\u{0603} (3)`, the mark joined the
    /// space into one character, which trimming by characters kept, so the suffix read back
    /// differently. Trimming now works on scalars.
    @Test func aPrependedMarkBeforeTheBuild() {
        #expect(throws: Never.self) {
            try FuzzTarget.version.check([0x31, 0xD8, 0x83, 0x0D, 0x2B, 0x2B, 0x33, 0x0A, 0x2B, 0x2B, 0x33, 0x0A,
                                         0x35, 0xD8, 0x24, 0xFF, 0x28, 0xFF, 0x0A, 0x2B, 0x2B, 0x36])
        }
        #expect(AppVersion("1\u{0603} (3)") == AppVersion("1\u{0603}\r+3"))
    }
}
