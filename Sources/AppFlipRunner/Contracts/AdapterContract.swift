import AppFlipModel

/// One way the suite hands the partner's app a request and reads what the app did (the iOS link handler's link, and
/// each other contract's own; `AdapterContracts` lists them). A contract declares which steps it sends, how it sends one
/// through the worker's session with its target, and what a run says when that target is missing or unusable.
///
/// The runner, `TargetUnderTest` and `StepExecutor` know contracts only through this protocol and
/// `AdapterContracts`: a contract's own code lives in its folder (`Contracts/<Name>/`), and adding one touches no
/// shared file of the runner (CONTRIBUTING, "Add an adapter contract"). What it keeps alive for a case goes in
/// `StepExecutor.flows` (an `AdapterCaseFlow`, ended with the case); what its steps pass on to the case's later ones,
/// in `StepExecutor.CaseState.contractNotes`.
package protocol AdapterContract: Sendable {
    /// The key its target is held under (`TargetUnderTest.adapters`), also the name the run gives the target.
    var key: AdapterContractKey { get }
    /// What the report calls the target's role ("link handler"): its target line and the adapter files hashed.
    var role: String { get }
    /// Whether the report's target line writes the role before the target's own description (false when that
    /// description names it already).
    var labelsDescription: Bool { get }
    /// Why a case that sends through the contract is skipped when no target of it is configured.
    var unconfigured: String { get }
    /// What a step of this contract carries (a link recipe, an intent recipe, a native command).
    associatedtype Request
    /// The request of a step this contract sends, or nil for any other step.
    func request(of action: Step.Action) -> Request?
    /// Whether a case of one such step, once its exchange is over, is only left to be judged (`DeferredJudgement`):
    /// then `send` answers `.sent` and the run may judge it on another thread.
    var judgedApart: Bool { get }
    /// Sends one step's request through the worker's session with the contract's target.
    func send(_ request: Request, _ step: AdapterStep, through executor: StepExecutor, state: inout StepExecutor.CaseState) -> AdapterSending
    /// Why the case's next step through this contract is not sent (an app that can no longer be asked anything), or
    /// nil when it is sent.
    func notSent(_ state: StepExecutor.CaseState) -> String?
}

extension AdapterContract {
    /// Whether `action` is sent through this contract.
    package func sends(_ action: Step.Action) -> Bool { request(of: action) != nil }

    /// Sends one step through the worker's session with the contract's target.
    package func send(_ step: AdapterStep, through executor: StepExecutor, state: inout StepExecutor.CaseState) -> AdapterSending {
        guard let request = request(of: step.action) else {
            state.outcome.record(.suite(step.label + "\(key) was handed a step of another contract"))
            return .observed(nil)
        }
        return send(request, step, through: executor, state: &state)
    }

    package var labelsDescription: Bool { true }
    package var judgedApart: Bool { false }
    package func notSent(_ state: StepExecutor.CaseState) -> String? { nil }
}
