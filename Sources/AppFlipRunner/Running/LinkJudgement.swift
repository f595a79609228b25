import AppFlipModel

/// What is left of a case once its link was sent, when that is only judging: the case's one step sends a link once,
/// waits for nothing and captures nothing. Judging needs none of the worker's connections, so a run judges the case
/// on another thread while the worker sends the next one; the exchanges themselves stay one at a time, in order.
struct LinkJudgement: Sendable {
    let conformanceCase: ConformanceCase
    let step: Step
    let sent: StepExecutor.SentLink
    let generated: GeneratedValues
    let configuration: RunConfiguration
    let secrets: [String]
    let logExcerptLimit: Int

    /// Whether everything `conformanceCase` does after its exchange is judging.
    static func applies(to conformanceCase: ConformanceCase) -> Bool {
        guard conformanceCase.repeatCount == 1, conformanceCase.steps.count == 1, let step = conformanceCase.steps.first,
              case .link = step.action else { return false }
        return step.repeatCount == 1 && step.captures.isEmpty && step.whenCaptured.isEmpty && step.wait == nil
    }

    /// The case's outcome, the same as `StepExecutor.run` gives when it sends and judges in one go.
    func outcome() -> StepExecutor.Outcome {
        var state = StepExecutor.CaseState(outcome: StepExecutor.Outcome(), secrets: secrets)
        let context = Template.Context(configuration: configuration, generated: generated, captured: [:], samples: [:])
        guard let (observation, sentParameters) = StepExecutor.absorb(sent, label: "", context: context, logExcerptLimit: logExcerptLimit,
                                                                      state: &state) else {
            return state.outcome
        }
        state.outcome.checks = StepExecutor.judge(step, observation: observation, sent: sentParameters, configuration: configuration,
                                                  generated: generated, state: &state)
        return state.outcome
    }
}
