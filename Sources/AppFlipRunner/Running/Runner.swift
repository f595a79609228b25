import AppFlipModel
import AppFlipRedaction
import AppFlipSystem
import Foundation

/// Runs cases against a target on `jobs` worker threads and judges every answer.
///
/// A target's misbehaviour becomes an `error` result for that case; the run always goes on.
package struct Runner: Sendable {
    package var configuration: RunConfiguration
    /// Seconds a handler has to answer one case.
    package var timeout: Double
    package var jobs: Int
    /// How much of the handler's log a report keeps per case.
    package var logExcerptLimit: Int
    /// Whether cases that wait longer than `slowThreshold` in all run; otherwise they are skipped with the reason.
    package var includeSlow = false
    /// Seconds of waiting above which a case is slow.
    package static let slowThreshold = 30.0
    /// Whether a case whose only work after its exchange is judging (`DeferredJudgement`) is judged on its worker's
    /// judging thread while the worker sends the next case. False judges every case in line, as a worker alone
    /// would: the same results, which the tests compare.
    package var judgesApart = true

    package init(
        configuration: RunConfiguration, timeout: Double = 10, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        logExcerptLimit: Int = 4096
    ) {
        self.configuration = configuration
        self.timeout = timeout
        self.jobs = max(1, jobs)
        self.logExcerptLimit = logExcerptLimit
    }

    /// Runs every case against one adapter, under the contract `key` (the link handler's unless said).
    package func run(
        _ cases: [ConformanceCase], on target: any AdapterTarget, as key: AdapterContractKey = .linkHandler,
        shouldStop: @escaping @Sendable () -> Bool = { false },
        progress: @escaping @Sendable (CaseResult) -> Void = { _ in }
    ) -> [CaseResult] {
        run(cases, targets: TargetUnderTest(adapters: [key: target]), shouldStop: shouldStop, progress: progress)
    }

    /// Runs every case and returns the results in case order. `progress` is called as each case finishes, one call
    /// at a time. `shouldStop` is polled between cases.
    package func run(
        _ cases: [ConformanceCase], targets: TargetUnderTest,
        shouldStop: @escaping @Sendable () -> Bool = { false },
        progress: @escaping @Sendable (CaseResult) -> Void = { _ in }
    ) -> [CaseResult] {
        let targets = preflighted(targets, for: cases)
        let schedule = Schedule(runner: self, cases: cases, targets: targets, shouldStop: shouldStop, progress: progress)
        let group = DispatchGroup()
        // A thread starts with no scope bound: each writes placeholders in the style of the run that started it.
        let style = Redaction.style
        func start(_ body: @escaping @Sendable () -> Void) {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                Redaction.$style.withValue(style) { body() }
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        // Cases that wait each get a thread of their own, not counted in `jobs`: they sleep through most of their
        // time, so their waits overlap the rest of the run.
        for caseIndex in schedule.waiting { start { schedule.runWaiting(caseIndex) } }
        for _ in 0..<min(jobs, max(schedule.order.count, 1)) where !schedule.order.isEmpty {
            // Each worker has a judging thread: while it judges one case, the worker sends the next.
            let judging = JudgingQueue()
            start { judging.drain() }
            start { schedule.runWorker(judging: judging) }
        }
        group.wait()
        return schedule.results()
    }

    /// The targets with what cannot be used said once before any case: unreachable origins, an adapter that does not
    /// answer a first request, configured credentials the target rejects.
    private func preflighted(_ targets: TargetUnderTest, for cases: [ConformanceCase]) -> TargetUnderTest {
        var checked = targets
        checked.unreachable = ReachabilityPreflight.unreachable(cases, targets: targets, timeout: timeout)
        for contract in targets.contracts.all {
            guard let adapter = targets.adapters[contract.key], cases.contains(where: { AdapterContracts.sends($0, through: contract) }),
                let problem = adapter.preflight(timeout: timeout)
            else { continue }
            checked.unreachable[contract.key.rawValue] = problem
        }
        if cases.contains(where: \.sendsConfiguredCredentials), checked.unreachable.isEmpty {
            checked.credentialsProblem = CredentialsPreflight.problem(targets, configuration, timeout: timeout)
        }
        return checked
    }

    /// One worker's connections (a link-handler process or connection, HTTP clients); not shared between threads.
    package final class Worker {
        private let runner: Runner
        private let targets: TargetUnderTest
        private let executor: StepExecutor

        /// A finished case and what the run collects from it.
        struct Finished: Sendable {
            var result: CaseResult
            /// Every authorization code a `code: fresh` check accepted.
            var issuedCodes: [IssuedCode] = []
            /// What the target made of the configured credentials, when the case sent them.
            var credentials: ConfiguredCredentials?
            /// A fault of the request this worker sent before this case's (a persistent handler's extra output).
            var previousCaseFault: String?
        }

        /// A case as the worker left it: finished, or sent with only its judging left (which any thread can do).
        enum Started: Sendable {
            case finished(Finished)
            case judging(DeferredJudgement, exchangeSeconds: Double)

            func finish() -> Finished {
                switch self {
                case .finished(let finished):
                    return finished
                case .judging(let judgement, let exchangeSeconds):
                    let started = Date()
                    let outcome = judgement.outcome()
                    return Worker.finished(judgement.conformanceCase, outcome, duration: exchangeSeconds + Date().timeIntervalSince(started))
                }
            }
        }

        package init(runner: Runner, targets: TargetUnderTest) {
            self.runner = runner
            self.targets = targets
            executor = StepExecutor(
                targets: targets, configuration: runner.configuration, timeout: runner.timeout,
                logExcerptLimit: runner.logExcerptLimit)
        }

        package func close() { executor.close() }

        /// Why a case is not sent: what it needs is missing here, or (`notApplicable`) what a conformant server may
        /// lack is absent, so the case does not apply to this target and nothing is left untested.
        private struct Skip {
            var reason: String
            var notApplicable = false
        }

        /// Why a case does not apply to this run (marked skipped, a target or configuration value missing, a wait
        /// too long without --slow), or nil when it runs.
        private func skip(_ conformanceCase: ConformanceCase) -> Skip? {
            if let reason = conformanceCase.skipReason { return Skip(reason: reason) }
            if targets.endpoints[.metadata] == nil, conformanceCase.httpRequests.contains(where: { $0.endpoint == .metadata }) {
                // RFC 8414 metadata is optional for a server: without it there is nothing it advertises to hold.
                return Skip(
                    reason: "no metadata endpoint is configured, and RFC 8414 metadata is optional for a server "
                        + "(give endpoints.metadata when yours publishes one)", notApplicable: true)
            }
            if let reason = targets.unavailability(of: conformanceCase) { return Skip(reason: reason) }
            for need in conformanceCase.needs {
                guard let unmet = need.unmet(by: conformanceCase, in: runner.configuration, endpoints: targets.endpoints) else { continue }
                return Skip(reason: unmet, notApplicable: need.isTargetProperty(in: runner.configuration))
            }
            return skipReason(conformanceCase).map { Skip(reason: $0) }
        }

        /// Why a case cannot run with this configuration's users and waits, or nil when it runs.
        private func skipReason(_ conformanceCase: ConformanceCase) -> String? {
            if conformanceCase.probesSignIn, targets.signIn[conformanceCase.scenario] == nil {
                return "it probes the real sign-in pages, and the configuration says of no '\(conformanceCase.scenario.rawValue)' "
                    + "user how to sign in through them (sign_in)"
            }
            if conformanceCase.httpRequests.contains(where: { $0.user == .scenario(.secondUser) }),
                targets.signIn[.secondUser] == nil, targets.decorations[.secondUser] == nil
            {
                return "it compares what two users' tokens get, and the configuration gives no second user (second-user under "
                    + "sign_in or scenarios; give one when endpoints.api answers per user, such as a userinfo)"
            }
            if conformanceCase.needsSecondSignIn, targets.donorSignIn(besides: conformanceCase.scenario) == nil {
                return "it takes an anti-forgery token from a second user's session, and the configuration says of no user "
                    + "besides the '\(conformanceCase.scenario.rawValue)' one how to sign in (sign_in for another scenario)"
            }
            guard conformanceCase.waits else { return nil }
            guard let wait = conformanceCase.totalWait(in: runner.configuration) else {
                return conformanceCase.steps.lazy.compactMap { $0.wait?.unmet(in: self.runner.configuration) }.first
                    ?? "it waits for a time the configuration does not declare"
            }
            if wait > Runner.slowThreshold, !runner.includeSlow { return "a slow case: it waits \(Int(wait)) s; run with --slow to include it" }
            return nil
        }

        /// Runs one case: skipped when marked so or when its target is not configured; error when the target
        /// misbehaved; otherwise judged by its worst check.
        package func run(_ conformanceCase: ConformanceCase) -> CaseResult {
            start(conformanceCase, judgingApart: false).finish().result
        }

        /// Starts one case: sends it, and judges it too unless `judgingApart` and judging is all that is left
        /// (`DeferredJudgement`), which `Started.finish` then does on the caller's thread; `readingAhead` when the
        /// thread that will judge it is behind (`StepExecutor.readsAhead`).
        func start(_ conformanceCase: ConformanceCase, judgingApart: Bool, readingAhead: Bool = false) -> Started {
            if let result = unsent(conformanceCase) { return .finished(Finished(result: executor.runRedactor.redactMessage(of: result))) }
            executor.readsAhead = judgingApart && readingAhead
            let started = Date()
            if judgingApart, let judgement = executor.sendOnly(conformanceCase) {
                return .judging(judgement, exchangeSeconds: Date().timeIntervalSince(started))
            }
            let outcome = executor.run(conformanceCase)
            return .finished(Self.finished(conformanceCase, outcome, duration: Date().timeIntervalSince(started)))
        }

        /// The result of a case that is not sent (skipped, or a configuration or reachability problem found before
        /// the run), or nil when it is sent.
        private func unsent(_ conformanceCase: ConformanceCase) -> CaseResult? {
            if let skip = skip(conformanceCase) {
                var result = CaseResult(
                    conformanceCase: conformanceCase, verdict: .skip, checks: [],
                    message: skip.notApplicable ? "not applicable to this target: " + skip.reason : skip.reason,
                    evidence: Evidence(), duration: 0)
                result.conditionUnmet = skip.notApplicable
                return result
            }
            if let problem = targets.credentialsProblem, conformanceCase.sendsConfiguredCredentials {
                var result = CaseResult(
                    conformanceCase: conformanceCase, verdict: .error, checks: [],
                    message: "not sent: configuration problem: " + problem, evidence: Evidence(), duration: 0)
                result.runFault = .configuration(problem)
                return result
            }
            for contract in targets.contracts.all {
                guard let problem = targets.unreachable[contract.key.rawValue], AdapterContracts.sends(conformanceCase, through: contract) else {
                    continue
                }
                return notSent(conformanceCase, UnreachableTarget(key: contract.key.rawValue, reason: problem))
            }
            if !targets.unreachable.isEmpty,
                let origin = ReachabilityPreflight.origins(of: conformanceCase, in: targets).first(where: {
                    targets.unreachable[$0.description] != nil
                }),
                let reason = targets.unreachable[origin.description]
            {
                return notSent(
                    conformanceCase, UnreachableTarget(key: origin.description, reason: "\(origin) could not be reached before the run (\(reason))"))
            }
            return nil
        }

        /// A case not sent because `target` cannot be used: an error the run says once.
        private func notSent(_ conformanceCase: ConformanceCase, _ target: UnreachableTarget) -> CaseResult {
            var result = CaseResult(
                conformanceCase: conformanceCase, verdict: .error, checks: [], message: target.caseMessage,
                evidence: Evidence(), duration: 0)
            result.runFault = .unreachable(target)
            return result
        }

        /// The result of a case that ran: error when the suite or the target failed, skipped when a step did not
        /// apply, otherwise judged by its worst check. Its evidence and checks were redacted as the outcome recorded
        /// them; its message is redacted here, with every secret the case met, before anything reads it.
        static func finished(_ conformanceCase: ConformanceCase, _ outcome: StepExecutor.Outcome, duration: Double) -> Finished {
            Finished(
                result: outcome.redactor.redactMessage(of: result(conformanceCase, outcome, duration: duration)), issuedCodes: outcome.issuedCodes,
                credentials: outcome.configuredCredentials, previousCaseFault: outcome.previousRequestFault)
        }

        private static func result(_ conformanceCase: ConformanceCase, _ outcome: StepExecutor.Outcome, duration: Double) -> CaseResult {
            // The verdict rule, by fault: the suite's own says nothing of the target; a step that does not apply here
            // skips the case; anything else the target did ends it in an error. What earlier steps found stands: a
            // violation already shown is a failure, whatever came after.
            let failed = outcome.checks.contains { $0.isFinding && $0.verdict == .fail }
            switch outcome.fault {
            case .suite(let fault)?:
                var result = CaseResult(
                    conformanceCase: conformanceCase, verdict: .error, checks: outcome.checks,
                    message: "suite error, not the target's: " + fault, evidence: outcome.evidence, duration: duration)
                result.runFault = .suite(fault)
                return result
            case .notApplicable(let reason)?:
                return CaseResult(
                    conformanceCase: conformanceCase, verdict: failed ? .fail : .skip, checks: outcome.checks,
                    message: failed ? "then a later step was skipped: \(reason)" : reason, evidence: outcome.evidence,
                    duration: duration)
            case .target(let message)?, .throttled(let message)?, .missingCapture(let message)?:
                return CaseResult(
                    conformanceCase: conformanceCase, verdict: outcome.checks.contains { $0.verdict == .fail } ? .fail : .error,
                    checks: outcome.checks, message: message, evidence: outcome.evidence, duration: duration)
            case nil:
                return CaseResult.judged(
                    conformanceCase, checks: outcome.checks, evidence: outcome.evidence, duration: duration,
                    unmetConditions: outcome.unmetConditions)
            }
        }
    }
}
