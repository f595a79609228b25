import AppFlipModel
import AppFlipRedaction
import Foundation

/// The Android activity's contract (Documentation/AdapterContracts.md, "The Android App Flip profile and its contract"): the intent Google starts the partner's
/// activity with in, `{"id", "intent": {…}, "caller": {…}, "scenario"}`; the result the activity set out,
/// `{"id", "result_code", "data", "finished"}`. An intent step's intent is built from its recipe, handed to the
/// Android handler within the step's time, and the activity's result read.
package struct AndroidActivityContract: AdapterContract {
    package init() {}

    package var key: AdapterContractKey { .androidActivity }
    package var role: String { "Android handler" }
    package var unconfigured: String { "no Android handler is configured (--android-handler COMMAND)" }

    package func request(of action: Step.Action) -> IntentRecipe? {
        if case .intent(let recipe) = action { return recipe }
        return nil
    }

    package func send(_ recipe: IntentRecipe, _ step: AdapterStep, through executor: StepExecutor, state: inout StepExecutor.CaseState)
        -> AdapterSending
    {
        let sent = Self.sendIntent(recipe, step, through: executor)
        return .observed(Self.absorb(sent, label: step.label, state: &state).map { ($0, []) })
    }

    /// An intent as sent: the exchange, or why nothing was sent.
    struct SentIntent: Sendable {
        var intent: AndroidIntent
        var exchange: TargetExchange?
        var unsent: String?
        var sentAt: Date
        var milliseconds: Int
    }

    static func sendIntent(_ recipe: IntentRecipe, _ step: AdapterStep, through executor: StepExecutor) -> SentIntent {
        let building = ContinuousClock.now
        let intent = recipe.build(in: step.context)
        let spent = StepExecutor.seconds(ContinuousClock.now - building)
        let sentAt = Date()
        let timeout = executor.timeout
        guard spent < timeout else {
            return SentIntent(
                intent: intent,
                unsent: "building the intent took \(secondsText(spent)) s, all of the step's \(secondsText(timeout)) s; "
                    + "nothing was sent (shorten its ${repeat} values or raise --timeout)", sentAt: sentAt, milliseconds: 0)
        }
        let request = HandlerRequest(id: step.requestID, intent: intent, scenario: recipe.scenario ?? step.conformanceCase.scenario)
        let started = ContinuousClock.now
        let exchange = executor.exchange(request, through: .androidActivity, timeout: timeout - spent)
        return SentIntent(
            intent: intent, exchange: exchange, sentAt: sentAt,
            milliseconds: Int((StepExecutor.seconds(ContinuousClock.now - started) * 1000).rounded()))
    }

    /// What a sent intent shows: the evidence (redacted, the code hidden) and the activity's result to judge, or nil
    /// when the handler gave no usable answer (the outcome then says why).
    static func absorb(_ sent: SentIntent, label: String, state: inout StepExecutor.CaseState) -> Observation? {
        let intentText = sent.intent.display.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
        guard let exchange = sent.exchange else {
            state.outcome.record(.target(label + (sent.unsent ?? "nothing was sent")))
            return nil
        }
        // Whatever stands where a secret would, whether or not the answer is usable (an unfinished activity, a result
        // code given as a string, a code of another type all carry a live code).
        var secrets = SecretPositions.inAnswer(exchange.rawAnswer)
        if let code = exchange.activityResult?.extra("AUTHORIZATION_CODE") {
            switch code {
            case .string(let text): secrets.append(text)
            case .stringArray(let items): secrets += items
            case .int(let number): secrets.append(String(number))
            case .other(_, let json): secrets += [json] + SecretPositions.inAnswer(#"{"code":"# + json + "}")
            }
        }
        state.outcome.learn(secrets)
        if let fault = exchange.previousRequestFault { state.outcome.recordPreviousRequestFault(fault) }
        state.outcome.recordStderr(exchange.log, limit: 16 * 1024)
        state.outcome.recordAnswer(exchange.rawAnswer, limit: TargetExchange.answerExcerptLimit)
        // A crash while handling the request is what Google would receive, RESULT_CANCELED, and is judged as such.
        let delivered = exchange.activityResult ?? exchange.crash.map { ActivityResult.crashed($0) }
        let outcomeText = delivered.map { "  → " + $0.summary } ?? "  → " + (exchange.failure ?? "no answer")
        let transcript = state.outcome.redactor.excerpt(
            "\(label)started the activity for a result with:\n" + intentText + "\n" + outcomeText, limit: 8 * 1024)
        state.outcome.record(Evidence.Exchange("", sentAt: sent.sentAt, milliseconds: sent.milliseconds), then: transcript)
        guard var result = delivered else {
            state.outcome.record(exchange.suiteFault ? .suite(exchange.failure ?? "no answer") : .target(label + (exchange.failure ?? "no answer")))
            return nil
        }
        result.requestCaller = sent.intent.caller
        return .activity(result)
    }
}

extension AdapterContractKey {
    /// The partner's Android App Flip activity (android-app-flip profile).
    package static let androidActivity = AdapterContractKey(rawValue: "the Android handler")
}
