import ArgumentParser
import Foundation
import Presentation
import TriageImport
import TriageStore

/// A failure the CLI reports as one sentence on stderr with its documented exit code.
enum CLIError: Error, CustomStringConvertible {
    case usage(String)
    case store(String)
    case input(String)

    var description: String {
        switch self {
        case .usage(let m), .store(let m), .input(let m): m
        }
    }

    /// Refuses an empty or blank name with the sentence given.
    static func requireName(_ text: String, _ sentence: String) throws {
        guard text.contains(where: { $0 != " " && $0 != "\t" }) else { throw CLIError.usage(sentence) }
    }

    var exitCode: Int32 {
        switch self {
        case .usage: 1
        case .input: 2
        case .store: 3
        }
    }
}

/// Runs a command body, printing a failure as `errtriage: sentence` with its exit code.
func runReporting(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch {
        try report(error)
    }
}

/// `runReporting` for an async command body.
func runReporting(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch {
        try report(error)
    }
}

/// Prints a failure as `errtriage: sentence` and throws its exit code; rethrows anything else.
private func report(_ error: any Error) throws -> Never {
    do {
        throw error
    } catch let error as CLIError {
        Stderr.write("errtriage: \(error.description)\n")
        throw ExitCode(error.exitCode)
    } catch let error as StoreError {
        Stderr.write("errtriage: \(error.message)\n")
        throw ExitCode(error.isUsageError ? 1 : 3)
    } catch let error as LineWriter.Failure {
        Stderr.write("errtriage: \(error.description)\n")
        throw ExitCode(1)
    }
}

/// Writes to standard error without buffering; what it writes is made inert as standard output's
/// text is (`Stdout`): error messages quote files' lines and values.
enum Stderr {
    static func write(_ text: String) {
        FileHandle.standardError.write(Data(TextSanitizer.inert(text).utf8))
    }

    /// Writes the command's own control sequences (the progress bar's), and nothing from data.
    static func writeControl(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
