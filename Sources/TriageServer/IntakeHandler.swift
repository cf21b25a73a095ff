import Foundation
import Hummingbird
import NIOPosix
import TriageIngest
import TriageModel

/// The intake's last step, on a request with a good key and its body decoded (`BodyContext`):
/// the body read as records (at most `maxRecordsPerRequest`), each record charged to the key's
/// rate limit (`RateLimitMiddleware.charge`), what was admitted committed, and the answer — 200
/// only once it is committed.
struct IntakeHandler: Sendable {
    let configuration: ServeConfiguration
    let committer: GroupCommitter
    let rateLimit: RateLimitMiddleware
    let stats: IntakeStats
    let clock: ServeClock

    /// What decoding and charging one body gave, on the thread pool.
    struct Admitted: Sendable {
        var intake: IntakeBatch
        /// Records the body carried, and those the rate limit let in (the first ones).
        var offered: Int
        var grant: RateLimiter.Grant
    }

    func handle(_ request: Request, context: BodyContext) async throws -> Response {
        let admitted = try await admit(context.body, endpoint: context.endpoint, key: context.key, reservation: context.reservation)
        let intake = admitted.intake
        if intake.records > 0 {
            do {
                try await committer.submit(intake.batch)
            } catch {
                if error.isRefusedData {
                    throw Refusal(.badRequest, .unstorable, "the store refused this request's records (\(error.message)); nothing of it was kept")
                }
                throw Refusal(.serviceUnavailable, error.isBelowFloor ? .diskFull : .storeFailed, "the store cannot take events now (\(error.message)); retry later",
                              retryAfter: error.isBelowFloor ? configuration.retryAfterFloorSeconds : configuration.retryAfterSeconds)
            }
        }
        stats.acknowledged(seconds: clock.uptime() - context.bodyRead)
        stats.retimed(intake.retimed)
        if intake.records > 0 || admitted.offered == 0 { stats.accepted(records: intake.records, skipped: intake.skipped) }
        if admitted.grant.granted < admitted.offered {
            // The records within the limit were kept; the answer says how many, and when the rest may come.
            let kept = intake.records
            let refusal = rateLimit.refusal(kept: kept, offered: admitted.offered, grant: admitted.grant)
            return refusal.response(stats, count: admitted.offered - kept)
        }
        if let first = intake.rejects.first {
            // The good items were kept; the answer names the first refused one.
            let more = intake.rejects.count > 1 ? " (and \(intake.rejects.count - 1) more)" : ""
            let kept = intake.records > 0 ? "; \(intake.records) other record\(intake.records == 1 ? " was" : "s were") kept" : ""
            let place = context.endpoint == .envelope || context.endpoint == .store ? "" : "line \(first.line) of the body: "
            var refusal = intake.hasOversized ? Refusal(.contentTooLarge, .tooLarge, "") : Refusal(.badRequest, .badItem, "")
            refusal.detail = "\(place)\(first.reason)\(more)\(kept)"
            return refusal.response(stats, count: intake.rejects.count)
        }
        return Answer.json(.ok, [("id", .string(intake.eventID ?? Self.newEventID()))])
    }

    /// Decodes the body and charges its records, on the decoding threads (`DecodePool`); keeps the admitted ones,
    /// prepared for the writer. The records are held against the request's share of the memory
    /// budget as they are decoded, and the body's share is given back once they are.
    func admit(_ decoded: DecodedBody, endpoint: IntakeEndpoint, key: IntakeKey, reservation: BudgetReservation) async throws -> Admitted {
        let receivedAt = clock.now()
        let maxRecords = configuration.maxRecordsPerRequest
        let rateLimit = self.rateLimit
        let result: Result<Admitted, Intake.Failure> = try await DecodePool.run {
            Result { () throws(Intake.Failure) -> Admitted in
                var (body, held) = decoded.take()
                defer {
                    body = []
                    reservation.release(held)
                }
                var intake: IntakeBatch
                do throws(Intake.Failure) {
                    intake = try Intake.decode(body, endpoint: endpoint, project: key.project, receivedAt: receivedAt, maxRecords: maxRecords,
                                               reserve: { reservation.reserve($0) })
                } catch .overloaded(let needed) where reservation.exceedsBudget(needed) {
                    // Told before the body's share is given back: with it, this request alone passes the budget.
                    throw .overBudget
                }
                let (offered, grant) = rateLimit.charge(&intake, key: key)
                intake.batch.prepare()
                return Admitted(intake: intake, offered: offered, grant: grant)
            }
        }
        switch result {
        case .success(let admitted): return admitted
        case .failure(.notJSON(let reason)): throw Refusal(.badRequest, .notJSON, reason)
        case .failure(.notAnEnvelope(let reason)): throw Refusal(.badRequest, .notAnEnvelope, reason)
        case .failure(.malformed(let reason)): throw Refusal(.badRequest, .badItem, reason)
        case .failure(.tooManyRecords(let limit)):
            throw Refusal(.contentTooLarge, .tooManyRecords, "the body carries more than \(limit) records, the most one request may (serve --max-records-per-request); send them in several requests")
        case .failure(.overloaded): throw BodyCollector.overloaded()
        case .failure(.overBudget):
            throw Refusal(.contentTooLarge, .tooLarge, "the body's records need more memory than the server's whole budget for requests "
                          + "(serve --max-in-flight, \(ByteCount.text(Int64(configuration.maxInFlightBytes)))); send them in several requests", close: true)
        }
    }

    static func newEventID() -> String {
        UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }
}
