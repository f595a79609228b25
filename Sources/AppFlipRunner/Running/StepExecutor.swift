import AppFlipBase
import AppFlipChecks
import AppFlipHTTP
import AppFlipModel
import AppFlipRedaction
import Foundation

/// Runs one case's steps on one worker's connections: builds each request, sends it (an HTTP request itself, any
/// other step through the adapter contract that sends it), judges the answer and takes the captures later steps use.
package final class StepExecutor {
    package let targets: TargetUnderTest
    package let configuration: RunConfiguration
    package let timeout: Double
    package let logExcerptLimit: Int
    /// This worker's session with each exchange target, by contract, opened by the first request.
    private var sessions: [AdapterContractKey: any ExchangeSession] = [:]
    var clients: [HTTPOrigin: HTTPClient] = [:]
    /// What contracts keep alive for the current case (the native app's process and test server), by contract.
    package var flows: [AdapterContractKey: any AdapterCaseFlow] = [:]
    /// Whether a contract reads, right after an exchange and on this thread, what judging it needs of the exchange
    /// alone (`LinkHandlerContract.Reading`): set by a run whose judging thread is behind this worker. Either way the
    /// same is read and the verdicts are the same; only which thread does the work differs.
    package var readsAhead = false

    init(targets: TargetUnderTest, configuration: RunConfiguration, timeout: Double, logExcerptLimit: Int) {
        self.targets = targets
        self.configuration = configuration
        self.timeout = timeout
        self.logExcerptLimit = logExcerptLimit
        runRedactor = Redactor(secrets: Self.secrets(of: targets, clientID: configuration.clientID))
    }

    /// Hides the configured secrets, and the Basic credentials built from them (base64 of `id:secret`, raw and
    /// form-encoded), which a server that echoes its request headers would otherwise show. Built once per worker;
    /// each case adds the codes and tokens it sees.
    let runRedactor: Redactor

    private static func secrets(of targets: TargetUnderTest, clientID: String) -> [String] {
        var clients: [(id: String, secret: String)] = []
        if let secret = targets.clientSecret { clients.append((clientID, secret)) }
        if let second = targets.secondClient { clients.append((second.id, second.secret)) }
        return SecretValues.configured(targets.secrets, clients: clients)
    }

    func close() {
        for session in sessions.values { session.close() }
        sessions = [:]
        endFlows()
        for client in clients.values { client.close() }
        clients = [:]
    }

    /// Ends what the contracts kept for the case that ended.
    private func endFlows() {
        for flow in flows.values { flow.end() }
        flows = [:]
    }

    /// Exchanges `request` with the target of the contract `key`, through this worker's session with it.
    package func exchange(_ request: HandlerRequest, through key: AdapterContractKey, timeout: Double) -> TargetExchange {
        if sessions[key] == nil {
            guard let target = targets.adapters[key] as? any ExchangeTarget else {
                return TargetExchange(failure: targets.contracts.contract(key)?.unconfigured ?? "no target is configured for \(key)")
            }
            sessions[key] = target.makeSession()
        }
        return sessions[key]?.exchange(request, timeout: timeout) ?? TargetExchange(failure: "no session with \(key)")
    }

    func run(_ conformanceCase: ConformanceCase) -> Outcome {
        let generated = GeneratedValues(seed: configuration.seed, caseID: conformanceCase.id)
        var state = CaseState(redactor: runRedactor)
        // A case with `repeat: N` runs its whole sequence N times: ordinary checks must hold every time (the first
        // failure is kept); sample checks judge the values captured over every round, after the last.
        var merged: [CheckResult] = []
        var mergedFlags: [Bool] = []
        for round in 0..<conformanceCase.repeatCount {
            state.outcome.checks = []
            state.sampleFlags = []
            let completed = runSteps(conformanceCase, generated: generated, round: round, state: &state)
            if merged.isEmpty || merged.count != state.outcome.checks.count
                || zip(merged, state.outcome.checks).contains(where: { $0.requirement != $1.requirement })
            {
                merged = state.outcome.checks
                mergedFlags = state.sampleFlags
            } else {
                merged = zip(zip(merged, state.outcome.checks), mergedFlags).map { pair, isSample in
                    let (earlier, latest) = pair
                    return isSample || earlier.held || !earlier.isApplicable ? latest : earlier
                }
            }
            if !completed { break }
        }
        state.outcome.checks = merged
        endFlows()
        return state.finished
    }

    /// Runs every step once; false when the case ended early (the outcome says why).
    private func runSteps(_ conformanceCase: ConformanceCase, generated: GeneratedValues, round: Int, state: inout CaseState) -> Bool {
        for (index, step) in conformanceCase.steps.enumerated() {
            let label =
                (conformanceCase.repeatCount > 1 ? "round \(round + 1), " : "") + (conformanceCase.steps.count > 1 ? "step \(index + 1): " : "")
            if let why = notSent(step, state: state) {
                let judge = Judge(context: Template.Context(configuration: configuration, generated: generated, captured: state.captured))
                let reason = label + "not sent: " + why
                if step.whenCaptured.contains(where: { state.captured[$0] == nil }) { state.outcome.unmetConditions.insert(reason) }
                state.outcome.checks += step.checks.map { group in
                    CheckResult.notApplicable(
                        group.requirement, expected: group.expectation.checks.map(judge.expected).joined(separator: ", "),
                        reason: reason)
                }
                state.sampleFlags += step.checks.map { _ in false }
                continue
            }
            if let seconds = step.wait?.seconds(in: configuration) {
                Thread.sleep(forTimeInterval: seconds)
            }
            let sampleFlags = Self.sampleFlags(step.checks)
            var merged: [CheckResult] = []
            for repetition in 0..<step.repeatCount {
                // An app that can no longer be asked anything is not asked again; what it answered stands, and a
                // sample cut short is not judged.
                if repetition > 0, let why = notSent(step, state: state) {
                    let reason = label + "only \(repetition) of \(step.repeatCount) sent: " + why
                    merged = zip(merged, sampleFlags).map { result, isSample in
                        isSample ? CheckResult.notApplicable(result.requirement, expected: result.expected, reason: reason) : result
                    }
                    break
                }
                guard
                    let (observation, sent) = send(
                        step, of: conformanceCase, label: label, generated: generated, stepIndex: index,
                        repetition: round * 1000 + repetition,
                        recordEvidence: round == 0 && (repetition == 0 || step.repeatCount == 1), state: &state)
                else {
                    state.outcome.checks += merged
                    state.sampleFlags += sampleFlags.prefix(merged.count)
                    return false
                }
                var missing: Capture?
                for capture in step.captures {
                    if let value = value(of: capture.source, in: observation) {
                        state.captured[capture.name] = value
                        state.samples[capture.name, default: []].append(value)
                    } else if missing == nil {
                        missing = capture
                    }
                }
                let results = Self.judge(
                    step, observation: observation, sent: sent, configuration: configuration, generated: generated,
                    state: &state)
                merged =
                    merged.isEmpty
                    ? results
                    : zip(merged, zip(results, sampleFlags)).map { earlier, pair in
                        // Ordinary checks must hold every time: keep the first failure. Sample checks count at the end.
                        let (latest, isSample) = pair
                        return isSample || earlier.held ? latest : earlier
                    }
                // A capture only the step's own sample checks use (no step follows) stops nothing: those checks do not
                // apply to values that never came, and the answers' own checks say why (one defect, one blame).
                if let missing, index + 1 < conformanceCase.steps.count, !Self.laterStepsTolerate(missing.name, after: index, in: conformanceCase) {
                    state.outcome.checks += merged
                    state.sampleFlags += sampleFlags
                    if merged.contains(where: \.isFinding) { return false }  // the failed (or warned) check explains it
                    state.outcome.record(
                        .missingCapture(
                            label + "could not capture '\(missing.name)' (\(describe(missing.source))) from the answer, so later steps cannot run"))
                    return false
                }
            }
            state.outcome.checks += merged
            state.sampleFlags += sampleFlags
        }
        return true
    }

    /// Why the step does not apply and is not sent, or nil when it is sent.
    private func notSent(_ step: Step, state: CaseState) -> String? {
        if let missing = step.whenCaptured.first(where: { state.captured[$0] == nil }) {
            // An earlier answer the sources allow left nothing for this step to use.
            return "an earlier step captured no '\(missing)', which its checks allow"
        }
        return targets.contracts.contract(sending: step.action)?.notSent(state)
    }

    /// Judges one sending of a step against its checks, keeping the codes its `code: fresh` checks accepted.
    static func judge(
        _ step: Step, observation: Observation, sent: [QueryParameter], configuration: RunConfiguration,
        generated: GeneratedValues, state: inout CaseState
    ) -> [CheckResult] {
        var judge = Judge(
            context: Template.Context(
                configuration: configuration, generated: generated, sent: sent,
                captured: state.captured, samples: state.samples))
        judge.read(observation)
        let results = judge.judge(step.checks, observation: observation)
        state.outcome.issuedCodes += IssuedCode.accepted(by: step.checks, results: results, opened: judge.context.opened?.parameters ?? [])
        return results
    }

    /// True when every step after `index` is guarded by `when_captured` on `name`, so its absence ends nothing.
    static func laterStepsTolerate(_ name: String, after index: Int, in conformanceCase: ConformanceCase) -> Bool {
        let later = conformanceCase.steps.dropFirst(index + 1)
        return !later.isEmpty && later.allSatisfy { $0.whenCaptured.contains(name) }
    }

    /// What a case accumulates from step to step.
    package struct CaseState {
        package var outcome: Outcome
        var captured: [String: String] = [:]
        var samples: [String: [String]] = [:]
        /// For each check result of the current round, whether it is a sample check.
        var sampleFlags: [Bool] = []
        /// What a contract's steps pass on to the case's later steps, by contract (the native app's last
        /// authorization request and redirect).
        package var contractNotes: [AdapterContractKey: any Sendable] = [:]

        package init(redactor: Redactor) {
            outcome = Outcome(redactor: redactor)
        }

        /// The outcome, its checks redacted (once, with every secret the case met: the evidence was redacted as it
        /// was recorded).
        var finished: Outcome {
            var outcome = outcome
            if let framing = outcome.framing { outcome.checks.append(framing) }
            if let serverError = outcome.serverError { outcome.checks.append(serverError) }
            if let undelivered = outcome.undeliveredRedirect,
                !outcome.checks.contains(where: { $0.requirement.id == undelivered.requirement.id && $0.isFinding })
            {
                outcome.checks.append(undelivered)
            }
            outcome.redactChecks()
            return outcome
        }
    }

    /// For each result `judge` returns for `checks`, whether it is a sample check (judged once, at the end).
    static func sampleFlags(_ checks: [CheckGroup]) -> [Bool] {
        checks.flatMap { group -> [Bool] in
            switch group.expectation {
            case .all(let checks): checks.map { $0.base.scope == .samples }
            case .oneOf: [false]
            }
        }
    }

    /// Sends the one step of a case whose only remaining work is judging (`DeferredJudgement.applies`) and returns
    /// that work, to be done on any thread; nil for any other case, which `run` sends and judges whole.
    func sendOnly(_ conformanceCase: ConformanceCase) -> DeferredJudgement? {
        guard DeferredJudgement.applies(to: conformanceCase, contracts: targets.contracts), let step = conformanceCase.steps.first else { return nil }
        let generated = GeneratedValues(seed: configuration.seed, caseID: conformanceCase.id)
        let context = Template.Context(configuration: configuration, generated: generated, captured: [:], samples: [:])
        let sent: DeferredJudgement.Sent
        if let request = step.action.httpRequest {
            sent = .http(sendHTTP(request, of: conformanceCase, context: context))
        } else {
            var state = CaseState(redactor: runRedactor)
            let adapterStep = AdapterStep(
                conformanceCase: conformanceCase, action: step.action, label: "", generated: generated, stepIndex: 0,
                repetition: 0, recordEvidence: true, context: context)
            guard let contract = targets.contracts.contract(sending: step.action),
                case .sent(let absorb) = contract.send(adapterStep, through: self, state: &state)
            else { return nil }
            sent = .adapter(absorb)
        }
        return DeferredJudgement(
            conformanceCase: conformanceCase, step: step, sent: sent, generated: generated, configuration: configuration,
            redactor: runRedactor)
    }

    /// Sends one step once; nil when the target failed (the outcome then says why).
    private func send(
        _ step: Step, of conformanceCase: ConformanceCase, label: String, generated: GeneratedValues, stepIndex: Int,
        repetition: Int, recordEvidence: Bool, state: inout CaseState
    ) -> (Observation, [QueryParameter])? {
        let context = Template.Context(configuration: configuration, generated: generated, captured: state.captured, samples: state.samples)
        guard let request = step.action.httpRequest else {
            guard let contract = targets.contracts.contract(sending: step.action) else {
                state.outcome.record(.suite(label + "no adapter contract sends this step"))
                return nil
            }
            let adapterStep = AdapterStep(
                conformanceCase: conformanceCase, action: step.action, label: label, generated: generated,
                stepIndex: stepIndex, repetition: repetition, recordEvidence: recordEvidence, context: context)
            switch contract.send(adapterStep, through: self, state: &state) {
            case .sent(let absorb): return absorb(&state)
            case .observed(let observed): return observed
            }
        }
        if let limit = request.burst {
            guard let prepared = prepare(request, of: conformanceCase, label: label, context: context, state: &state) else { return nil }
            return burst(prepared, limit: limit, label: label, state: &state).map { ($0, prepared.sentParameters) }
        }
        if request.transportProbe == .legacyTLS {
            guard let prepared = prepare(request, of: conformanceCase, label: label, context: context, state: &state) else { return nil }
            return handshake(prepared.origin, label: label, state: &state).map { ($0, []) }
        }
        if request.transportProbe == .certificate {
            guard let prepared = prepare(request, of: conformanceCase, label: label, context: context, state: &state) else { return nil }
            return certificate(prepared.origin, label: label, state: &state).map { ($0, []) }
        }
        let sent = sendHTTP(request, of: conformanceCase, context: context)
        return Self.absorb(sent, of: step, label: label, context: context, recordEvidence: recordEvidence, state: &state)
    }

}
