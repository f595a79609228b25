/// The result of one case: its verdict, every check, the evidence and how long it took.
public struct CaseResult: Sendable, Hashable {
    public var conformanceCase: ConformanceCase
    public var verdict: Verdict
    public var checks: [CheckResult]
    /// For `error` and `skip`: what happened, in one sentence.
    public var message: String?
    public var evidence: Evidence
    /// Seconds spent on the case.
    public var duration: Double

    public init(conformanceCase: ConformanceCase, verdict: Verdict, checks: [CheckResult], message: String? = nil,
                evidence: Evidence, duration: Double) {
        self.conformanceCase = conformanceCase
        self.verdict = verdict
        self.checks = checks
        self.message = message
        self.evidence = evidence
        self.duration = duration
    }

    /// A judged case: its verdict is its worst check.
    public static func judged(_ conformanceCase: ConformanceCase, checks: [CheckResult], evidence: Evidence, duration: Double) -> CaseResult {
        CaseResult(conformanceCase: conformanceCase, verdict: checks.map(\.verdict).max() ?? .pass, checks: checks,
                   evidence: evidence, duration: duration)
    }

    /// The checks that did not hold.
    public var findings: [CheckResult] { checks.filter { !$0.held } }
}
