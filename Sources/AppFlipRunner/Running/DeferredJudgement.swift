import AppFlipBase
import AppFlipModel
import AppFlipRedaction

/// What is left of a case once its one step was sent, when that is only judging: the step sends an HTTP request
/// (through the sign-in pages or not), or a request of a contract that reads its answer apart (`judgedApart`: the
/// link handler's), once, waits for nothing and captures nothing. Judging needs none of
/// the worker's connections, so a run judges the case on another thread while the worker sends the next one; the
/// exchanges themselves stay one at a time, in order.
struct DeferredJudgement: Sendable {
    /// The step as sent.
    enum Sent: Sendable {
        /// A contract's exchange, its answer still to be read (`AdapterSending.sent`).
        case adapter(@Sendable (inout StepExecutor.CaseState) -> (Observation, [QueryParameter])?)
        case http(StepExecutor.SentHTTP)
    }

    let conformanceCase: ConformanceCase
    let step: Step
    let sent: Sent
    let generated: GeneratedValues
    let configuration: RunConfiguration
    let redactor: Redactor

    /// Whether everything `conformanceCase` does after its exchange is judging. A burst and a TLS handshake probe
    /// judge while they send, and a contract that reads its answers in line (a native app it drives) does not judge
    /// apart: those run whole on the worker.
    static func applies(to conformanceCase: ConformanceCase, contracts: AdapterContracts = .builtIn) -> Bool {
        guard conformanceCase.repeatCount == 1, conformanceCase.steps.count == 1, let step = conformanceCase.steps.first,
            step.repeatCount == 1, step.captures.isEmpty, step.whenCaptured.isEmpty, step.wait == nil
        else { return false }
        guard let request = step.action.httpRequest else { return contracts.contract(sending: step.action)?.judgedApart ?? false }
        return request.burst == nil && request.transportProbe?.isHandshakeOnly != true
    }

    /// The case's outcome, the same as `StepExecutor.run` gives when it sends and judges in one go.
    func outcome() -> StepExecutor.Outcome {
        var state = StepExecutor.CaseState(redactor: redactor)
        let context = Template.Context(configuration: configuration, generated: generated, captured: [:], samples: [:])
        let absorbed =
            switch sent {
            case .adapter(let absorb):
                absorb(&state)
            case .http(let http):
                StepExecutor.absorb(http, of: step, label: "", context: context, recordEvidence: true, state: &state)
            }
        guard let (observation, sentParameters) = absorbed else { return state.finished }
        state.outcome.checks = StepExecutor.judge(
            step, observation: observation, sent: sentParameters, configuration: configuration,
            generated: generated, state: &state)
        return state.finished
    }
}
