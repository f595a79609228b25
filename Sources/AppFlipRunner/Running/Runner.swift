import AppFlipModel
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

    package init(configuration: RunConfiguration, timeout: Double = 10, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                logExcerptLimit: Int = 4096) {
        self.configuration = configuration
        self.timeout = timeout
        self.jobs = max(1, jobs)
        self.logExcerptLimit = logExcerptLimit
    }

    /// Runs every case against a link handler (app-link cases).
    package func run(_ cases: [ConformanceCase], on target: any LinkHandlerTarget,
                    shouldStop: @escaping @Sendable () -> Bool = { false },
                    progress: @escaping @Sendable (CaseResult) -> Void = { _ in }) -> [CaseResult] {
        run(cases, targets: Targets(linkHandler: target), shouldStop: shouldStop, progress: progress)
    }

    /// Runs every case and returns the results in case order. `progress` is called as each case finishes, one call
    /// at a time. `shouldStop` is polled between cases.
    package func run(_ cases: [ConformanceCase], targets: Targets,
                    shouldStop: @escaping @Sendable () -> Bool = { false },
                    progress: @escaping @Sendable (CaseResult) -> Void = { _ in }) -> [CaseResult] {
        var checked = targets
        checked.unreachable = ReachabilityPreflight.unreachable(cases, targets: targets, timeout: timeout)
        if cases.contains(where: \.sendsConfiguredCredentials), checked.unreachable.isEmpty {
            checked.credentialsProblem = CredentialsPreflight.problem(targets, configuration, timeout: timeout)
        }
        let targets = checked
        let results = Locked<[CaseResult?]>(Array(repeating: nil, count: cases.count))
        // Cases that wait each get a thread of their own, not counted in `jobs`: they sleep through most of their
        // time, so their waits overlap the rest of the run. Cases that run last (a burst that may set off the
        // server's throttling) wait until every other case has finished, then run one at a time.
        let waiting = cases.indices.filter { cases[$0].waits && !cases[$0].runsLast }
        let order = cases.indices.filter { !cases[$0].waits && !cases[$0].runsLast } + cases.indices.filter { cases[$0].runsLast }
        let lastPhase = order.count - cases.indices.filter { cases[$0].runsLast }.count
        let earlierDone = DispatchGroup()
        for _ in 0..<(lastPhase + waiting.count) { earlierDone.enter() }
        let alone = Locked(())
        let issuedCodes = Locked<[Int: [IssuedCode]]>([:])
        let credentials = Locked<[Int: ConfiguredCredentials]>([:])
        let next = Locked(0)
        let reporting = Locked(())
        let group = DispatchGroup()
        let runner = self

        /// Runs one case on `worker` and records what it found; false when the run is being stopped.
        @Sendable func record(_ caseIndex: Int, on worker: Worker, last: Bool) -> Bool {
            let result = last ? alone.withLock { _ in worker.run(cases[caseIndex]) } : worker.run(cases[caseIndex])
            defer { if !last { earlierDone.leave() } }
            let codes = worker.takeIssuedCodes()
            if !codes.isEmpty { issuedCodes.withLock { $0[caseIndex] = codes } }
            if let verdict = worker.takeCredentialsVerdict() { credentials.withLock { $0[caseIndex] = verdict } }
            // A case cut short by an interruption is not a result: it is left out, and the run is incomplete.
            if shouldStop() { return false }
            results.withLock { all in
                all[caseIndex] = result
                // Extra output found now belongs to the request this worker sent before.
                if let fault = worker.takePreviousCaseFault(), let previous = worker.previousIndex, let earlier = all[previous] {
                    all[previous] = earlier.addingProtocolFault(fault)
                }
                worker.previousIndex = caseIndex
            }
            reporting.withLock { _ in progress(result) }
            return true
        }

        func start(_ body: @escaping @Sendable () -> Void) {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                body()
            }
            thread.stackSize = 8 << 20
            thread.start()
        }
        for caseIndex in waiting {
            start {
                let worker = Worker(runner: runner, targets: targets)
                defer { worker.close() }
                if shouldStop() {
                    earlierDone.leave()
                    return
                }
                _ = record(caseIndex, on: worker, last: false)
            }
        }
        for _ in 0..<min(jobs, max(order.count, 1)) where !order.isEmpty {
            start {
                let worker = Worker(runner: runner, targets: targets)
                defer { worker.close() }
                while !shouldStop() {
                    let index = next.withLock { value -> Int in
                        defer { value += 1 }
                        return value
                    }
                    guard index < order.count else { return }
                    if index >= lastPhase {
                        // Polled, so an interruption that leaves earlier cases unstarted cannot leave this waiting.
                        while earlierDone.wait(timeout: .now() + 0.1) == .timedOut {
                            if shouldStop() { return }
                        }
                    }
                    guard record(order[index], on: worker, last: index >= lastPhase) else { return }
                }
            }
        }
        group.wait()
        var all = results.withLock { $0 }
        ConfiguredCredentials.judge(&all, verdicts: credentials.withLock { $0 })
        IssuedCode.judgeFreshness(&all, codes: issuedCodes.withLock { $0 })
        return all.compactMap { $0 }
    }

    /// One worker's connections (a link-handler process or connection, HTTP clients); not shared between threads.
    package final class Worker {
        private let runner: Runner
        private let targets: Targets
        private let executor: StepExecutor
        private var previousCaseFault: String?
        /// The index of the case this worker ran last, for faults found while running the next.
        var previousIndex: Int?

        private var issuedCodes: [IssuedCode] = []
        private var credentialsVerdict: ConfiguredCredentials?

        /// What the last case's target made of the configured credentials (taken once).
        func takeCredentialsVerdict() -> ConfiguredCredentials? {
            defer { credentialsVerdict = nil }
            return credentialsVerdict
        }

        /// The codes the last case accepted (taken once).
        func takeIssuedCodes() -> [IssuedCode] {
            defer { issuedCodes = [] }
            return issuedCodes
        }

        /// A fault of the case this worker ran before the last one, found while running the last (taken once).
        func takePreviousCaseFault() -> String? {
            defer { previousCaseFault = nil }
            return previousCaseFault
        }

        package init(runner: Runner, targets: Targets) {
            self.runner = runner
            self.targets = targets
            executor = StepExecutor(targets: targets, configuration: runner.configuration, timeout: runner.timeout,
                                    logExcerptLimit: runner.logExcerptLimit)
        }

        package func close() { executor.close() }

        /// Why a case does not apply to this run (marked skipped, a target or configuration value missing, a wait
        /// too long without --slow), or nil when it runs.
        private func skipReason(_ conformanceCase: ConformanceCase) -> String? {
            if let reason = conformanceCase.skipReason ?? targets.unavailability(of: conformanceCase) { return reason }
            if let unmet = conformanceCase.needs.lazy.compactMap({
                $0.unmet(by: conformanceCase, in: self.runner.configuration, endpoints: self.targets.endpoints)
            }).first { return unmet }
            if conformanceCase.probesSignIn, targets.signIn[conformanceCase.scenario] == nil {
                return "it probes the real sign-in pages, and the configuration says of no '\(conformanceCase.scenario.rawValue)' "
                    + "user how to sign in through them (sign_in)"
            }
            if conformanceCase.httpRequests.contains(where: { $0.user == .scenario(.secondUser) }),
               targets.signIn[.secondUser] == nil, targets.decorations[.secondUser] == nil {
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
            if let reason = skipReason(conformanceCase) {
                return CaseResult(conformanceCase: conformanceCase, verdict: .skip, checks: [], message: reason, evidence: Evidence(), duration: 0)
            }
            if let problem = targets.credentialsProblem, conformanceCase.sendsConfiguredCredentials {
                var result = CaseResult(conformanceCase: conformanceCase, verdict: .error, checks: [],
                                        message: "not sent: configuration problem: " + problem, evidence: Evidence(), duration: 0)
                result.configurationProblem = problem
                return result
            }
            if !targets.unreachable.isEmpty,
               let origin = ReachabilityPreflight.origins(of: conformanceCase, in: targets).first(where: { targets.unreachable[$0.description] != nil }),
               let reason = targets.unreachable[origin.description] {
                var result = CaseResult(conformanceCase: conformanceCase, verdict: .error, checks: [],
                                        message: "not sent: \(origin) could not be reached before the run (\(reason))", evidence: Evidence(), duration: 0)
                result.unreachableTarget = origin.description
                return result
            }
            let started = Date()
            let outcome = executor.run(conformanceCase)
            let duration = Date().timeIntervalSince(started)
            previousCaseFault = outcome.previousRequestFault
            issuedCodes = outcome.issuedCodes
            credentialsVerdict = outcome.configuredCredentials
            if let fault = outcome.suiteFault {
                var result = CaseResult(conformanceCase: conformanceCase, verdict: .error, checks: outcome.checks,
                                        message: "suite error, not the target's: " + fault, evidence: outcome.evidence, duration: duration)
                result.suiteFault = fault
                return result
            }
            if let reason = outcome.skipReason {
                // What earlier steps found stands: a violation already shown is a failure, whatever came after.
                let failed = outcome.checks.contains { $0.isFinding && $0.verdict == .fail }
                return CaseResult(conformanceCase: conformanceCase, verdict: failed ? .fail : .skip, checks: outcome.checks,
                                  message: failed ? "then a later step was skipped: \(reason)" : reason, evidence: outcome.evidence,
                                  duration: duration)
            }
            if let failure = outcome.failure {
                // A violation already shown outweighs a later step that could not run.
                let verdict: Verdict = outcome.checks.contains { $0.verdict == .fail } ? .fail : .error
                return CaseResult(conformanceCase: conformanceCase, verdict: verdict, checks: outcome.checks, message: failure,
                                  evidence: outcome.evidence, duration: duration)
            }
            return CaseResult.judged(conformanceCase, checks: outcome.checks, evidence: outcome.evidence, duration: duration)
        }
    }
}
