// chain-app: an app's four layers (user, logic, API, network) failing in a few ways, reported to
// errtriage serve through ErrorChainKit; then a user's complaint quoting the first error's key.
// Exits 0 once the server has acknowledged every report, 1 if it has not within 30 seconds.
//
//   swift run --package-path Examples/ChainApp chain-app DSN [--queue DIR]
import ErrorChainKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: - Each layer's errors: a type, its codes, the error of the layer below

struct NetworkError: ChainedError {
    enum Code: Int, ErrorCode { case timeout = 8, badResponse = 9 }
    let code: Code
    var underlying: (any Error)? = nil
}

struct APIError: ChainedError {
    enum Code: Int, ErrorCode { case getTokenFailed = 7, getProfileFailed = 12 }
    let code: Code
    var underlying: (any Error)? = nil
}

struct LogicError: ChainedError {
    enum Code: Int, ErrorCode { case loginFailed = 43, profileUnavailable = 44 }
    let code: Code
    var underlying: (any Error)? = nil
}

struct UserError: ChainedError {
    enum Code: Int, ErrorCode { case connectionIssue = 14, cannotShowProfile = 15 }
    let code: Code
    var underlying: (any Error)? = nil
}

// MARK: - The layers: each wraps the error of the one below in its own

/// The network layer, failing as it is told to.
struct Network {
    enum Failure { case timeout, offline, cancelled }
    let failure: Failure

    func get(_ path: String) throws -> Data {
        switch failure {
        case .timeout: throw NetworkError(code: .timeout)
        case .offline: throw URLError(.notConnectedToInternet)  // Foundation's own: NSURLErrorDomain -1009
        case .cancelled: throw URLError(.cancelled)
        }
    }
}

struct API {
    let network: Network

    func token() throws(APIError) -> Data {
        do { return try network.get("/token") } catch { throw APIError(code: .getTokenFailed, underlying: error) }
    }

    func profile() throws(APIError) -> Data {
        do { return try network.get("/profile") } catch { throw APIError(code: .getProfileFailed, underlying: error) }
    }
}

struct Session {
    let api: API

    func logIn() throws(LogicError) {
        do { _ = try api.token() } catch { throw LogicError(code: .loginFailed, underlying: error) }
    }

    func loadProfile() throws(LogicError) {
        do { _ = try api.profile() } catch { throw LogicError(code: .profileUnavailable, underlying: error) }
    }
}

struct Screens {
    let session: Session

    init(_ failure: Network.Failure) { session = Session(api: API(network: Network(failure: failure))) }

    func logIn() throws(UserError) {
        do { try session.logIn() } catch { throw UserError(code: .connectionIssue, underlying: error) }
    }

    func showProfile() throws(UserError) {
        do { try session.loadProfile() } catch { throw UserError(code: .cannotShowProfile, underlying: error) }
    }
}

/// The signed-in user's id from the profile cache, which must hold one: a broken assumption is
/// reported (`LogicError(main.swift:LINE >>> cachedUserID(_:))`), not a crash.
func cachedUserID(_ cache: [String: String]) -> String? {
    guard let id = cache["id"] else {
        let failure = logicError("the profile cache holds a user without an id")
        print("logic error: reported \(failure.shortCodesChain)")
        print("    \(failure.fullChain)")
        return nil
    }
    return id
}

// MARK: - The run

var arguments = Array(CommandLine.arguments.dropFirst())
guard let dsn = arguments.first else {
    print("usage: chain-app DSN [--queue DIR]   (the DSN errtriage key add prints)")
    exit(2)
}
var options = ReporterOptions()
if let flag = arguments.firstIndex(of: "--queue"), flag + 1 < arguments.count { options.queueDirectory = arguments[flag + 1] }

let reporter = ErrorReporter.shared
do {
    try reporter.configure(dsn: dsn, environment: "example", appInfo: AppInfo(version: "1.0", build: "1"), options: options)
} catch {
    print("chain-app: \(error)")
    exit(2)
}
reporter.userID = "u0727"
// This demo reports its logic error instead of stopping at the debug build's assertion.
reporter.assertsOnLogicErrors = false

/// Reports what `attempt` threw, and says what the user would see.
func run(_ what: String, _ attempt: () throws(UserError) -> Void) -> UserError? {
    do {
        try attempt()
        return nil
    } catch {
        if reporter.report(error, additionalInfo: ["screen": what]) != nil {
            print("\(what): reported \(error.shortCodesChain)")
            print("    \(error.fullChain)")
        } else {
            print("\(what): \(error.shortCodesChain) not reported (not worth a report: a cancelled request)")
        }
        return error
    }
}

let login = run("login") { () throws(UserError) in try Screens(.timeout).logIn() }
_ = run("profile") { () throws(UserError) in try Screens(.offline).showProfile() }
_ = run("profile, left before it loaded") { () throws(UserError) in try Screens(.cancelled).showProfile() }

_ = cachedUserID(["name": "Ada"])

if let login {
    reporter.complain("I can't log in, the app says \(login.shortCodesChain) every morning", citing: login, category: "bug_report")
    print("complaint: sent, citing \(login.shortCodesChain)")
    let crashlytics = login.errorChain.crashlyticsError
    print("for Crashlytics: NSError domain \(crashlytics.domain), error_codes_stack \(login.errorChain.codesStack)")
}

if reporter.flush(timeout: 30) {
    print("every report acknowledged")
    exit(0)
}
print("chain-app: not every report was acknowledged: \(reporter.status)")
exit(1)
