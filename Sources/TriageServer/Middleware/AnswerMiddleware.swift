import Hummingbird

/// The intake's outermost middleware: a refusal thrown by any middleware or the handler becomes
/// its answer, counted by reason; the memory budget the request held is given back once it is answered.
struct AnswerMiddleware: RouterMiddleware {
    let stats: IntakeStats
    let budget: InFlightBudget

    func handle(_ request: Request, context: IntakeContext, next: (Request, IntakeContext) async throws -> Response) async throws -> Response {
        var context = context
        let reservation = BudgetReservation(budget)
        context.intake.reservation = reservation
        defer { reservation.releaseAll() }
        do {
            return try await next(request, context)
        } catch let refusal as Refusal {
            return refusal.response(stats)
        }
    }
}
