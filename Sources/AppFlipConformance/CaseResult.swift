import AppFlipModel

/// The result of running one case against a target.
public struct CaseResult: Sendable, Hashable, CustomStringConvertible {
    public var conformanceCase: ConformanceCase
    public var verdict: Verdict
    /// The checks that applied and did not hold, in the case's order.
    public var findings: [Finding]
    /// For `error` and `skip`: what happened, in one sentence.
    public var message: String?
    /// Seconds the case took.
    public var duration: Double
    /// What was sent and answered, secrets redacted (the link, the answer, the handler's log, HTTP exchanges).
    public var evidence: [String]

    /// Whether the case holds: no MUST or MUST NOT failed and the target did not err (warnings and infos allowed).
    public var holds: Bool { verdict != .fail && verdict != .error }

    public var description: String {
        var lines = ["\(conformanceCase.id): \(verdict.rawValue)" + (message.map { " (\($0))" } ?? "")]
        lines += findings.map { "  \($0)" }
        return lines.joined(separator: "\n")
    }

    package init(_ result: AppFlipModel.CaseResult) {
        conformanceCase = ConformanceCase(result.conformanceCase)
        verdict = result.verdict
        findings = result.findings.map { check in
            Finding(
                requirement: check.requirement.id, level: check.requirement.level, expected: check.expected, observed: check.observed,
                verdict: check.verdict)
        }
        message = result.message
        duration = result.duration
        let evidence = result.evidence
        self.evidence =
            [
                evidence.link.isEmpty ? nil : "link: \(evidence.link)", evidence.answer.isEmpty ? nil : "answer: \(evidence.answer)",
                evidence.stderr.isEmpty ? nil : "log: \(evidence.stderr)",
            ].compactMap { $0 }
            + evidence.exchanges.map { $0.rendered(times: true) }
    }
}
