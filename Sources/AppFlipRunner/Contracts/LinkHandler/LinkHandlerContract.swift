import AppFlipBase
import AppFlipHTTP
import AppFlipModel
import AppFlipRedaction
import Foundation

/// The iOS link handler's contract (Documentation/AdapterContracts.md, "The adapter contract"): a universal link in, `{"id", "link",
/// "scenario"}`; what the app opened out, `{"id", "action": "open" | "decline", "url", "universal_links_only"}`.
/// A link step's link is built from its recipe, handed to the handler within the step's time, and its answer read.
package struct LinkHandlerContract: AdapterContract {
    package init() {}

    package var key: AdapterContractKey { .linkHandler }
    package var role: String { "link handler" }
    package var unconfigured: String { "no link handler is configured" }
    package var judgedApart: Bool { true }

    package func request(of action: Step.Action) -> LinkRecipe? {
        if case .link(let recipe) = action { return recipe }
        return nil
    }

    package func send(_ recipe: LinkRecipe, _ step: AdapterStep, through executor: StepExecutor, state: inout StepExecutor.CaseState)
        -> AdapterSending
    {
        let sent = Self.sendLink(recipe, step, through: executor)
        let (label, logExcerptLimit) = (step.label, executor.logExcerptLimit)
        return .sent { state in Self.absorb(sent, label: label, logExcerptLimit: logExcerptLimit, state: &state) }
    }

    /// A link as sent: the exchange, or why nothing was sent.
    struct SentLink: Sendable {
        var link: String
        var exchange: TargetExchange?
        /// Set when building the link used up the step's time: nothing was sent.
        var unsent: String?
        /// What the exchange shows that depends on nothing else, when it was read where the exchange was made
        /// (`Reading`, `StepExecutor.readsAhead`); otherwise judging reads it.
        var reading: Reading?

        init(link: String, exchange: TargetExchange? = nil, unsent: String? = nil, readingAhead: Bool = false) {
            self.link = link
            self.exchange = exchange
            self.unsent = unsent
            reading = readingAhead ? exchange.map { Reading(link: link, exchange: $0) } : nil
        }
    }

    /// The part of absorbing an answer that needs neither the case's redactor nor its checks, and most of its cost
    /// when the app consents: the secrets the answer holds with their forms worked out, the observation and its
    /// summary (the code's placeholder is an HMAC), the link redacted by name and its parameters. A pure function of
    /// the exchange, read on the worker's thread when the judging thread is behind it (a loop whose app consents has
    /// its judging for bottleneck) and by the judging otherwise (where the worker is the bottleneck: an app that
    /// declines, a handler over HTTP).
    struct Reading: Sendable {
        var secrets: [Redactor.PreparedSecret]
        var redactedLink: String
        var sentParameters: [QueryParameter]
        /// The answer as judged (a crash is an answer that opened nothing), and its summary; nil when there is none.
        var observation: (Observation, summary: String)?

        init(link: String, exchange: TargetExchange) {
            // Whatever stands where a secret would, whether or not the answer is usable.
            secrets = SecretPositions.inAnswer(exchange.rawAnswer, url: exchange.answer?.url).compactMap(Redactor.PreparedSecret.init)
            redactedLink = Redaction.redact(url: link)
            sentParameters = URLParts(link).parameters
            observation = (exchange.answer ?? exchange.crash.map { HandlerAnswer.crashed($0) }).map { answer in
                let observation = Observation.link(answer)
                return (observation, observation.summary)
            }
        }
    }

    /// Builds the step's link and exchanges it with the link handler (this worker's session).
    static func sendLink(_ recipe: LinkRecipe, _ step: AdapterStep, through executor: StepExecutor) -> SentLink {
        // Building the link (a large `${repeat}` is bounded at load, yet not free) is part of the step's time.
        let building = ContinuousClock.now
        let link = recipe.build(in: step.context)
        let spent = StepExecutor.seconds(ContinuousClock.now - building)
        let timeout = executor.timeout
        guard spent < timeout else {
            return SentLink(
                link: link,
                unsent: "building the link took \(secondsText(spent)) s, all of the step's \(secondsText(timeout)) s; "
                    + "nothing was sent (shorten its ${repeat} values or raise --timeout)")
        }
        let request = HandlerRequest(id: step.requestID, link: link, scenario: step.conformanceCase.scenario)
        return SentLink(
            link: link, exchange: executor.exchange(request, through: .linkHandler, timeout: timeout - spent),
            readingAhead: executor.readsAhead)
    }

    /// What a sent link shows: the evidence (redacted) and the observation to judge, or nil when the handler gave no
    /// answer (the outcome then says why). Needs none of the worker's connections.
    static func absorb(
        _ sent: SentLink, label: String, logExcerptLimit: Int,
        state: inout StepExecutor.CaseState
    ) -> (Observation, [QueryParameter])? {
        guard let exchange = sent.exchange else {
            state.outcome.record(.target(label + (sent.unsent ?? "nothing was sent")))
            return nil
        }
        let reading = sent.reading ?? Reading(link: sent.link, exchange: exchange)
        state.outcome.learn(reading.secrets)
        if let fault = exchange.previousRequestFault { state.outcome.recordPreviousRequestFault(fault) }
        state.outcome.recordLink(reading.redactedLink, limit: 1024)
        state.outcome.recordStderr(exchange.log, limit: logExcerptLimit)
        // A crash while handling the link is what Google's app would see, nothing opened, and is judged as such.
        guard let (observation, summary) = reading.observation else {
            state.outcome.recordAnswer(exchange.rawAnswer, limit: TargetExchange.answerExcerptLimit)
            state.outcome.record(exchange.suiteFault ? .suite(exchange.failure ?? "no answer") : .target(label + (exchange.failure ?? "no answer")))
            return nil
        }
        state.outcome.recordAnswer(summary, limit: nil)
        return (observation, reading.sentParameters)
    }
}

extension AdapterContractKey {
    /// The iOS link handler (app-link and flip cases).
    package static let linkHandler = AdapterContractKey(rawValue: "the link handler")
}
