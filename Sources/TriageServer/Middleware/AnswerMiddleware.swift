import Hummingbird

/// The intake's first stage: a refusal thrown by any stage after it or the handler becomes its
/// answer, counted by reason; the request's share of the memory budget is made here, handed on
/// (`ReservedContext` takes it) and given back once the request is answered.
struct AnswerMiddleware: RouterMiddleware {
    let stats: IntakeStats
    let budget: InFlightBudget

    func handle(_ request: Request, context: IntakeContext, next: (Request, IntakeContext) async throws -> Response) async throws -> Response {
        var context = context
        let reservation = BudgetReservation(budget)
        context.reservation = reservation
        defer { reservation.releaseAll() }
        do {
            return try await next(request, context)
        } catch let refusal as Refusal {
            return refusal.response(stats)
        }
    }
}
