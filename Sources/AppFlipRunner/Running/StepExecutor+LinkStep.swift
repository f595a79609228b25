import AppFlipHTTP
import AppFlipModel
import Foundation

/// A link step: the link built from its recipe, handed to the link handler within the step's time, and its answer
/// absorbed into the case.
extension StepExecutor {
    /// A link as sent: the exchange, or why nothing was sent.
    struct SentLink: Sendable {
        var link: String
        var exchange: TargetExchange?
        /// Set when building the link used up the step's time: nothing was sent.
        var unsent: String?
    }

    /// Sends the one step of a case whose only remaining work is judging (`DeferredJudgement.applies`) and returns
    /// that work, to be done on any thread; nil for any other case, which `run` sends and judges whole.
    func sendOnly(_ conformanceCase: ConformanceCase) -> DeferredJudgement? {
        guard DeferredJudgement.applies(to: conformanceCase), let step = conformanceCase.steps.first else { return nil }
        let generated = GeneratedValues(seed: configuration.seed, caseID: conformanceCase.id)
        let context = Template.Context(configuration: configuration, generated: generated, captured: [:], samples: [:])
        let sent: DeferredJudgement.Sent
        switch step.action {
        case .link(let recipe):
            sent = .link(sendLink(recipe, of: conformanceCase, generated: generated, stepIndex: 0, repetition: 0, context: context))
        case .http(let request):
            sent = .http(sendHTTP(request, of: conformanceCase, context: context))
        case .native, .intent:
            return nil
        }
        return DeferredJudgement(conformanceCase: conformanceCase, step: step, sent: sent, generated: generated, configuration: configuration,
                                 redactor: runRedactor, logExcerptLimit: logExcerptLimit)
    }

    /// Builds the step's link and exchanges it with the link handler (this worker's session).
    func sendLink(_ recipe: LinkRecipe, of conformanceCase: ConformanceCase, generated: GeneratedValues, stepIndex: Int,
                          repetition: Int, context: Template.Context) -> SentLink {
        // Building the link (a large `${repeat}` is bounded at load, yet not free) is part of the step's time.
        let building = ContinuousClock.now
        let link = recipe.build(in: context)
        let spent = Self.seconds(ContinuousClock.now - building)
        guard spent < timeout else {
            return SentLink(link: link, unsent: "building the link took \(secondsText(spent)) s, all of the step's \(secondsText(timeout)) s; "
                            + "nothing was sent (shorten its ${repeat} values or raise --timeout)")
        }
        // An opaque id: the case ID would let a "test mode" adapter answer from a lookup table.
        let requestID = generated.requestID(step: stepIndex, repetition: repetition)
        return SentLink(link: link, exchange: linkExchange(HandlerRequest(id: requestID, link: link, scenario: conformanceCase.scenario),
                                                           timeout: timeout - spent))
    }

    /// What a sent link shows: the evidence (redacted) and the observation to judge, or nil when the handler gave no
    /// answer (the outcome then says why). Needs none of the worker's connections.
    static func absorb(_ sent: SentLink, label: String, context: Template.Context, logExcerptLimit: Int,
                       state: inout CaseState) -> (Observation, [QueryParameter])? {
        guard let exchange = sent.exchange else {
            state.outcome.record(.target(label + (sent.unsent ?? "nothing was sent")))
            return nil
        }
        let link = sent.link
        // Whatever stands where a secret would, whether or not the answer is usable.
        state.redactor.add((exchange.answer?.url.map(Redaction.secrets(in:)) ?? []) + SecretPositions.inAnswer(exchange.rawAnswer))
        if let fault = exchange.previousRequestFault { state.outcome.previousRequestFault = state.redactor.redact(fault) }
        state.outcome.evidence.link = state.redactor.excerpt(Redaction.redact(url: link), limit: 1024)
        state.outcome.evidence.stderr = state.redactor.excerpt(exchange.log, limit: logExcerptLimit)
        // A crash while handling the link is what Google's app would see, nothing opened, and is judged as such.
        guard let answer = exchange.answer ?? exchange.crash.map({ HandlerAnswer.crashed($0) }) else {
            state.outcome.evidence.answer = state.redactor.excerpt(exchange.rawAnswer, limit: TargetExchange.answerExcerptLimit)
            state.outcome.record(exchange.suiteFault ? .suite(exchange.failure ?? "no answer") : .target(label + (exchange.failure ?? "no answer")))
            return nil
        }
        let observation = Observation.link(answer)
        state.outcome.evidence.answer = Judge(context: context).summary(observation)
        return (observation, URLParts(link).parameters)
    }

    func linkExchange(_ request: HandlerRequest, timeout: Double) -> TargetExchange {
        guard let target = targets.linkHandler else { return TargetExchange(failure: "no link handler is configured") }
        if linkSession == nil { linkSession = target.makeSession() }
        return linkSession?.exchange(request, timeout: timeout) ?? TargetExchange(failure: "no link handler session")
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
