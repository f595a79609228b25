/// The result of one case: its verdict, every check, the evidence and how long it took.
package struct CaseResult: Sendable, Hashable {
    package var conformanceCase: ConformanceCase
    package var verdict: Verdict
    package var checks: [CheckResult]
    /// For `error` and `skip`: what happened, in one sentence.
    package var message: String?
    package var evidence: Evidence
    /// Seconds spent on the case.
    package var duration: Double
    /// Set when the case could not be judged because the run's configuration is wrong (said once for the run).
    package var configurationProblem: String?
    /// Set when the suite itself failed (out of descriptors, memory or processes): the case judged nothing.
    package var suiteFault: String?
    /// Set when the case was not sent because the origin it needs could not be reached before the run (said once
    /// for the run, not once per case).
    package var unreachableTarget: String?
    /// The baseline entries that accept this case's failure (or error) for now: the case is reported as a known
    /// failure and does not fail the run. Empty unless a baseline covers every failing check of the case.
    package var knownBy: [Baseline.Entry] = []

    /// A failure or error the baseline accepts for now.
    package var isKnown: Bool { !knownBy.isEmpty }

    package init(conformanceCase: ConformanceCase, verdict: Verdict, checks: [CheckResult], message: String? = nil,
                evidence: Evidence, duration: Double) {
        self.conformanceCase = conformanceCase
        self.verdict = verdict
        self.checks = checks
        self.message = message
        self.evidence = evidence
        self.duration = duration
    }

    /// A judged case: its verdict is its worst applicable check. A case none of whose checks applied is an error:
    /// nothing was judged, so nothing can pass.
    package static func judged(_ conformanceCase: ConformanceCase, checks: [CheckResult], evidence: Evidence, duration: Double) -> CaseResult {
        let applicable = checks.filter(\.isApplicable)
        guard let worst = applicable.map(\.verdict).max() else {
            return CaseResult(conformanceCase: conformanceCase, verdict: .error, checks: checks,
                              message: "no check applied to what the target did, so nothing was judged", evidence: evidence, duration: duration)
        }
        return CaseResult(conformanceCase: conformanceCase, verdict: worst, checks: checks, evidence: evidence, duration: duration)
    }

    /// The checks that applied and did not hold.
    package var findings: [CheckResult] { checks.filter(\.isFinding) }

    /// The checks that did not apply to what the target did.
    package var notApplicable: [CheckResult] { checks.filter { !$0.isApplicable } }

    /// The requirements the case declares, then any other its checks judged (a case built at run time, such as a
    /// validate-url URL, declares none), each once.
    package var requirements: [RequirementReference] {
        var seen = Set<RequirementReference>()
        return (conformanceCase.requirements + checks.map(\.requirement)).filter { seen.insert($0).inserted }
    }
}

extension CaseResult {
    /// The result once a protocol fault of the target (extra output after its answer) is charged to it: a
    /// violation already observed stays a failure, with the fault added; anything else becomes an error.
    package func addingProtocolFault(_ fault: String) -> CaseResult {
        var result = self
        if verdict == .fail {
            result.message = [message, "also a protocol fault: \(fault)"].compactMap { $0 }.joined(separator: "; ")
        } else {
            result.verdict = .error
            result.message = fault
        }
        return result
    }
}
