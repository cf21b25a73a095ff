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

/// The one place a failure becomes its sentence and exit code: `errtriage: sentence` on stderr and
/// the code documented in the top-level help, for the failures the commands throw (`CLIError`,
/// `StoreError`, a write to a closed pipe); nil for any other error, which the argument parser reports.
func reported(_ error: any Error) -> Int32? {
    switch error {
    case let error as CLIError:
        Stderr.write("errtriage: \(error.description)\n")
        return error.exitCode
    case let error as StoreError:
        Stderr.write("errtriage: \(error.message)\n")
        return error.isUsageError ? 1 : 3
    case let error as LineWriter.Failure:
        Stderr.write("errtriage: \(error.description)\n")
        return 1
    default:
        return nil
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
